import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runtimeDir } from '@ninefold/web/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './support/browser';
import { type Fetched, scriptsOf } from './support/first-load';
import { type NinefoldProcess, ROOT, startNinefold } from './support/ninefold';
import { signInAs } from './support/sign-in';

/**
 * Issue 18's budget, in bytes: a first visit of a client with an extension fetches at most what the same
 * visit fetches without one, plus the extension's own chunks, plus 2 kB for the runtime's override
 * points. React, Mantine and the runtime are shared with the extension, never bundled twice.
 */
const ALLOWANCE_KIB = 2;
const EXTENSION = resolve(ROOT, 'examples/shop-ui/index.tsx');

let browser: Browser;
let base: NinefoldProcess;
let extended: NinefoldProcess;
beforeAll(async () => {
  browser = await launchBrowser();
  [base, extended] = await Promise.all([
    startNinefold('serve', 'examples/shop.md', ['--seed', '5']),
    startNinefold('serve', 'examples/shop.md', ['--seed', '5', '--ui', EXTENSION]),
  ]);
});
afterAll(async () => {
  await browser?.close();
  for (const server of [base, extended]) if (server) expect(await server.stop()).toBe(0);
});

/** The files of the extension's own code: the chunks whose sources are the team's, not the runtime's. */
function extensionChunks(): Set<string> {
  const manifest = JSON.parse(
    readFileSync(join(runtimeDir(EXTENSION), '.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string; src?: string }>;
  return new Set(
    Object.values(manifest)
      // Sources outside packages/web (`../../examples/shop-ui/…`) are the team's.
      .filter((chunk) => chunk.src?.startsWith('../') === true && chunk.file.endsWith('.js'))
      .map((chunk) => `/${chunk.file}`),
  );
}

/**
 * What makes a page usable, and so ends its count: the home's figures drawn (their charts' code is asked
 * for only once the figures answer; a quiet network alone ended one count before that on a loaded machine,
 * and the other visit's count took 142 kB more), or a list's rows.
 */
type Usable = 'figures' | 'rows';

async function visit(server: NinefoldProcess, path: string, usable: Usable): Promise<Fetched> {
  const { page } = await browser.newPage();
  await signInAs(page, server, 'owner');
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  // Away first: a chunk the home page asks for late (its charts' code, on a loaded machine) must not be
  // counted as the next page's.
  await page.goto('about:blank');
  const fetched = await scriptsOf(page, `${server.url}${path}`, () =>
    usable === 'rows'
      ? page.getByRole('row').nth(5).waitFor()
      : page.locator('.recharts-surface').first().waitFor(),
  );
  await page.close();
  return fetched;
}

describe('the first load of a client with an extension', () => {
  it('is the first load without one, plus the extension’s own chunks, plus at most 2 kB', async () => {
    const own = extensionChunks();
    expect(own.size).toBeGreaterThan(0);
    // The home and the orders list: screens the extension adds nothing to but its brand and code.
    // The products list: its rows get the extension's Restock action, whose buttons' code (the runtime's
    // RecordExtras chunk, loaded only by a list with row actions) is reported beside the allowance.
    for (const [path, usable] of [
      ['', 'figures'],
      ['orders', 'rows'],
      ['products', 'rows'],
    ] as const) {
      const without = await visit(base, path, usable);
      const withIt = await visit(extended, path, usable);
      const kib = (files: Fetched['files']) => files.reduce((sum, file) => sum + file.gzipBytes, 0) / 1024;
      const ownKib = kib(withIt.files.filter((file) => own.has(file.url)));
      const actionsKib = kib(withIt.files.filter((file) => /\/RecordExtras-[\w-]+\.js$/.test(file.url)));
      const extra = withIt.kib - without.kib - ownKib - actionsKib;
      console.log(
        `/${path}: ${without.kib} kB without the extension, ${withIt.kib} kB with it: ${ownKib.toFixed(1)} kB its own chunks, ${actionsKib.toFixed(1)} kB the code of its row actions, ${extra.toFixed(1)} kB the runtime's override points (allowance ${ALLOWANCE_KIB} kB)`,
      );
      if (extra > ALLOWANCE_KIB) {
        console.log(withIt.files.map((file) => `  with ${file.url} ${file.gzipBytes}`).join('\n'));
        console.log(without.files.map((file) => `  without ${file.url} ${file.gzipBytes}`).join('\n'));
      }
      expect(ownKib, 'the extension chunk is fetched').toBeGreaterThan(0);
      expect(actionsKib > 0, `/${path}: row actions' code is loaded only by a list that has them`).toBe(
        path === 'products',
      );
      expect(extra, `/${path}: the override points outgrew their allowance`).toBeLessThanOrEqual(
        ALLOWANCE_KIB,
      );
    }
  });
});
