import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntime } from '@ninefold/web/runtime';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const MANTINE_STYLES = join(root, 'node_modules/@mantine/core/styles');
/** Mantine's class names and keyframes: `m_` and eight hex digits, the same in its code and its CSS. */
const MANTINE_NAME = /m_[0-9a-f]{8}/g;

/**
 * The client loads the stylesheets of the Mantine components it uses (packages/web/src/app/mantine.css),
 * not all of Mantine's. These hold that choice to the code: a component added without its stylesheet,
 * or one put out of Mantine's order, fails here rather than looking broken in a browser.
 */
describe('the runtime’s Mantine styles', () => {
  it('style every Mantine class and animation the built code can use', async () => {
    const assets = join(await ensureRuntime(), 'assets');
    const files = readdirSync(assets);
    const css = files
      .filter((file) => file.endsWith('.css'))
      .map((file) => readFileSync(join(assets, file), 'utf8'))
      .join('\n');
    const used = new Set<string>();
    for (const file of files.filter((name) => name.endsWith('.js') && !name.includes('.worker')))
      for (const name of readFileSync(join(assets, file), 'utf8').match(MANTINE_NAME) ?? []) used.add(name);
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((name) => !css.includes(name))).toEqual([]);
  }, 300_000);

  it('are imported in the order of Mantine’s own stylesheet', () => {
    const list = readFileSync(join(root, 'packages/web/src/app/mantine.css'), 'utf8');
    const imported = [...list.matchAll(/@import "@mantine\/core\/styles\/([\w-]+)\.css";/g)].map(
      (match) => match[1] ?? '',
    );
    expect(imported.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    const whole = readFileSync(join(root, 'node_modules/@mantine/core/styles.css'), 'utf8');
    const positions = imported.map((name) => {
      const start = readFileSync(join(MANTINE_STYLES, `${name}.css`), 'utf8')
        .trim()
        .slice(0, 80);
      return whole.indexOf(start);
    });
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
