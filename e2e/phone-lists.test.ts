import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';

// A list on a phone (issue 46), on a ferry line of our own (e2e/fixtures/ferry-sailings.yaml): at 360 px
// each sailing is a card with its vessel's whole name, its state, and the two fields point 2 chose for the
// card, with nothing off-screen; at 1280 px the same list is its table. The oracle is the fixture's words.

let browser: Browser;
let server: NinefoldProcess;

const SAILINGS = [
  {
    vessel: 'MV Isle of Lewis',
    crossing: 'Ullapool – Stornoway',
    departsAt: '2026-12-01T08:30:00Z',
    passengers: 212,
    fare: 11.5,
  },
  {
    vessel: 'MV Loch Seaforth and the Long Island Crossing',
    crossing: 'Stornoway – Ullapool',
    departsAt: '2026-12-02T14:00:00Z',
    passengers: 480,
    fare: 9,
  },
  {
    vessel: 'MV Hebrides',
    crossing: 'Uig – Tarbert',
    departsAt: '2026-12-03T10:15:00Z',
    passengers: 90,
    fare: 14.25,
  },
];

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'e2e/fixtures/ferry-sailings.yaml'),
  ]);
  for (const sailing of SAILINGS) {
    const created = await fetch(`${server.url}api/sailings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sailing),
    });
    expect(created.status).toBe(201);
  }
  // The second sailing is boarding, so that the cards show more than one state; the third has left.
  expect((await fetch(`${server.url}api/sailings/2/board`, { method: 'POST' })).status).toBe(200);
  for (const step of ['board', 'depart']) {
    expect((await fetch(`${server.url}api/sailings/3/${step}`, { method: 'POST' })).status).toBe(200);
  }
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

/** Each card's visible text, in order. */
async function cardTexts(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Sailings' }).getByRole('listitem').allInnerTexts();
}

describe('a list on a phone', () => {
  it('shows each record as a card: its whole name, its state and the chosen fields, nothing off-screen', async () => {
    const { page, problems } = await browser.newPage({ width: 360, height: 740 });
    await page.goto(`${server.url}sailings`);
    const cards = page.getByRole('list', { name: 'Sailings' }).getByRole('listitem');
    await cards.first().waitFor();
    expect(await page.getByRole('table').count()).toBe(0);

    // Newest departure first, as the screen's first sort says.
    const texts = await cardTexts(page);
    expect(texts).toHaveLength(3);
    const longest = SAILINGS[1] as (typeof SAILINGS)[number];
    const card = cards.filter({ hasText: longest.vessel });
    await expect.poll(() => card.getByRole('link', { name: longest.vessel }).isVisible()).toBe(true);
    expect(await card.innerText()).toContain('Boarding');
    expect(await card.innerText()).toContain(`Crossing\n${longest.crossing}`);
    expect(await card.innerText()).toMatch(/Departs\n.*2026/);
    // Neither the passengers nor the fare: the card names two fields only.
    expect(await card.innerText()).not.toContain('Passengers');
    expect(texts.map((text) => text.split('\n')[0])).toEqual([
      'MV Hebrides',
      longest.vessel,
      'MV Isle of Lewis',
    ]);

    // Nothing scrolls sideways, and every badge is inside the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    for (const badge of await page.locator('.nf-card .nf-badge').all()) {
      const box = await badge.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(360);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'phone-list-cards');

    // The menu sorts as the headers did: the cheapest fare first.
    await page.getByLabel('Sort by').selectOption({ label: 'Fare, lowest first' });
    await expect
      .poll(async () => (await cardTexts(page)).map((text) => text.split('\n')[0]))
      .toEqual([longest.vessel, 'MV Isle of Lewis', 'MV Hebrides']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('fare');

    // A thumb anywhere on the card opens the record, not only on its name.
    const target = await card.boundingBox();
    if (!target) throw new Error('the card has no box');
    await page.mouse.click(target.x + target.width - 12, target.y + target.height - 8);
    await page.waitForURL(/\/sailings\/2$/);
    await page.getByRole('heading', { name: longest.vessel }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the same list as a table at 1280 px', async () => {
    const { page, problems } = await browser.newPage({ width: 1280, height: 800 });
    await page.goto(`${server.url}sailings`);
    const table = page.getByRole('table', { name: 'Sailings' });
    await table.waitFor();
    const headers = await table.getByRole('columnheader').allInnerTexts();
    expect(headers.map((text) => text.replace(/[↑↓↕]/g, '').trim())).toEqual([
      'Vessel',
      'Crossing',
      'Departs',
      'Passengers',
      'Fare',
      'Status',
    ]);
    expect(await page.getByRole('list', { name: 'Sailings' }).count()).toBe(0);
    // Columns sized by what they hold: the vessel's name has room, the count of passengers little.
    const width = async (name: string) =>
      (await table.getByRole('columnheader', { name: new RegExp(`^${name}`) }).boundingBox())?.width ?? 0;
    expect(await width('Vessel')).toBeGreaterThan(2 * (await width('Passengers')));
    expect(await width('Crossing')).toBeGreaterThan(await width('Fare'));
    await screenshot(page, 'phone-list-table-1280');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('offers Edit disabled, with the rule’s words, on a sailing that has departed, and the API agrees', async () => {
    const rule = 'A sailing that has departed or been cancelled can no longer be changed.';
    const { page, problems } = await browser.newPage({ width: 1280, height: 800 });
    await page.goto(`${server.url}sailings/3`);
    await page.getByRole('heading', { name: 'MV Hebrides' }).waitFor();
    const actions = page.getByRole('group', { name: 'Actions' });
    const edit = actions.getByRole('button', { name: 'Edit' });
    expect(await edit.isDisabled()).toBe(true);
    expect(await actions.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await page.getByText(rule).waitFor();
    // Departed is final: no step is offered, not even as one not possible now.
    expect(await page.getByRole('group', { name: 'Change the state' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'locked-record');
    // The same words from the API, for an edit sent anyway.
    const version = (await fetch(`${server.url}api/sailings/3`)).headers.get('etag') ?? '';
    const refused = await fetch(`${server.url}api/sailings/3`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': version },
      body: JSON.stringify({ passengers: 91 }),
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain(rule);
    // A sailing still to leave is edited as before.
    await page.goto(`${server.url}sailings/1`);
    await page.getByRole('heading', { name: 'MV Isle of Lewis' }).waitFor();
    await page.getByRole('group', { name: 'Actions' }).getByRole('link', { name: 'Edit' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
