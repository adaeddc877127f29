// The first usable screen of the client imported from GitHub's 13 MB OpenAPI description, against
// Swagger UI rendering the same document, side by side in one run in Debian's Chromium. Run by hand:
//
//   npx tsx bench/client-openapi.ts
//
// Three pages load in turn, each in a fresh browser context (an empty cache), BENCH_OPENAPI_RUNS times
// (default 7) after one warm-up each:
// - ours, served: `ninefold serve github.json` imports the document once at start; the page loads the
//   client and its model and draws the home screen, with the navigation to the 600 screens.
// - ours, imported in the page: the /_/import page of a client with nothing in it (examples/empty.md)
//   reads the raw document in a Web Worker, imports it there and opens the preview of its client
//   (`?url=…&open=1`): the same work as Swagger UI does, in a tab.
// - Swagger UI (swagger-ui-dist, its own index page) loading the raw document.
// The time is from navigation start to the frame after the first usable screen is in the DOM; the
// longest main-thread task (PerformanceObserver "longtask", until a second after that frame) comes with it.
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { swaggerUiApp } from './client-peers';
import { startFront } from './client-server';
import { cleanUp, cleanups } from './support/clean-up';
import {
  freshPage,
  launchChromium,
  round1,
  sleep,
  startNinefold,
  warmUps,
  write,
} from './support/client-harness';
import { median } from './support/figures';
import { GITHUB_FILE } from './support/heap-runs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const GITHUB = GITHUB_FILE;
/**
 * GitHub's, unless BENCH_OPENAPI_DOCUMENT names another: the suite's smoke run takes a small one, since
 * what it checks is that every side still loads, not the figures.
 */
const DOCUMENT = process.env.BENCH_OPENAPI_DOCUMENT ?? GITHUB;
const FIGURE_NAME = DOCUMENT === GITHUB ? 'openapi-first-screen-github' : 'openapi-first-screen-document';
const EMPTY = join(ROOT, 'examples/empty.md');
const DOCUMENT_URL = `/docs/${basename(DOCUMENT)}`;
const RUNS = Number(process.env.BENCH_OPENAPI_RUNS ?? 7);
/** Long tasks are collected until this long after the first usable frame: work it left behind counts. */
const SETTLE_MS = 1_000;
const GOAL_SPEEDUP = 5;
const GOAL_LONGEST_TASK_MS = 100;

type Side = 'served' | 'imported' | 'swagger';

/** What the page must show to be usable, as a function body over `document` (it runs in the page). */
const READY: Record<Side, string> = {
  // The shell's navigation and the home screen's heading: every screen is one click away.
  served: `!!document.querySelector('nav a[href]') && !!document.querySelector('main h1')`,
  // The same, in the preview that replaces the import page.
  imported: `!!document.querySelector('main [role="region"]') && !!document.querySelector('nav a[href]') && !!document.querySelector('main h1')`,
  // Its first operation, listed and ready to open.
  swagger: `!!document.querySelector('.opblock-summary')`,
};

function probe(ready: string): string {
  return `(() => {
    const state = (window.__first = { longTasks: [] });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    const observer = new MutationObserver(() => {
      if (state.readyAt !== undefined || !(${ready})) return;
      state.readyAt = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => { state.frameAt = performance.now(); }, 0));
    });
    observer.observe(document, { childList: true, subtree: true });
  })()`;
}

interface Run {
  frameAt: number;
  /** Our client's own marks (main.tsx): the model fetched and parsed, the render started. */
  marks: Record<string, number>;
  longestTask: number;
  longTasks: number;
  errors: string[];
}

async function load(browser: Browser, url: string, side: Side): Promise<Run> {
  const { context, page, errors } = await freshPage(browser);
  await page.addInitScript({ content: probe(READY[side]) });
  await page.goto(url, { waitUntil: 'commit' });
  try {
    await page.waitForFunction(
      () => (globalThis as { __first?: { frameAt?: number } }).__first?.frameAt !== undefined,
      undefined,
      { timeout: 120_000, polling: 50 },
    );
  } catch (error) {
    const shown = ((await page.evaluate('document.body.innerText').catch(() => '')) as string).slice(0, 600);
    throw new Error(
      `${side}: no usable screen (${(error as Error).message.split('\n')[0]}). Errors: ${errors.join(' | ') || 'none'}. The page shows: ${shown}`,
    );
  }
  await sleep(SETTLE_MS);
  const state = (await page.evaluate('window.__first')) as { frameAt: number; longTasks: number[] };
  const marks = (await page.evaluate(
    "Object.fromEntries(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('ninefold:')).map((m) => [m.name.slice(9), m.startTime]))",
  )) as Record<string, number>;
  await context.close();
  return {
    frameAt: state.frameAt,
    marks,
    longestTask: Math.max(0, ...state.longTasks),
    longTasks: state.longTasks.length,
    errors,
  };
}

