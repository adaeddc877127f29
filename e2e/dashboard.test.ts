import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, signInAs } from './support/sign-in';

// The shop's dashboard figures (issue 21) in Chromium: computed by the prototype API, drawn as charts,
// each with the table that stands for it, and narrowed to what the role may read.

let browser: Browser;
let server: NinefoldProcess;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '40']),
  ]);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

/** The rows of the table that stands for a chart, as [group, value] texts. */
async function tableRows(
  page: import('playwright-core').Page,
  name: string,
): Promise<Array<[string, string]>> {
  const table = page.getByRole('table', { name });
  await table.waitFor({ state: 'attached' });
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map(
        (row) =>
          [row.querySelector('th')?.textContent ?? '', row.querySelector('td')?.textContent ?? ''] as [
            string,
            string,
          ],
      ),
    );
}

describe('the dashboard’s figures', () => {
  it('draws each chart with a table of the same groups, which a person may show instead', async () => {
    const owner = await apiAs(server, 'owner');
    const states = (await (await owner('/_figures/dashboard/ordersByStatus')).json()) as {
      groups: Array<{ key: string; value: number }>;
    };
    const months = (await (await owner('/_figures/dashboard/revenueByMonth')).json()) as {
      groups: Array<{ key: string; value: number }>;
    };
    for (const [width, scheme] of [
      [1280, 'light'],
      [360, 'dark'],
    ] as const) {
      const { page, problems } = await browser.newPage({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await signInAs(page, server, 'owner');
      await page.goto(server.url);
      const revenue = page.getByRole('region', { name: 'Revenue', exact: true });
      await revenue.getByText(/€/).waitFor();
      // The donut, and its table: one row per state, with the API's counts.
      const byState = page.getByRole('region', { name: 'Orders by state' });
      await byState.locator('svg').first().waitFor();
      const rows = await tableRows(page, 'Orders by state');
      expect(rows.map(([, value]) => Number(value))).toEqual(states.groups.map((group) => group.value));
      expect(rows.map(([label]) => label)).toContain('Draft');
      // The line over months: as many rows as the API's periods, in order.
      const byMonth = page.getByRole('region', { name: 'Revenue by month' });
      await byMonth.locator('.recharts-line').first().waitFor();
      expect((await tableRows(page, 'Revenue by month')).length).toBe(months.groups.length);
      // Shown instead of the chart, the table is on screen and the chart is gone.
      await byMonth.getByRole('button', { name: 'Show as a table' }).click();
      const table = byMonth.getByRole('table', { name: 'Revenue by month' });
      const box = await table.boundingBox();
      expect(box?.height ?? 0).toBeGreaterThan(100);
      expect(await byMonth.locator('.recharts-line').count()).toBe(0);
      await byMonth.getByRole('button', { name: 'Show as a chart' }).click();
      await byMonth.locator('.recharts-line').first().waitFor();
      // Customers are named, never ids.
      const customers = await tableRows(page, 'Revenue by customer');
      expect(customers.length).toBeGreaterThan(0);
      for (const [label] of customers) expect(label).not.toMatch(/^\d+$/);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `dashboard-figures-${width}-${scheme}`);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('counts only the orders a trade customer may read, and names their company alone', async () => {
    const customer = await apiAs(server, 'customer');
    const owner = await apiAs(server, 'owner');
    const theirs = (await (await customer('/_figures/dashboard/revenue')).json()) as { value: number };
    const all = (await (await owner('/_figures/dashboard/revenue')).json()) as { value: number };
    expect(theirs.value).toBeLessThan(all.value);
    const { page, problems } = await browser.newPage({ width: 1280, height: 900 });
    await signInAs(page, server, 'customer');
    await page.goto(server.url);
    const states = await tableRows(page, 'Orders by state');
    const counted = states.reduce((sum, [, value]) => sum + Number(value), 0);
    const orders = (await (await customer('/orders?limit=100')).json()) as { total: number };
    expect(counted).toBe(orders.total);
    const customers = await tableRows(page, 'Revenue by customer');
    expect(customers.length).toBeLessThanOrEqual(1);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a count drawn as a line', () => {
  let gym: NinefoldProcess;
  beforeAll(async () => {
    gym = await startNinefold('serve', 'e2e/fixtures/boulder-barn.yaml', ['--seed', '8']);
  });
  afterAll(async () => {
    expect(await gym?.stop()).toBe(0);
  });

  it('ticks its axis at whole visits, where a day had none or one', async () => {
    const day = (await (await fetch(`${gym.url}api/_figures/home/visitsByDay`)).json()) as {
      groups: Array<{ value: number }>;
      per?: string;
    };
    // Few visits a day: an axis left to itself ticks at fractions (0.3, 0.5, 0.8 of a visit).
    expect(Math.max(...day.groups.map((group) => group.value))).toBeLessThanOrEqual(3);
    const { page, problems } = await browser.newPage({ width: 1280, height: 900 });
    await page.goto(gym.url);
    await page.locator('.recharts-line').first().waitFor();
    const ticks = (await page.locator('svg text').allTextContents()).filter((text) => /^[\d.,]+$/.test(text));
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick, `the tick ${tick}`).toMatch(/^\d+$/);
    await screenshot(page, 'dashboard-count-line');
    // Drawn by the period the API chose to hold every visit, which the person may change.
    const card = page.getByRole('region', { name: 'Visits by day' });
    const period = card.getByLabel('Period');
    expect(await period.inputValue()).toBe(day.per ?? 'day');
    const asked = page.waitForResponse((response) => response.url().includes('visitsByDay?per=week'));
    await period.selectOption({ label: 'By week' });
    expect((await asked).status()).toBe(200);
    await expect.poll(() => period.inputValue()).toBe('week');
    expect(problems).toEqual([]);
    await page.close();
  });
});
