// The list's first render with a team's extension against the same list without one, in one run
// (issue 18: within 5%). Both are this checkout's client for the list benchmark's specification, each
// served by its own `ninefold serve` behind an origin of its own; the extension (bench/extension/
// orders.ui.tsx) overrides what the orders list draws: a cell, a toolbar slot, a row action and a brand.
//
//   npx tsx bench/client-extension.ts        BENCH_EXTENSION_RUNS=N (default 21)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { LIST_PAGE_SIZE, listSpecYaml } from './client-specs';
import { cleanUp } from './support/clean-up';
import {
  launchChromium,
  round1,
  scratchDir,
  startNinefold,
  startOrigin,
  warmUps,
  write,
} from './support/client-harness';
import { median, percentile } from './support/figures';
import { discoverListCall, type ListRun, timeList } from './support/list-timing';

const EXTENSION = fileURLToPath(new URL('./extension/orders.ui.tsx', import.meta.url));
const RUNS = Number(process.env.BENCH_EXTENSION_RUNS ?? 21);

async function benchListWithExtension(browser: Browser): Promise<void> {
  console.log(`the orders list's first render (${LIST_PAGE_SIZE} rows), with and without an extension`);
  const spec = join(scratchDir(), 'list-bench.yaml');
  writeFileSync(spec, listSpecYaml());
  const [plain, extended] = await Promise.all([
    startNinefold(spec, LIST_PAGE_SIZE + 10),
    startNinefold(spec, LIST_PAGE_SIZE + 10, undefined, ['--ui', EXTENSION]),
  ]);
  const origins = { plain: await startOrigin(plain, []), extended: await startOrigin(extended, []) };
  const calls = {
    plain: await discoverListCall(browser, origins.plain.url),
    extended: await discoverListCall(browser, origins.extended.url),
  };
  for (const [side, call] of Object.entries(calls)) {
    if (call.numbers.length !== LIST_PAGE_SIZE)
      throw new Error(`the ${side} list asked ${call.path} and got ${call.numbers.length} rows`);
  }
  const sides = ['plain', 'extended'] as const;
  const url = (side: (typeof sides)[number]) => `${origins[side].url}/orders`;
  // Warm-up: the server's and the browser's first loads are not what is compared.
  for (let i = 0; i < warmUps(2); i++)
    for (const side of sides) await timeList(browser, url(side), calls[side].numbers);
  const runs: Record<(typeof sides)[number], ListRun[]> = { plain: [], extended: [] };
  for (let round = 0; round < RUNS; round++) {
    // The order alternates every round, so that drift in machine load hits both alike.
    for (const side of round % 2 === 0 ? sides : ([...sides].reverse() as (typeof sides)[number][])) {
      runs[side].push(await timeList(browser, url(side), calls[side].numbers));
    }
    console.log(
      `  run ${round + 1}/${RUNS}: without ${runs.plain.at(-1)?.frameAt.toFixed(0)} ms, with ${runs.extended.at(-1)?.frameAt.toFixed(0)} ms`,
    );
  }
  const summary = (list: ListRun[]) => {
    const frames = list.map((run) => run.frameAt);
    return {
      medianRowsMs: round1(median(list.map((run) => run.rowsAt))),
      medianFrameMs: round1(median(frames)),
      p90FrameMs: round1(percentile(frames, 90)),
      requests: median(list.map((run) => run.requests)),
      runsMs: frames.map(round1),
    };
  };
  const withIt = summary(runs.extended);
  const without = summary(runs.plain);
  const ratio = withIt.medianFrameMs / without.medianFrameMs;
  write(
    'client-list-extension',
    {
      metric: `navigation start to ${LIST_PAGE_SIZE} rows on screen, the orders list, with an extension's overrides`,
      ours: withIt.medianFrameMs,
      peer: without.medianFrameMs,
      peerName: 'the same client without an extension',
      ratio,
      unit: 'ms',
      notes:
        "Both sides are this checkout, serving the list benchmark's specification (bench/client-specs.ts) with " +
        'ninefold serve, each process behind an origin of its own; ours adds --ui bench/extension/orders.ui.tsx, ' +
        "which wraps the Total column's display, fills the list's toolbar, adds a row action (a button in each of " +
        `the ${LIST_PAGE_SIZE} rows) and a brand. Timed as bench/client.ts times the list (bench/support/list-timing.ts): ` +
        `a fresh browser context per load, ${warmUps(2)} warm-up loads a side, ${RUNS} runs a side alternating, median. ` +
        'Goal: ratio <= 1.05.',
      goal: 'ratio <= 1.05',
      goalMet: ratio <= 1.05,
      oursDetail: withIt,
      peerDetail: without,
    },
    browser,
  );
}

benchListWithExtension(await launchChromium())
  .catch((error: Error) => {
    console.error(`\n${error.stack ?? error.message}`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
