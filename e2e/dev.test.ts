import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, ROOT, startNinefold } from './support/ninefold';
import { signInAs } from './support/sign-in';

let browser: Browser;
let server: NinefoldProcess;
let dir: string;
let spec: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ninefold-dev-e2e-'));
  spec = join(dir, 'shop.md');
  copyFileSync(join(ROOT, 'examples/shop.md'), spec);
  [browser, server] = await Promise.all([launchBrowser(), startNinefold('dev', spec, ['--seed', '3'])]);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

describe('ninefold dev', () => {
  it('reloads the open page when the specification changes, and shows its issues in the page', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'warehouse', '/products');
    await page.getByRole('link', { name: 'Harbor Supply' }).waitFor();

    const original = readFileSync(spec, 'utf8');
    writeFileSync(spec, original.replace('# Harbor Supply', '# Harbor Supply Deluxe'));
    // Nobody touches the page: the server tells it to reload, and it comes back on the same screen.
    await page.getByRole('link', { name: 'Harbor Supply Deluxe' }).waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/products');

    // A broken edit keeps the last good client running, with the issues in view and in the terminal.
    writeFileSync(
      spec,
      original
        .replace('# Harbor Supply', '# Harbor Supply Deluxe')
        .replace('| Order | number,', '| Nonexistent | number,'),
    );
    const alert = page.getByText('The specification has issues', { exact: false });
    await alert.waitFor({ timeout: 20_000 });
    expect(await page.getByText('Nonexistent', { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Harbor Supply Deluxe' }).count()).toBe(1);
    expect(server.output()).toContain('Nonexistent');
    await screenshot(page, 'dev-issues');
    expect(problems).toEqual([]);
    await page.close();
  });
});
