import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureRuntime } from '@ninefold/web/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from './support/browser';
import { type Fetched, filesOnlyFor, scriptsOf, withoutHashes } from './support/first-load';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { signInAs } from './support/sign-in';

/**
 * The JavaScript a first visit fetches before its screen is usable, in bytes: every script response of
 * the page load, lazy chunks it loads at once included, each body compressed with gzip -9. Bytes, not
 * time, so the figure is the same on any machine.
 *
 * Issue 17's goal is 150 kB (KiB) for every page below, and no budget may pass it. Each page's budget is
 * what it measures now, with a little room under the goal: a change that adds to a first load fails
 * here, and one that takes from it lowers the budget. What a later feature adds to a page must be loaded
 * when it is used, not with the page.
 *
 * The orders list went from 141 to 142 kB once (issue 20): choosing how each reference and person column
 * is named (read, asked of the API's names call, or left an id) is decided as the list first renders;
 * the names call and its reader load only when a name is asked for that way. Then to 143 kB (issue 21):
 * the live region notices appear in, and the listener of the shortcut keys, must be on the page before
 * the first notice or key; the notices, the help and what each key does load when first used. Then to
 * 144 kB (issue 21 again): the reading of references' names, which the list shares with a dashboard's
 * figures since then, went into small chunks of their own, each compressed on its own; with the data
 * layer's figure call (0.4 kB) the list measured 143.4 kB. Then to 145 kB: a date filter is typed in the
 * person's language's order (Mantine's date input, loaded when the filter is first used; what stays on
 * the first load is the box that loads it and the language's day pattern), and the header's sign-out
 * button has an icon for phones.
 *
 * Live updates (issue 22) added 0.7 kB to every page: the provider that remembers each record's last
 * change for the edit form, the offline banner's word on a dropped stream, and the data layer's follow.
 * The stream's reader and what it reads again load once the page has read its first data, and are
 * measured apart, from the build, against a budget of their own (2.6 kB of 3). The home went to 130 kB, the orders list to 146 kB.
 *
 * A dashboard's figures (issue 21) are its content, drawn after its first screen: their code (the
 * figures, the expression engine that checks their conditions, and the chart library, Recharts under
 * @mantine/charts, about 140 kB of it) loads only on a dashboard that has figures, once the page is up.
 * It is measured apart, against a budget of its own, so that neither part grows unseen.
 */
const GOAL_KIB = 150;
/** The events stream's reader (eventsource-parser) and what it reads again, after the first screen. */
const LIVE_BUDGET_KIB = 3;
// Issue 39 added 0.4 kB to every first load: answers read as their fields mean them (0/1 booleans,
// numeric strings) and sort orders in every style, both on each list's path. The reader of other
// servers' error shapes loads only when one arrives.
// Issue 41 added 0.2 kB to the demo's home: the write plan the form runs before it sends is a chunk of its
// own, loaded with the form, and its name is in the preload list of each screen that loads it.
// Issue 42 added 0.1 kB to the orders list: the role that acts for someone not signed in (a visitor's
// grants, screens and home) in the shell's checks, and fields hidden under a condition in field access.
// Issue 43 added 0.2 kB to the empty shell: reading a sign-in answer moved into the core, where `ninefold
// verify` reads answers by the same rule, and the shell now takes it from the model's chunk by name.
// Issue 46 added 0.1 kB to the demo's home: the words of a phone list's sort menu and of a figure's
// period, in the catalogue every screen shares. The phone's cards load on a phone only. To the orders
// list it added 2 kB: columns sized by what they hold, the card's plan, and the selection offered only
// to a role whose grants can act on it (without the expression engine); still under the goal of 150.
// Issue 47 added 0.1 kB to the empty shell, 0.3 kB to the demo's home and 0.5 kB to the orders list: the
// navigation's Changes entry and its page's route (the page and a record's changes load when opened),
// and the history's reader now shared with the changes. Where each byte of the orders list's went was not
// measured apart; it is 148.9 kB, 1.1 kB under the goal, and the next addition must be loaded later.
// Its people added 0.3 kB to every first load (0.5 before their three pages became one chunk that
// decides which to show, and the reset link's words moved to the sign-in form's chunk): the People entry
// of the navigation, for a role that manages people, and the three addresses the router knows. The orders
// list is 149.2 kB, 0.8 kB under the goal.
// Issue 46 then added 0.1 kB to every first load: on a phone the header's language and theme are drawn
// in the navigation, which leaves the product's name whole where it was cut to its first letter. The
// home's other 0.1 kB: a list's search parameters are written only on the page they were made for. The
// orders list's other 0.1 kB folds a phone's filters under one line; it is 149.4 kB, 0.6 under the goal.
// From November 30, the chunks are measured with the names of the chunks they load made alike
// (`withoutHashes`): those names changed with any change to another chunk, and moved a first load by up
// to 30 bytes for the same code, which failed the empty shell's budget (125.6 against 125.5) on a change
// to a chunk it never loads. The budgets were set again to the same code measured so: 125.5 -> 124.7,
// 132.9 -> 131.8 and 149.4 -> 148.0 kB. The goal of 150 kB is now of the code; the names add about 1 kB.
// Issue 48 added 0.2 kB to the orders list: its first answer is waited for together with a phone's cards,
// which are then drawn at once rather than through a lazy boundary that held a skeleton for 300 ms. The
// cards themselves still load on a phone only. 148.0 -> 148.3 kB.
const BUDGET_KIB = {
  'examples/empty.md at /': 124.7,
  'the demo at /, signed in as the owner': 131.8,
  'the demo at /orders, signed in as the owner': 148.3,
} as const;
/** The code of the home's figures and charts, on top of its first load: not a first load, so no goal. */
const FIGURES_BUDGET_KIB = 200;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function report(name: keyof typeof BUDGET_KIB, fetched: Fetched): void {
  const lines = fetched.files
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map((file) => `  ${(file.gzipBytes / 1024).toFixed(1).padStart(6)} kB ${file.url}`);
  console.log(
    `${name}: ${fetched.kib} kB of JavaScript (gzip -9), budget ${BUDGET_KIB[name]} kB, goal ${GOAL_KIB} kB\n${lines.join('\n')}`,
  );
  expect(fetched.files.length).toBeGreaterThan(0);
  expect(BUDGET_KIB[name], `${name}: a budget may not pass the goal`).toBeLessThanOrEqual(GOAL_KIB);
  expect(fetched.kib, `${name}: the first load grew past its budget`).toBeLessThanOrEqual(BUDGET_KIB[name]);
}

