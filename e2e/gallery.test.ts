import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { listRecords } from './support/list-records';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, signInAs } from './support/sign-in';

// Every kind of screen of the rich example, at a desk's and a phone's width, light and dark: kept as
// artifacts (e2e/artifacts/gallery-*.png) for a person to look at, and each checked with axe as it is.

let browser: Browser;
let server: NinefoldProcess;
let owner: (path: string) => Promise<Response>;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '12']),
  ]);
  owner = await apiAs(server, 'owner');
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

describe('a gallery of every screen kind', () => {
  it('draws each at 1280 and 360 px, light and dark, with nothing serious for axe', async () => {
    const order = (await (await owner('/orders?limit=1')).json()).items[0] as {
      id: number;
      customer: number;
    };
    const screens: Array<[kind: string, path: string, ready: string]> = [
      ['dashboard', '', 'heading'],
      ['list', 'orders', 'records'],
      ['detail', `orders/${order.id}`, 'heading'],
      ['related', `customers/${order.customer}`, 'table'],
      ['create', 'orders/new', 'heading'],
      ['edit', `customers/${order.customer}/edit`, 'heading'],
      ['not-found', 'no/such/page', 'heading'],
    ];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1280, 360]) {
        const { page, problems } = await browser.newPage({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        // Signed out first: the sign-in page itself.
        await page.goto(`${server.url}sign-in`);
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        expect(await seriousViolations(page), `sign-in, ${scheme}, ${width}`).toEqual([]);
        await screenshot(page, `gallery-sign-in-${scheme}-${width}`);
        await signInAs(page, server, 'owner');
        for (const [kind, path, ready] of screens) {
          await page.goto(`${server.url}${path}`);
          // A list is cards on a phone (ListCards), a table at a desk.
          await (ready === 'records' ? listRecords(page) : page.getByRole(ready as 'heading' | 'table'))
            .first()
            .waitFor();
          // Names of references and people arrive after the first frame; the picture waits for them.
          await page.waitForLoadState('networkidle');
          expect(
            await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme')),
          ).toBe(scheme);
          expect(await seriousViolations(page), `${kind}, ${scheme}, ${width}`).toEqual([]);
          await screenshot(page, `gallery-${kind}-${scheme}-${width}`);
        }
        expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
        await page.close();
      }
    }
  }, 240_000);

  it('draws the steps not possible now, each with its reason at full contrast, at 1280 and 360 px', async () => {
    const placed = (await (await owner('/orders?status=placed&limit=1')).json()).items[0] as { id: number };
    for (const width of [1280, 360]) {
      const { page, problems } = await browser.newPage({ width, height: 900 });
      await signInAs(page, server, 'owner');
      await page.goto(`${server.url}orders/${placed.id}`);
      const steps = page.getByRole('group', { name: 'Change the state' });
      await steps.getByRole('button', { name: /^More/ }).click();
      const menu = page.getByRole('menu');
      await menu.getByText('Not possible now').waitFor();
      // Ship needs a paid order; its reason says so, in the text's own colour, not a faded grey.
      const ship = menu.getByRole('menuitem', { name: /^Ship/ });
      expect(await ship.innerText()).toContain('Possible only from Paid');
      expect(await ship.evaluate((item) => getComputedStyle(item).opacity)).toBe('1');
      expect(await seriousViolations(page), `steps menu, ${width}`).toEqual([]);
      await screenshot(page, `gallery-steps-not-possible-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    }
  }, 60_000);
});
