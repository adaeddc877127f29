// A visitor of the harbour's boat hire (packages/web/test/fixtures/boat-hire.md), who does not sign in: the
// role point 6 names `Signed out: yes`. As docs/spec-format.md says, they land on their own home, see the
// fleet and the boats booked (confirmed or out) without who booked them, and how many are aboard only
// once a boat is out (`Hidden while`); they are offered no change, and are asked to sign in for the rest;
// signing in then opens the desk's part. At 1280 and 360 px, with axe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { listBody, listRecords } from './support/list-records';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, demoPassword } from './support/sign-in';

let browser: Browser;
let server: NinefoldProcess;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'packages/web/test/fixtures/boat-hire.md', ['--seed', '20']),
  ]);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

interface Booking {
  id: number;
  status: string;
}

describe('a visitor who does not sign in', () => {
  for (const width of [1280, 360])
    it(`lands on the fleet, reads only the bookings confirmed or out, and is asked to sign in for the rest (${width} px)`, async () => {
      const { page, problems } = await browser.newPage({ width, height: 800 });
      await page.goto(server.url);
      // The visitor's own home (point 6), not the desk's skippers.
      await page.waitForURL(/\/boats$/);
      await page.getByRole('heading', { name: 'Boats' }).waitFor();
      await listRecords(page).first().waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `visitor-boats-${width}`);
      // Not offered what a visitor may not do.
      expect(await page.getByRole('link', { name: /New|Book a boat/ }).count()).toBe(0);

      await page.goto(`${server.url}bookings`);
      await page.getByRole('heading', { name: 'Bookings' }).waitFor();
      await listRecords(page).first().waitFor();
      await screenshot(page, `visitor-bookings-${width}`);
      // Exactly the bookings the desk sees confirmed or out, by the desk's own reading of the API.
      const desk = await apiAs(server, 'desk');
      const all = ((await (await desk('/bookings?limit=100')).json()) as { items: Booking[] }).items;
      const shown = all.filter((booking) => booking.status === 'confirmed' || booking.status === 'out');
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThan(all.length);
      const anonymous = await fetch(new URL('api/bookings?limit=100', server.url));
      expect(anonymous.status).toBe(200);
      const read = (await anonymous.json()) as { items: Array<Record<string, unknown>> };
      expect(read.items.map((item) => item.id).sort()).toEqual(shown.map((booking) => booking.id).sort());
      for (const item of read.items) {
        expect(item).not.toHaveProperty('skipper');
        expect(item).not.toHaveProperty('note');
      }
      expect(await listRecords(page).count()).toBe(Math.min(shown.length, 25));
      for (const state of ['Requested', 'Returned', 'Cancelled'])
        expect(await listBody(page).getByText(state, { exact: true }).count()).toBe(0);

      // How many are aboard shows once a boat is out, not while it is only confirmed (Hidden while).
      const aboard = async (booking: Booking | undefined) => {
        if (!booking) throw new Error(`the seed has no booking in every state: ${JSON.stringify(all)}`);
        await page.goto(`${server.url}bookings/${booking.id}`);
        await page.getByText('Day', { exact: true }).first().waitFor();
        return page.getByText('People', { exact: true }).count();
      };
      expect(await aboard(shown.find((booking) => booking.status === 'out'))).toBe(1);
      await screenshot(page, `visitor-booking-out-${width}`);
      expect(await aboard(shown.find((booking) => booking.status === 'confirmed'))).toBe(0);

      // The desk's screen asks for a sign-in, and comes back to it after.
      await page.goto(`${server.url}skippers`);
      await page.waitForURL(/\/sign-in\?next=%2Fskippers$/);
      await page.getByLabel('Email', { exact: false }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `visitor-sign-in-${width}`);
      expect(problems).toEqual([]);
      await page.close();
    });

  it('signs in from a visitor’s page, comes back to it, and then has the desk’s part', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${server.url}boats`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/sign-in\?next=%2Fboats$/);
    await page.getByLabel('Email', { exact: false }).fill('desk@demo.test');
    await page.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(server));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/boats$/);
    await page.getByRole('link', { name: 'Skippers' }).click();
    await page.waitForURL(/\/skippers$/);
    await listRecords(page).first().waitFor();
    // By the navigation, as a person goes: the session is kept in the tab's memory, not over a reload.
    await page.getByRole('link', { name: 'Bookings' }).click();
    await page
      .getByRole('link', { name: /Book a boat|New/ })
      .first()
      .waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('writes nothing without a session: the API answers "Sign in"', async () => {
    const answer = await fetch(new URL('api/boats', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Stowaway', kind: 'rowing', seats: 2 }),
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { code: string }).code).toBe('NOT_SIGNED_IN');
    const desk = await apiAs(server, 'desk');
    const boats = ((await (await desk('/boats?limit=100')).json()) as { items: Array<{ name: string }> })
      .items;
    expect(boats.map((boat) => boat.name)).not.toContain('Stowaway');
  });
});