async function main(): Promise<void> {
  const swagger = await swaggerUiApp();
  const browser = await launchChromium();
  console.log(
    `starting ninefold serve on ${basename(DOCUMENT)} (it imports it once, then builds its tables)…`,
  );
  const [ninefold, host] = await Promise.all([startNinefold(DOCUMENT, 0), startNinefold(EMPTY, 0)]);
  const front = await startFront({
    backend: ninefold.url,
    peers: { '/peers/swagger-ui/': swagger.dir, '/docs/': dirname(DOCUMENT) },
  });
  cleanups.push({ name: 'stop the bench server', run: () => front.close() });
  const hostFront = await startFront({ backend: host.url, peers: { '/docs/': dirname(DOCUMENT) } });
  cleanups.push({ name: 'stop the host bench server', run: () => hostFront.close() });
  const urls: Record<Side, string> = {
    served: `${front.url}/`,
    imported: `${hostFront.url}/_/import?url=${encodeURIComponent(DOCUMENT_URL)}&open=1`,
    swagger: `${front.url}/peers/swagger-ui/index.html?url=${encodeURIComponent(DOCUMENT_URL)}`,
  };
  const runs: Record<Side, Run[]> = { served: [], imported: [], swagger: [] };
  const order: Side[] = ['swagger', 'served', 'imported'];
  // Rounds before the first (0 and below) are warm-ups, not measured.
  for (let round = 1 - warmUps(1); round <= RUNS; round++) {
    // Rotated, so that no side always follows the same one.
    const turn = ((round % 3) + 3) % 3;
    const sides = [...order.slice(turn), ...order.slice(0, turn)];
    for (const side of sides) {
      const run = await load(browser, urls[side], side);
      if (run.errors.length > 0) throw new Error(`${side}: ${run.errors.join(' | ')}`);
      if (round > 0) runs[side].push(run);
      process.stdout.write(
        `${side} ${Math.round(run.frameAt)} ms (longest task ${Math.round(run.longestTask)} ms); `,
      );
    }
    console.log();
  }
  const figure = (side: Side) => ({
    medianMs: round1(median(runs[side].map((run) => run.frameAt))),
    longestTaskMs: round1(Math.max(...runs[side].map((run) => run.longestTask))),
    medianLongestTaskMs: round1(median(runs[side].map((run) => run.longestTask))),
    longTasksPerLoad: round1(median(runs[side].map((run) => run.longTasks))),
    milestonesMs: Object.fromEntries(
      Object.keys(runs[side][0]?.marks ?? {}).map((name) => [
        name,
        round1(median(runs[side].map((run) => run.marks[name] ?? Number.NaN))),
      ]),
    ),
  });
  const served = figure('served');
  const imported = figure('imported');
  const peer = figure('swagger');
  const speedup = peer.medianMs / served.medianMs;
  write(
    FIGURE_NAME,
    {
      metric:
        DOCUMENT === GITHUB
          ? "navigation start to the frame after the first usable screen, for GitHub's 13 MB OpenAPI description"
          : `navigation start to the frame after the first usable screen, for ${basename(DOCUMENT)}`,
      ours: served.medianMs,
      peer: peer.medianMs,
      peerName: `Swagger UI ${swagger.version} (swagger-ui-dist)`,
      ratio: served.medianMs / peer.medianMs,
      unit: 'ms',
      speedup: round1(speedup),
      longestTask: {
        ours: served.longestTaskMs,
        oursImportedInPage: imported.longestTaskMs,
        peer: peer.longestTaskMs,
      },
      served,
      importedInPage: { ...imported, speedup: round1(peer.medianMs / imported.medianMs) },
      swagger: peer,
      notes:
        `Median of ${RUNS} loads per side after ${warmUps(1)} warm-up, interleaved, each in a fresh context. ` +
        'Ours (served): `ninefold serve` on the document (imported once at start), the home screen with its navigation. ' +
        'Ours (imported in the page): /_/import of an empty client reads the raw document in a Web Worker and opens the preview. ' +
        'Swagger UI: its standalone index page on the raw document, until the first operation is listed. ' +
        `Longest task: the longest main-thread task seen from navigation start until ${SETTLE_MS} ms after the first usable frame, over all loads.`,
      goal: `at least ${GOAL_SPEEDUP}x faster than Swagger UI, and no main-thread task over ${GOAL_LONGEST_TASK_MS} ms`,
      goalMet:
        speedup >= GOAL_SPEEDUP &&
        served.longestTaskMs <= GOAL_LONGEST_TASK_MS &&
        imported.longestTaskMs <= GOAL_LONGEST_TASK_MS,
    },
    browser,
  );
}

main()
  .catch((error: Error) => {
    console.error(`\n${error.stack ?? error.message}`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
