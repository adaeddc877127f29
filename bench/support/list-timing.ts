// How a list's first render is timed in Chromium: the probe installed before the page's scripts, one
// fresh load, and the list call a client makes. Shared by the list benchmarks (bench/client.ts and
// bench/client-extension.ts).
import type { Browser } from 'playwright-core';
import { freshPage, type ProbeGlobals } from './client-harness';

/** Tall enough that a page of 50 rows is all in view: every row is drawn in the first frame. */
export const TALL_VIEWPORT = { width: 1280, height: 3000 };
/** A phone's width (our list shows cards there), as tall: the same rows, the same definition of done. */
export const PHONE_VIEWPORT = { width: 360, height: 3000 };

/** Rows in table bodies, or grid rows outside a header: how both a table and a grid show data. */
export const COUNT_DATA_ROWS = `(() => {
  const tableRows = document.querySelectorAll('tbody tr').length;
  const gridRows = [...document.querySelectorAll('[role="row"]')].filter(
    (row) => !row.closest('thead') && !row.querySelector('[role="columnheader"]'),
  ).length;
  return Math.max(tableRows, gridRows);
})()`;

/**
 * Installed before the page's own scripts: notes when `done` (the source of a function of no arguments
 * run in the page) first holds as the DOM changes, then the end of the next frame (a rAF, then a task
 * after it, i.e. after that frame was painted). Times are performance.now(), from navigation start.
 */
export function frameProbe(done: string): string {
  return `(() => {
    const state = (window.__bench = {});
    const done = ${done};
    const observer = new MutationObserver(() => {
      if (state.rowsAt !== undefined || !done()) return;
      state.rowsAt = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => { state.frameAt = performance.now(); }, 0));
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  })()`;
}

/** The probe of a list: done when the expected rows (a table's or a grid's) are in the DOM. */
function listProbe(expected: string[]): string {
  return frameProbe(`() => {
      const expected = ${JSON.stringify(expected)};
      const rows = [...document.querySelectorAll('tbody tr')];
      const gridRows = [...document.querySelectorAll('[role="row"]')].filter(
        (row) => !row.closest('thead') && !row.querySelector('[role="columnheader"]'),
      );
      // A phone's list: one card per record.
      const cards = [...document.querySelectorAll('li.nf-card')];
      const shown = [rows, gridRows, cards].reduce((most, found) => (found.length > most.length ? found : most));
      if (shown.length < expected.length) return false;
      const text = shown.map((row) => row.textContent).join('\\n');
      return expected.every((value) => text.includes(value));
    }`);
}

/**
 * The pages the list benchmark loads: ours, the peer (the minimal page), the peer on our libraries,
 * react-admin, and a baseline checkout.
 */
export type Side = 'ours' | 'peer' | 'stack' | 'reactAdmin' | 'baseline';

export interface ListRun {
  rowsAt: number;
  frameAt: number;
  requests: number;
  /** Where the time went before the rows: the page's scripts ran, the model arrived, the data was asked for. */
  milestones: Milestones;
}

export interface Milestones {
  domContentLoaded: number;
  /** Our client's model (`/spec.json`); NaN for the minimal page, which has none. */
  specLoaded: number;
  listCallStart: number;
  listCallEnd: number;
  /** When our client began its first render (its `ninefold:render` mark); NaN for the minimal page. */
  renderStart: number;
}

/** Navigation and resource timing, read in the page once the rows are shown. */
const MILESTONES = `(() => {
  const resource = (path) =>
    performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === path);
  const spec = resource('/spec.json');
  const call = resource('/api/orders');
  return {
    domContentLoaded: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? NaN,
    specLoaded: spec ? spec.responseEnd : NaN,
    listCallStart: call ? call.startTime : NaN,
    listCallEnd: call ? call.responseEnd : NaN,
    renderStart: performance.getEntriesByName('ninefold:render')[0]?.startTime ?? NaN,
  };
})()`;

export async function timeList(
  browser: Browser,
  url: string,
  expected: string[],
  viewport = TALL_VIEWPORT,
): Promise<ListRun> {
  const { context, page, errors } = await freshPage(browser, viewport);
  // Requests made until the rows were shown (and the few milliseconds it takes to notice).
  let requests = 0;
  page.on('request', () => {
    requests++;
  });
  await page.addInitScript({ content: listProbe(expected) });
  await page.goto(url, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(() => (globalThis as ProbeGlobals).__bench?.frameAt !== undefined, undefined, {
      timeout: 30_000,
      polling: 50,
    });
  } catch (error) {
    const shown = ((await page.evaluate('document.body.innerText').catch(() => '')) as string).slice(0, 600);
    throw new Error(
      `${url}: ${expected.length} rows never appeared (${(error as Error).message.split('\n')[0]}).\n` +
        `Rows found: ${await page.evaluate(COUNT_DATA_ROWS)}. Errors: ${errors.join(' | ') || 'none'}.\nThe page shows: ${shown}`,
    );
  }
  const requestsByThen = requests;
  const state = (await page.evaluate('window.__bench')) as { rowsAt: number; frameAt: number };
  const milestones = (await page.evaluate(MILESTONES)) as Milestones;
  await context.close();
  return { ...state, milestones, requests: requestsByThen };
}

/** The list call our client makes for /orders and the rows it answers, seen in a warm-up load. */
export async function discoverListCall(
  browser: Browser,
  origin: string,
): Promise<{ path: string; numbers: string[] }> {
  const { context, page } = await freshPage(browser, TALL_VIEWPORT);
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/orders', {
    timeout: 30_000,
  });
  await page.goto(`${origin}/orders`);
  const response = await answered.catch(() => {
    throw new Error('our client made no /api/orders call for /orders: is the list screen built?');
  });
  const body = (await response.json()) as { items?: Array<{ number?: string }> };
  const url = new URL(response.url());
  await context.close();
  const numbers = (body.items ?? []).map((item) => String(item.number));
  return { path: `${url.pathname}${url.search}`, numbers };
}
