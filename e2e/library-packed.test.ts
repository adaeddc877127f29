import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, ROOT, startNinefold } from './support/ninefold';
import { demoPassword } from './support/sign-in';
import { startWatched, type WatchedProcess } from './support/watched-process';

// @ninefold/react as a team outside this repository gets it: the package packed (`npm pack`), installed
// from the tarball into a fresh Vite app in a temporary folder with npm and the registry alone, compiled
// with the app's own TypeScript and built with its own Vite, then opened in Chromium. No `resolve.dedupe`,
// no `paths`: React, Mantine and TanStack Query are the app's, as peer dependencies.
const PACKAGE = join(ROOT, 'packages/react');
let work: string;
let app: string;
let browser: Browser;
let api: NinefoldProcess;
let preview: WatchedProcess;
let base: string;

/** Runs a command to its end; its output is the failure's message when it fails. */
function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${output}`);
  return output;
}

/** The version this checkout runs of a package, so that the app installs what the suite has tested. */
function version(name: string): string {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}

const FILES: Record<string, string> = {
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><link rel="icon" href="data:," /><title>Tool room</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
  'src/vite-env.d.ts': `/// <reference types="vite/client" />
/// <reference types="@ninefold/react/client" />
`,
  'src/main.tsx': `import '@ninefold/react/style.css';
import { NinefoldApp } from '@ninefold/react';
import { createRoot } from 'react-dom/client';
import shop from '../shop.md?ninefold';
import ui from './ui';

createRoot(document.getElementById('root') as HTMLElement).render(
  <NinefoldApp {...shop} extensions={ui} basename="/admin" />,
);
`,
  'src/ui.tsx': `import { defineExtension } from '@ninefold/react';

export default defineExtension({
  slots: { header: () => <span className="packed">Installed from the tarball</span> },
});
`,
  'vite.config.ts': `import { ninefold } from '@ninefold/react/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.NINEFOLD_API ?? 'http://127.0.0.1:4321';

export default defineConfig({
  plugins: [react(), ninefold()],
  preview: { proxy: { '/api': api } },
});
`,
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      // The app's code; vite.config.ts is Node's, as in Vite's own templates (tsconfig.node.json).
      include: ['src'],
    },
    null,
    2,
  )}\n`,
};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ninefold-packed-'));
  app = join(work, 'app');
  // Built by `npm ci` (scripts/prepare.mjs); built again here only when its sources changed since.
  run(
    process.execPath,
    [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build.ts', '--if-stale'],
    PACKAGE,
  );
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], PACKAGE)) as Array<{
    filename: string;
  }>;
  const tarball = join(work, packed[0]?.filename ?? '');
  mkdirSync(join(app, 'src'), { recursive: true });
  for (const [file, text] of Object.entries(FILES)) writeFileSync(join(app, file), text);
  copyFileSync(join(ROOT, 'examples/shop.md'), join(app, 'shop.md'));
  const exact = (names: string[]) => Object.fromEntries(names.map((name) => [name, version(name)]));
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'tool-room',
        private: true,
        type: 'module',
        dependencies: {
          '@ninefold/react': `file:${tarball}`,
          ...exact(['react', 'react-dom', '@mantine/core', '@mantine/hooks', '@tanstack/react-query']),
        },
        devDependencies: exact([
          'vite',
          '@vitejs/plugin-react',
          'typescript',
          '@types/react',
          '@types/react-dom',
        ]),
      },
      null,
      2,
    )}\n`,
  );
  // The registry alone (npm's cache from this checkout's own install makes it quick).
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
  run(process.execPath, [join(app, 'node_modules/vite/bin/vite.js'), 'build'], app);
  [browser, api] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '8'], { live: true }),
  ]);
  preview = await startWatched(
    process.execPath,
    [join(app, 'node_modules/vite/bin/vite.js'), 'preview', '--host', '127.0.0.1', '--port', '0'],
    {
      cwd: app,
      env: { ...process.env, NO_COLOR: '1', NINEFOLD_API: api.url.replace(/\/$/, '') },
      ready: /http:\/\/127\.0\.0\.1:\d+\//,
      name: 'vite preview',
      timeoutMs: 60_000,
    },
  );
  base = preview.ready[0];
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await preview?.stop();
  if (api) expect(await api.stop()).toBe(0);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('@ninefold/react packed and installed into a fresh Vite app', () => {
  it('installs one React, Mantine and TanStack Query, the app’s own', () => {
    for (const name of ['react', 'react-dom', '@mantine/core', '@tanstack/react-query']) {
      expect(existsSync(join(app, 'node_modules', name)), name).toBe(true);
      expect(existsSync(join(app, 'node_modules/@ninefold/react/node_modules', name)), name).toBe(false);
    }
  });

  it('builds with the app’s own tools and runs the client, signed in, with its extension', async () => {
    const { page, problems } = await browser.newPage();
    // Named, where the console says only "404".
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(new URL(response.url()).pathname);
    });
    await page.goto(`${base}admin/sign-in?next=${encodeURIComponent('/products')}`);
    await page.getByLabel('Email', { exact: false }).fill('warehouse@demo.test', { timeout: 60_000 });
    await page.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(api));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}admin/products`);
    const table = page.getByRole('table', { name: 'Products' });
    await table.locator('tbody tr').first().waitFor();
    expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
    await page.locator('.packed').getByText('Installed from the tarball').waitFor();
    await screenshot(page, 'library-packed');
    expect(missing).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
