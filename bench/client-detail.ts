// A record's first render in Chromium (issue 21): the demo's order page, from navigation start to the end
// of the first frame in which its heading, its fields and its lines' table are drawn, this checkout against
// another one (BENCH_DETAIL_BASELINE, e.g. a `git worktree` of the commit before a change, its
// dependencies installed) in the same run. Written to bench/results/client-detail-first-render.json.
//
//   BENCH_DETAIL_BASELINE=/path/to/other/checkout npx tsx bench/client-detail.ts   BENCH_DETAIL_RUNS (default 21),
//                                                                                 BENCH_DETAIL_WARMUPS (default 2)
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { listSpecYaml } from './client-specs';
import { cleanUp } from './support/clean-up';
import {
  commitOf,
  freshPage,
  launchChromium,
  type ProbeGlobals,
  round1,
  scratchDir,
  startNinefold,
  startOrigin,
  write,
} from './support/client-harness';
import { median, percentile } from './support/figures';
import { frameProbe } from './support/list-timing';

const BASELINE = process.env.BENCH_DETAIL_BASELINE ? resolve(process.env.BENCH_DETAIL_BASELINE) : undefined;
const RUNS = Number(process.env.BENCH_DETAIL_RUNS ?? 21);
const WARM_UPS = Number(process.env.BENCH_DETAIL_WARMUPS ?? 2);

/** Before the page's scripts: done when the order's number heads the page and its lines are a table. */
function detailProbe(number: string): string {
  return frameProbe(`() => {
      const heading = document.querySelector('h1');
      return heading && heading.textContent.includes(${JSON.stringify(number)}) && document.querySelector('table tbody tr');
    }`);
}

async function timeDetail(browser: Browser, url: string, number: string): Promise<number> {
  const { context, page, errors } = await freshPage(browser);
  await page.addInitScript({ content: detailProbe(number) });
  await page.goto(url, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(() => (globalThis as ProbeGlobals).__bench?.frameAt !== undefined, undefined, {
      timeout: 30_000,
      polling: 50,
    });
  } catch (error) {
    throw new Error(
      `${url}: the order never showed (${(error as Error).message.split('\n')[0]}); ${errors.join(' | ')}`,
    );
  }
  const state = (await page.evaluate('window.__bench')) as { frameAt: number };
  await context.close();
  return state.frameAt;
}

/** The first order with lines, as that server's API answers it. */
async function anOrder(api: string): Promise<{ id: number; number: string }> {
  const list = (await (await fetch(`${api}/api/orders?limit=50`)).json()) as {
    items: Array<{ id: number; number: string; lines?: unknown[] }>;
  };
  const found = list.items.find((item) => Array.isArray(item.lines) && item.lines.length > 0);
  if (!found) throw new Error(`${api} has no order with lines`);
  return found;
}

async function main(): Promise<void> {
  if (!BASELINE)
    throw new Error('Set BENCH_DETAIL_BASELINE to another checkout of Ninefold to measure against.');
  const browser = await launchChromium();
  const spec = join(scratchDir(), 'detail-bench.yaml');
  writeFileSync(spec, listSpecYaml());
  const sides = {
    ours: await startNinefold(spec, 30),
    baseline: await startNinefold(spec, 30, BASELINE),
  };
  const pages: Record<keyof typeof sides, { url: string; number: string }> = {
    ours: { url: '', number: '' },
    baseline: { url: '', number: '' },
  };
  for (const side of ['ours', 'baseline'] as const) {
    const origin = await startOrigin(sides[side], []);
    const order = await anOrder(sides[side].url);
    pages[side] = { url: `${origin.url}/orders/${order.id}`, number: order.number };
  }
  for (let i = 0; i < WARM_UPS; i++)
    for (const side of ['ours', 'baseline'] as const)
      await timeDetail(browser, pages[side].url, pages[side].number);
  const runs: Record<'ours' | 'baseline', number[]> = { ours: [], baseline: [] };
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const);
    for (const side of order) runs[side].push(await timeDetail(browser, pages[side].url, pages[side].number));
  }
  const ours = round1(median(runs.ours));
  const peer = round1(median(runs.baseline));
  write(
    'client-detail-first-render',
    {
      metric: 'navigation start to an order drawn (its heading, fields and lines), the order page',
      ours,
      peer,
      peerName: `the same page of ${BASELINE} at ${commitOf(BASELINE)}`,
      ratio: ours / peer,
      unit: 'ms',
      notes: `Time from navigation start to the end of the first frame after the order's number heads the page and its lines' table has a row (a MutationObserver installed before the page, then requestAnimationFrame and a task after it). Both: the demo without sign-in (bench/client-specs.ts), seeded alike, each from its own ninefold serve and origin; a fresh browser context per load (empty cache), 1280x800; 2 warm-up loads each, then ${RUNS} each, alternating, median. Lower is better; ratio = this checkout / the baseline.`,
      goal: 'ratio <= 1.1 (no slower than before)',
      goalMet: ours / peer <= 1.1,
      p90: { ours: round1(percentile(runs.ours, 90)), baseline: round1(percentile(runs.baseline, 90)) },
      runsMs: runs,
    },
    browser,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
