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
 * The client loads the stylesheets of the Mantine components it uses, not all of Mantine's: those of the
 * first screens with the page (packages/web/src/app/mantine.css), the others after the first frame
 * (mantine-later.css). These hold that choice to the code: a component added without its stylesheet,
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

  it('style every Mantine class the first screens can use in the stylesheet the page loads with', async () => {
    const dir = await ensureRuntime();
    const assets = join(dir, 'assets');
    // The stylesheet index.html names; the later one (mantine-later.css) comes after the first frame.
    const first = /href="\.\/assets\/([^"]+\.css)"/.exec(readFileSync(join(dir, 'index.html'), 'utf8'))?.[1];
    expect(first, 'index.html names a stylesheet').toBeDefined();
    const css = readFileSync(join(assets, first ?? ''), 'utf8');
    const manifest = JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string; imports?: string[]; isEntry?: boolean }
    >;
    // The code a first list or dashboard runs: the entry, those screens, and what they import statically.
    const files = new Set<string>();
    const closure = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) closure(imported);
    };
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) closure(key);
    closure('src/screens/ListScreen.tsx');
    closure('src/screens/DashboardScreen.tsx');
    expect(files.size).toBeGreaterThan(2);
    const used = new Set<string>();
    for (const file of files)
      for (const name of readFileSync(join(dir, file), 'utf8').match(MANTINE_NAME) ?? []) used.add(name);
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((name) => !css.includes(name))).toEqual([]);
  }, 300_000);

  it('are imported in the order of Mantine’s own stylesheet, the first screens’ first', () => {
    const importsOf = (file: string) =>
      [
        ...readFileSync(join(root, 'packages/web/src/app', file), 'utf8').matchAll(
          /@import "@mantine\/core\/styles\/([\w-]+)\.css";/g,
        ),
      ].map((match) => match[1] ?? '');
    const first = importsOf('mantine.css');
    const later = importsOf('mantine-later.css');
    expect(first.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    expect(first.filter((name) => later.includes(name))).toEqual([]);
    const whole = readFileSync(join(root, 'node_modules/@mantine/core/styles.css'), 'utf8');
    for (const imported of [first, later]) {
      const positions = imported.map((name) => {
        const start = readFileSync(join(MANTINE_STYLES, `${name}.css`), 'utf8')
          .trim()
          .slice(0, 80);
        return whole.indexOf(start);
      });
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
  });
});
