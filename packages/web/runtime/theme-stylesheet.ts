import { MantineProvider } from '@mantine/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { THEME } from '../src/app/theme';

/**
 * The theme's CSS variables and Mantine's responsive classes as one stylesheet: exactly what
 * `MantineProvider` would insert as <style> elements at every start, rendered once when the runtime is
 * built, from the same settings (`THEME`). The client's provider is told not to insert them.
 *
 * @example
 * ```ts
 * themeStylesheet(); // ':root{--mantine-primary-color-filled: …}…@media (max-width: 35.99375em) {…}'
 * ```
 */
export function themeStylesheet(): string {
  const html = renderToStaticMarkup(
    createElement(MantineProvider, { ...THEME, withCssVariables: true, withGlobalClasses: true }),
  );
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
  if (styles.length < 2) throw new Error(`MantineProvider rendered ${styles.length} <style> elements, not 2`);
  return `${styles.join('\n')}\n`;
}
