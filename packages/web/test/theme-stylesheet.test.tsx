import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { themeStylesheet } from '../runtime/theme-stylesheet';
import { App } from '../src/app/App';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

describe('the theme as a stylesheet made at build', () => {
  it('holds the contrast variables of both schemes and the responsive classes', () => {
    const css = themeStylesheet();
    expect(css).toContain('--mantine-primary-color-filled: var(--mantine-color-indigo-filled)');
    expect(css).toMatch(
      /\[data-mantine-color-scheme="light"\][^}]*--mantine-color-anchor: var\(--mantine-color-blue-8\)/,
    );
    expect(css).toMatch(
      /\[data-mantine-color-scheme="dark"\][^}]*--mantine-color-dimmed: var\(--mantine-color-dark-1\)/,
    );
    expect(css).toContain('.mantine-hidden-from-sm');
  });

  // Regression: the provider worked the variables out and inserted them as <style> at every start.
  it('is not inserted again by the running client', async () => {
    const model = loadExample('shop.yaml');
    const api = apiOf(model);
    const { findByRole } = render(
      <App
        spec={{ model, api, data: createMemoryDataProvider(model, api, {}) }}
        initialPath="/_/about"
        locale="en"
      />,
    );
    await findByRole('heading', { level: 1 });
    expect(document.querySelectorAll('style[data-mantine-styles]')).toHaveLength(0);
  });
});
