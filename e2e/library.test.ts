import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { listRecords } from './support/list-records';
import { type NinefoldProcess, ROOT, startNinefold } from './support/ninefold';
import { demoPassword } from './support/sign-in';
import { startWatched, type WatchedProcess } from './support/watched-process';

// @ninefold/react as a team uses it: the package built to JavaScript and types, a Vite app of their own
// (examples/library-app, a workspace) compiled against those types and built with the plugin, then the
// generated shop client mounted in the app at /admin, in Chromium, under the policy ninefold serve sends.
const APP = join(ROOT, 'examples/library-app');
const PACKAGE = join(ROOT, 'packages/react');
let out: string;
let browser: Browser;
let api: NinefoldProcess;
let preview: WatchedProcess;
let base: string;

/** Runs a command to its end in a folder; its output is the failure's message when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
  });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${output}`);
  return output;
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'ninefold-library-app-'));
  const tsx = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  // Built by `npm ci` (scripts/prepare.mjs); built again here only when its sources changed since.
  run(process.execPath, [tsx, 'scripts/build.ts', '--if-stale'], PACKAGE);
  // TypeScript 7, as the repository's own type check (scripts/typecheck.mjs): a quarter of 5.9's time.
  run(process.execPath, [join(ROOT, 'node_modules/typescript-go/bin/tsc'), '-p', 'tsconfig.json'], APP);
  run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out], APP);
  [browser, api] = await Promise.all([
    launchBrowser(),
    // The app's client is built against the prototype API's description, live updates included.
    startNinefold('serve', 'examples/shop.md', ['--seed', '12'], { live: true }),
  ]);
  preview = await startWatched(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'preview',
      '--outDir',
      out,
      '--host',
      '127.0.0.1',
      '--port',
      '0',
    ],
    {
      cwd: APP,
      env: { ...process.env, NO_COLOR: '1', NINEFOLD_API: api.url.replace(/\/$/, '') },
      ready: /http:\/\/127\.0\.0\.1:\d+\//,
      name: 'vite preview',
      timeoutMs: 60_000,
    },
  );
  base = preview.ready[0];
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await preview?.stop();
  expect(await api?.stop()).toBe(0);
  rmSync(out, { recursive: true, force: true });
});

describe('@ninefold/react in a Vite app of its own', () => {
  it('is a package of JavaScript and declarations that leaves every library to the app', () => {
    const files = readdirSync(join(PACKAGE, 'dist'));
    expect(files).toEqual(
      expect.arrayContaining(['index.js', 'index.d.ts', 'style.css', 'vite.js', 'vite.d.ts']),
    );
    // No TypeScript source of Ninefold's is needed: the declarations import only React.
    const declarations = readFileSync(join(PACKAGE, 'dist/index.d.ts'), 'utf8');
    const imported = [...declarations.matchAll(/^(?:import|export) .* from '([^']+)';$/gm)].map(
      (match) => match[1],
    );
    expect(new Set(imported)).toEqual(new Set(['react']));
    expect(declarations).toMatch(/export declare function NinefoldApp\(/);
    // Every package the JavaScript imports is one the package depends on, so an app installs it once.
    const pkg = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    const used = new Set<string>();
    for (const file of files.filter((name) => name.endsWith('.js'))) {
      const text = readFileSync(join(PACKAGE, 'dist', file), 'utf8');
      const statements = /^(?:import|export)\b[^;]*?(?:from\s*)?"([^"]+)";$|\bimport\("([^"]+)"\)/gm;
      for (const match of text.matchAll(statements)) {
        const id = (match[1] ?? match[2]) as string;
        if (id.startsWith('.') || id.startsWith('node:')) continue;
        used.add(id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : (id.split('/')[0] as string));
      }
    }
    expect([...used].filter((name) => !declared.has(name))).toEqual([]);
    expect(used).toContain('react');
    expect(used).toContain('@mantine/core');
  });

  it("mounts the client below the app's own header, signs in, and shows the extension's widgets", async () => {
    for (const width of [1280, 360]) {
      const { page, problems } = await browser.newPage();
      await page.setViewportSize({ width, height: 800 });
      await page.goto(base);
      await page.getByRole('heading', { name: 'Harbor Supply back office' }).waitFor();
      await page.getByRole('link', { name: 'Open the shop admin' }).click();
      // The address is what is checked: on a loaded machine the page's load event once took past 30 s.
      // Any address below /admin counts, since the client may already have sent a signed-out person on
      // to its sign-in page by the time the wait starts.
      await page.waitForURL((url) => url.href.startsWith(`${base}admin`), { waitUntil: 'commit' });
      // The client's links stay below /admin: its sign-in page is the app's /admin/sign-in.
      await page.goto(`${base}admin/sign-in?next=${encodeURIComponent('/products')}`);
      await page.getByLabel('Email', { exact: false }).fill('warehouse@demo.test');
      await page.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(api));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base}admin/products`);
      // A table at a desk's width, cards on a phone's; the shop's card shows the stock.
      const records = listRecords(page);
      await records.first().waitFor();
      expect(await page.getByRole(width === 360 ? 'list' : 'table', { name: 'Products' }).count()).toBe(1);
      // The extension, passed as a prop: the stock level widget in every record, a row action, the logo.
      expect(await page.locator('.harbor-stock').count()).toBe(await records.count());
      await page.locator('img.nf-logo').waitFor();
      // The app's header is still there, above the client's, and marks where the person is.
      const appNav = page.getByRole('navigation', { name: 'Harbor Supply' });
      expect(await appNav.getByRole('link', { name: 'Shop admin' }).getAttribute('aria-current')).toBe(
        'page',
      );
      const appHeader = await page.locator('.host-header').boundingBox();
      const clientHeader = await page.locator('.nf-shell-header').boundingBox();
      expect(appHeader && clientHeader && clientHeader.y >= appHeader.y + appHeader.height).toBe(true);
      // The page never scrolls sideways: what is wider than the screen scrolls inside its own box.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `library-products-${width}`);
      // No request the policy refused, no failed call, nothing thrown.
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("opens a record in the client's own routes and runs the extension's row action through the API", async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${base}admin/sign-in?next=${encodeURIComponent('/products')}`);
    await page.getByLabel('Email', { exact: false }).fill('warehouse@demo.test');
    await page.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(api));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const table = page.getByRole('table', { name: 'Products' });
    const row = table.locator('tbody tr').first();
    await row.waitFor();
    const before = Number(
      ((await row.locator('.harbor-stock-units').textContent()) ?? '').replace(/\D/g, ''),
    );
    await row.getByRole('button', { name: 'Restock 10' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restock 10 units?' });
    await dialog.getByRole('button', { name: 'Restock' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row
      .locator('.harbor-stock-units')
      .filter({ hasText: String(before + 10) })
      .waitFor();
    // A record's page is the client's route below the app's base, and back works as in any page.
    await row.getByRole('link').first().click();
    await page.waitForURL(new RegExp(`^${base}admin/products/\\d+$`));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.goBack();
    await page.waitForURL(`${base}admin/products`);
    await table.waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