describe('the JavaScript of a first visit, in bytes', () => {
  // Started in hooks, whose time limit allows for the first start building the web runtime.
  let empty: NinefoldProcess;
  let demo: NinefoldProcess;
  beforeAll(async () => {
    empty = await startNinefold('serve', 'examples/empty.md');
    demo = await startNinefold('serve', 'examples/shop.md', ['--seed', '5']);
  });
  afterAll(async () => {
    for (const server of [empty, demo]) if (server) expect(await server.stop()).toBe(0);
  });

  it('of the live updates’ follower, loaded once a page has read its first data, stays within its own', async () => {
    // The e2e servers stream no changes (a stream never lets the network go quiet): the follower's
    // chunks are measured in the build, as the page would fetch them.
    const runtime = await ensureRuntime();
    const files = [
      ...filesOnlyFor(runtime, ['src/app/live-queries.ts', 'src/data/live-events.ts'], ['index.html']),
    ];
    expect(files.length).toBeGreaterThan(0);
    const bytes = files.reduce(
      (sum, file) =>
        sum + gzipSync(withoutHashes(readFileSync(join(runtime, file), 'utf8')), { level: 9 }).length,
      0,
    );
    const kib = Math.round((bytes / 1024) * 10) / 10;
    console.log(`live updates, after the first screen: ${kib} kB (${files.join(', ')})`);
    expect(kib).toBeLessThanOrEqual(LIVE_BUDGET_KIB);
  });

  it('of a client whose nine points are all not shown stays within its budget', async () => {
    const { page } = await browser.newPage();
    const fetched = await scriptsOf(page, empty.url, () => page.getByRole('heading', { level: 1 }).waitFor());
    report('examples/empty.md at /', fetched);
    await page.close();
  });

  it('of the demo’s home and orders list, signed in, stays within their budgets', async () => {
    const server = demo;
    for (const [name, path, usable] of [
      ['the demo at /, signed in as the owner', '', 'heading'],
      ['the demo at /orders, signed in as the owner', 'orders', 'table'],
    ] as const) {
      const { page } = await browser.newPage();
      // Signing in loads its own page's code; the visit measured is the next one, in the same tab.
      await signInAs(page, server, 'owner');
      // What the signed-in page loads after signing in belongs to that page, not to the visit measured:
      // its screen is drawn first (on a busy machine the network was once quiet before its code was asked
      // for, and the home's chunk was counted in the list's visit).
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      // And away, so that a chunk it asks for late (its charts' code) is never counted as the next page's.
      await page.goto('about:blank');
      const all = await scriptsOf(page, `${server.url}${path}`, () =>
        usable === 'table'
          ? page.getByRole('row').nth(5).waitFor()
          : // The charts' code is asked for once the figures' data has come, and a busy machine's network
            // was once quiet in between: the visit ends when a chart is drawn.
            page
              .getByRole('heading', { level: 1 })
              .waitFor()
              .then(() => page.locator('.recharts-surface').first().waitFor()),
      );
      // On the home, what only its figures bring; a list has none.
      const figures =
        path === ''
          ? filesOnlyFor(
              await ensureRuntime(),
              ['src/dashboard/DashboardFigures.tsx'],
              ['index.html', 'src/screens/DashboardScreen.tsx'],
            )
          : new Set<string>();
      const first = all.files.filter((file) => !figures.has(file.url));
      const later = all.files.filter((file) => figures.has(file.url));
      const kib = (files: typeof first) =>
        Math.round((files.reduce((sum, file) => sum + file.gzipBytes, 0) / 1024) * 10) / 10;
      report(name, { kib: kib(first), files: first });
      if (path === '') {
        // The home's figures did load, charts included, and stay within their own budget.
        expect(later.some((file) => file.url.includes('FigureChart'))).toBe(true);
        console.log(`its figures and charts, after the first screen: ${kib(later)} kB`);
        expect(kib(later)).toBeLessThanOrEqual(FIGURES_BUDGET_KIB);
      }
      await page.close();
    }
  });
});
