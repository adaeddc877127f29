// Two people on two nodes of one PostgreSQL: each sees the other's change without reloading, and an
// editor is warned before saving over it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, withTemporaryDatabase } from '../packages/server/test/support/databases';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, signInAs } from './support/sign-in';

const pgReason = await postgresUnavailable();
if (pgReason && process.env.CI === 'true') throw new Error(`CI must run the two-node e2e test: ${pgReason}`);

let browser: Browser;
let nodes: NinefoldProcess[] = [];
let finish: (() => void) | undefined;
let done: Promise<void> | undefined;

beforeAll(async () => {
  if (pgReason) return;
  browser = await launchBrowser();
  // The temporary database lives until afterAll lets `withTemporaryDatabase` drop it.
  const ready = new Promise<void>((resolve, reject) => {
    done = withTemporaryDatabase('live_e2e', async (url) => {
      try {
        // Both nodes make (or find) the same demo users: the password comes from the environment, as on
        // a deployment of several machines.
        const live = { live: true, env: { NINEFOLD_DEMO_PASSWORD: 'live-updates-e2e' } };
        const a = await startNinefold('serve', 'examples/shop.md', ['--db', url, '--seed', '8'], live);
        const b = await startNinefold('serve', 'examples/shop.md', ['--db', url, '--seed', '8'], live);
        nodes = [a, b];
        resolve();
      } catch (error) {
        reject(error);
        return;
      }
      await new Promise<void>((release) => {
        finish = release;
      });
      for (const node of nodes) expect(await node.stop()).toBe(0);
    });
  });
  await ready;
}, 300_000);

afterAll(async () => {
  finish?.();
  await done;
  await browser?.close();
});

/** Something set on the page that a reload would lose: the change must arrive without one. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { liveMark: string }).liveMark = 'not reloaded';
  });
}

async function stillMarked(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark === 'not reloaded');
}

describe.skipIf(pgReason !== undefined)(
  `two people on two nodes${pgReason ? ` — skipped: ${pgReason}` : ''}`,
  () => {
    it('see each other’s change in place, and the editor is warned before saving', async () => {
      const [a, b] = nodes as [NinefoldProcess, NinefoldProcess];
      const owner = await apiAs(a, 'owner');
      const customers = (await (await owner('/customers?sort=name&limit=1')).json()).items as Array<{
        id: number;
        name: string;
      }>;
      const customer = customers[0] as { id: number; name: string };

      // The clerk works on node B: the customers list in one tab, the customer's form in another.
      const list = await browser.newPage({ width: 1280, height: 900 });
      await signInAs(list.page, b, 'clerk');
      const urls: string[] = [];
      const tokens = new Set<string>();
      list.page.on('request', (request) => {
        urls.push(request.url());
        const authorization = request.headers().authorization;
        if (authorization) tokens.add(authorization.replace(/^Bearer /, ''));
      });
      await list.page.goto(`${b.url}customers`);
      await list.page.getByRole('link', { name: customer.name }).first().waitFor();
      await markPage(list.page);

      const form = await browser.newPage({ width: 1280, height: 900 });
      await signInAs(form.page, b, 'clerk');
      await form.page.goto(`${b.url}customers/${customer.id}/edit`);
      const name = form.page.getByRole('textbox', { name: /^Name/ });
      await expect.poll(() => name.inputValue()).toBe(customer.name);
      // The clerk starts typing a note of their own.
      await markPage(form.page);

      // The owner, on node A, renames the customer through the client.
      const owners = await browser.newPage({ width: 1280, height: 900 });
      await signInAs(owners.page, a, 'owner');
      await owners.page.goto(`${a.url}customers/${customer.id}/edit`);
      const ownerName = owners.page.getByRole('textbox', { name: /^Name/ });
      await expect.poll(() => ownerName.inputValue()).toBe(customer.name);
      await ownerName.fill('Live Traders');
      const saved = Date.now();
      await owners.page.getByRole('button', { name: /^Save/ }).click();
      await owners.page.waitForURL((url) => !url.pathname.endsWith('/edit'));

      // On node B, the list shows the new name in place.
      await list.page.getByRole('link', { name: 'Live Traders' }).first().waitFor({ timeout: 5000 });
      const seenAfter = Date.now() - saved;
      expect(await stillMarked(list.page)).toBe(true);

      // The editor on node B is told, before saving, who changed what; their form is untouched.
      const notice = form.page.getByRole('status').filter({ hasText: 'Changed by owner@demo.test just now' });
      await notice.waitFor({ timeout: 5000 });
      await expect.poll(() => notice.textContent()).toContain('Name');
      expect(await name.inputValue()).toBe(customer.name);
      expect(await stillMarked(form.page)).toBe(true);
      expect(await seriousViolations(form.page)).toEqual([]);
      await screenshot(form.page, 'live-changed-by-1280');
      await form.page.setViewportSize({ width: 360, height: 780 });
      await screenshot(form.page, 'live-changed-by-360');

      // Saving then shows both versions, for the clerk to choose: nothing is overwritten unseen.
      await form.page.getByRole('textbox', { name: /^Name/ }).fill('Clerk’s Traders');
      await form.page.getByRole('button', { name: /^Save/ }).click();
      await form.page.getByText('Live Traders').first().waitFor({ timeout: 5000 });

      // No token in any address the page asked for, nor in either node's output.
      expect(tokens.size).toBeGreaterThan(0);
      for (const token of tokens) {
        for (const url of urls) expect(url).not.toContain(token);
        for (const node of nodes) expect(node.output()).not.toContain(token);
      }
      expect(urls.some((url) => url.endsWith('/api/_events'))).toBe(true);
      console.log(`live update seen on the other node ${seenAfter} ms after the save was clicked`);
      for (const page of [list, form, owners]) expect(page.problems).toEqual([]);
    }, 120_000);
  },
);
