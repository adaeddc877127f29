// The playground (/_/playground) measured in Debian's Chromium. Run by hand:
//
//   npx tsx bench/playground.ts
//
// - typing: keystroke to updated preview for the rich example. The New customer form is open in the
//   preview; a field row is typed into the Customer table, then its label one character at a time. Per
//   keystroke: from a capture-phase keydown listener to the frame after the form shows the label as
//   typed so far (a MutationObserver on the preview, then requestAnimationFrame and a task). The next key
//   is sent after that and a pause. Goal: p50 and p95 <= 50 ms (issue 48). No peer previews a client while its text
//   is typed (Swagger Editor renders documentation, react-admin and Refine need a build), so the
//   ratio is to the goal.
// - github: GitHub's 13 MB description opened in the playground (imported in its worker into nine-point
//   YAML, which the editor then holds) and edited: one character typed into its title. The longest
//   main-thread task from choosing the file until a second after the edited title shows in the preview,
//   beside Swagger UI's longest task loading the same document. Goal: no task over 100 ms.
// - size: the JavaScript the playground's first load fetches until the rich example's client is drawn,
//   gzipped, and the checking worker's.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
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
const EMPTY = join(ROOT, 'examples/empty.md');
const ROUNDS = Number(process.env.BENCH_PLAYGROUND_ROUNDS ?? 5);
const KEYS = Number(process.env.BENCH_PLAYGROUND_KEYS ?? 20);
const GITHUB_RUNS = Number(process.env.BENCH_PLAYGROUND_GITHUB_RUNS ?? 3);
const GOAL_MS = 100;
/** Issue 48: a keystroke shown within 50 ms, 19 times in 20 (an earlier issue's goal was 100 ms). */
const TYPING_GOAL_MS = 50;

function percentile95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN;
}

const PAUSE_MS = 150;
const SETTLE_MS = 1_000;

/** What the page's probe keeps on its window. */
interface Probe {
  __typing?: {
    expected?: string;
    keyAt?: number;
    /** The check's answer of the text typed, on the page (its mark), and the worker's own time. */
    checkedAt?: number;
    workerMs?: number;
    shownAt?: number;
    frameAt?: number;
  };
  /** Long tasks: start (ms since navigation) and duration. */
  __tasks?: Array<[number, number]>;
}

/** Installed before the page's own scripts: long tasks, and each keystroke's time to the preview. */
const PROBE = `(() => {
  window.__tasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__tasks.push([entry.startTime, entry.duration]); })
    .observe({ type: 'longtask', buffered: true });
  const typing = (window.__typing = {});
  addEventListener('keydown', () => { typing.keyAt = performance.now(); typing.checkedAt = undefined; typing.workerMs = undefined; typing.shownAt = undefined; typing.frameAt = undefined; }, true);
  const check = () => {
    if (typing.expected === undefined || typing.keyAt === undefined || typing.shownAt !== undefined) return;
    const region = document.querySelector('[aria-label="Client preview"]');
    const labels = region ? region.querySelectorAll('label, h1, .nf-product-name') : [];
    for (const label of labels) {
      if (label.textContent && label.textContent.trim() === typing.expected) {
        typing.shownAt = performance.now();
        // The last answer since the key is the one that shows it. Read from the timeline when the label
        // shows, not from an observer, whose callback may come after the render it led to.
        const answers = performance.getEntriesByName('ninefold:playground-checked').filter((mark) => mark.startTime >= typing.keyAt);
        const answer = answers[answers.length - 1];
        if (answer) { typing.checkedAt = answer.startTime; typing.workerMs = answer.detail?.workerMs; }
        requestAnimationFrame(() => setTimeout(() => { typing.frameAt = performance.now(); }, 0));
        return;
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

async function openPlayground(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await freshPage(browser);
  await page.addInitScript({ content: PROBE });
  await page.goto(`${url}/_/playground`);
  return { page, errors };
}

/** Puts the cursor at the end of the first line holding `text`, by the editor's search panel. */
async function cursorAfter(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Specification text' }).click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+f');
  const search = page.getByRole('textbox', { name: 'Find' });
  await search.pressSequentially(text);
  await search.press('Enter');
  await search.press('Escape');
  await page.keyboard.press('End');
}

/** Sends one key and waits for the frame in which the preview shows `expected`. */
async function keystroke(page: Page, key: string, expected: string): Promise<{ ms: number; phases: Phases }> {
  await page.evaluate((text) => {
    // In place: the probe's listeners hold this very object.
    const typing = (globalThis as Probe).__typing;
    if (typing) typing.expected = text;
  }, expected);
  await page.keyboard.type(key);
  await page.waitForFunction(() => (globalThis as Probe).__typing?.frameAt !== undefined, undefined, {
    timeout: 30_000,
    polling: 10,
  });
  const typing = await page.evaluate(() => (globalThis as Probe).__typing);
  const keyAt = typing?.keyAt ?? 0;
  const checkedAt = typing?.checkedAt ?? Number.NaN;
  return {
    ms: (typing?.frameAt ?? 0) - keyAt,
    phases: {
      toAnswer: checkedAt - keyAt,
      worker: typing?.workerMs ?? Number.NaN,
      toFrame: (typing?.frameAt ?? 0) - checkedAt,
    },
  };
}

type Phases = { toAnswer: number; worker: number; toFrame: number };

async function benchTyping(browser: Browser, url: string) {
  const times: number[] = [];
  const phases: Phases[] = [];
  const label = 'Loyalty tier of the customer'.slice(0, KEYS);
  // Rounds before the first (0 and below) are warm-ups, not measured.
  for (let round = 1 - warmUps(1); round <= ROUNDS; round++) {
    const { page, errors } = await openPlayground(browser, url);
    const preview = page.getByRole('region', { name: 'Client preview' });
    await preview
      .getByRole('navigation', { name: 'Navigation' })
      .getByRole('link', { name: 'New customer' })
      .click();
    await preview.getByRole('textbox', { name: /^Name/ }).waitFor();
    await cursorAfter(page, '| tags | list of text |');
    // The whole row first (a row with fewer cells than its header is an error), then into its label cell.
    const start = '| loyaltyTier | text | ';
    await page.keyboard.type(`\n${start} | | | | |`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Home');
    for (let i = 0; i < start.length; i++) await page.keyboard.press('ArrowRight');
    for (let index = 0; index < label.length; index++) {
      const stroke = await keystroke(page, label[index] as string, label.slice(0, index + 1).trim());
      // A space typed at the end changes nothing the form shows until the next letter: not a figure.
      if (round > 0 && label[index] !== ' ') {
        times.push(stroke.ms);
        phases.push(stroke.phases);
      }
      await sleep(PAUSE_MS);
    }
    if (errors.length > 0) throw new Error(`typing: ${errors.join(' | ')}`);
    await page.context().close();
    process.stdout.write(`typing round ${round}: median so far ${round1(median(times))} ms; `);
  }
  console.log();
  const sorted = [...times].sort((a, b) => a - b);
  const p95 = percentile95(times);
  const p50 = median(times);
  const phase = (name: keyof Phases) => {
    const values = phases.map((entry) => entry[name]).filter((value) => Number.isFinite(value));
    return { p50: round1(median(values)), p95: round1(percentile95(values)), measured: values.length };
  };
  write(
    'playground-typing',
    {
      metric: 'keystroke to the frame showing it in the preview, the rich example in the playground',
      ours: round1(p50),
      peer: TYPING_GOAL_MS,
      peerName: 'the goal (no peer previews a client while its text is typed)',
      ratio: p50 / TYPING_GOAL_MS,
      unit: 'ms',
      oursP95: round1(p95),
      ratioP95: p95 / TYPING_GOAL_MS,
      maxMs: round1(sorted.at(-1) ?? Number.NaN),
      keystrokes: times.length,
      // Where a keystroke's time goes: to the check's answer on the page (the editor, the message, the
      // worker's check, the way back), of which the worker's own check; and from the answer to the frame
      // (the model read, the preview's render, the paint).
      phases: { toAnswer: phase('toAnswer'), worker: phase('worker'), toFrame: phase('toFrame') },
      notes:
        `${ROUNDS} page loads after ${warmUps(1)} warm-up, each in a fresh context (1280x800), each typing a field row into ` +
        `examples/shop.md's Customer table and then its label, "${label}", one key at a time with the New customer ` +
        'form open in the preview. Per keystroke: from a capture-phase keydown listener to the frame after the ' +
        'form shows the label as typed so far (MutationObserver, then requestAnimationFrame and a task): the ' +
        `check in the worker, the model's way back, and the preview's render. Keys ${PAUSE_MS} ms apart after each ` +
        'frame. Spaces are typed but not counted (the label shown is the same until the next letter).',
      goal: `p50 and p95 <= ${TYPING_GOAL_MS} ms`,
      goalMet: p50 <= TYPING_GOAL_MS && p95 <= TYPING_GOAL_MS,
    },
    browser,
  );
}

/** The title a description gives (`info.title`), which the import makes point 1's. */
function titleOf(document: string): string {
  const text = readFileSync(document, 'utf8');
  const parsed = (document.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as {
    info?: { title?: string };
  };
  const title = parsed.info?.title;
  if (!title) throw new Error(`${document} names no info.title`);
  return title;
}

async function benchGithub(browser: Browser, url: string, document: string) {
  const title = titleOf(document);
  const swagger = await swaggerUiApp();
  const front = await startFront({
    backend: url,
    peers: { '/peers/swagger-ui/': swagger.dir, '/docs/': dirname(document) },
  });
  cleanups.push({ name: 'stop the bench server', run: () => front.close() });
  const ours: Array<{ longest: number; openedMs: number; editMs: number }> = [];
  const peer: number[] = [];
  for (let round = 1 - warmUps(1); round <= GITHUB_RUNS; round++) {
    // Ours: the file chosen, imported in the worker, shown in the editor and the preview; then one edit.
    const { page, errors } = await openPlayground(browser, front.url);
    await page
      .getByRole('region', { name: 'Client preview' })
      .getByRole('navigation', { name: 'Navigation' })
      .waitFor();
    // The rich example's first load goes on for a moment after its navigation shows (its charts): the
    // file is chosen once that is over, and only tasks that start after it count (the observer reports
    // them late).
    await sleep(2 * SETTLE_MS);
    const chosenAt = await page.evaluate(() => performance.now());
    const start = Date.now();
    await page.getByLabel('Open a specification or OpenAPI file').setInputFiles(document);
    await page
      .getByRole('region', { name: 'Client preview' })
      .getByText(title, { exact: true })
      .first()
      .waitFor({ timeout: 300_000 });
    await page
      .getByRole('status', { name: 'Checking the text' })
      .getByText(/points shown/)
      .waitFor({ timeout: 300_000 });
    const openedMs = Date.now() - start;
    await cursorAfter(page, `title: ${title}`);
    const edit = await keystroke(page, '!', `${title}!`);
    await sleep(SETTLE_MS);
    const tasks = (await page.evaluate(() => (globalThis as Probe).__tasks ?? [])).filter(
      ([startTime]) => startTime >= chosenAt,
    );
    const longest = Math.max(0, ...tasks.map(([, duration]) => duration));
    if (errors.length > 0) throw new Error(`github: ${errors.join(' | ')}`);
    await page.context().close();
    // Swagger UI on the same document, until its first operation is listed.
    const other = await freshPage(browser);
    await other.page.addInitScript({ content: PROBE });
    await other.page.goto(
      `${front.url}/peers/swagger-ui/index.html?url=${encodeURIComponent(`/docs/${document.split('/').at(-1)}`)}`,
    );
    await other.page.locator('.opblock-summary').first().waitFor({ timeout: 120_000 });
    await sleep(SETTLE_MS);
    const peerLongest = Math.max(
      0,
      ...(await other.page.evaluate(() => (globalThis as Probe).__tasks ?? [])).map(
        ([, duration]) => duration,
      ),
    );
    await other.context.close();
    if (round > 0) {
      ours.push({ longest, openedMs, editMs: edit.ms });
      peer.push(peerLongest);
    }
    console.log(
      `github round ${round}: ours longest task ${Math.round(longest)} ms (opened in ${openedMs} ms, edit shown in ${Math.round(edit.ms)} ms); Swagger UI ${Math.round(peerLongest)} ms`,
    );
  }
  const longest = Math.max(...ours.map((run) => run.longest));
  const peerLongest = Math.max(...peer);
  write(
    'playground-github-longest-task',
    {
      metric: `longest main-thread task opening ${document.split('/').at(-1)} (an OpenAPI description) in the playground and editing it`,
      ours: round1(longest),
      peer: round1(peerLongest),
      peerName: `Swagger UI ${swagger.version} (swagger-ui-dist) loading the same document`,
      ratio: longest / peerLongest,
      unit: 'ms',
      medianLongestTaskMs: round1(median(ours.map((run) => run.longest))),
      openedMedianMs: round1(median(ours.map((run) => run.openedMs))),
      editShownMedianMs: round1(median(ours.map((run) => run.editMs))),
      notes:
        `${GITHUB_RUNS} runs per side after ${warmUps(1)} warm-up, interleaved, each in a fresh context. Ours: the playground ` +
        "(rich example running), GitHub's description chosen in its file input; the worker imports it into " +
        'nine-point YAML, the editor takes the text, the worker checks it, the preview swaps to its client; then ' +
        `"!" is typed at the end of its title and waited for in the preview. Longest task: PerformanceObserver ` +
        `"longtask" from choosing the file (${2 * SETTLE_MS} ms after the playground's own first load showed its ` +
        `navigation) until ${SETTLE_MS} ms after the edit showed. Swagger UI: its standalone ` +
        `page on the raw document until the first operation is listed, and ${SETTLE_MS} ms more.`,
      goal: `no main-thread task over ${GOAL_MS} ms`,
      goalMet: longest <= GOAL_MS,
    },
    browser,
  );
}

/** The built runtime's files, by the path the page fetches them at. */
function gzipOf(runtime: string, path: string): number {
  return gzipSync(readFileSync(join(runtime, path.replace(/^\//, ''))), { level: 9 }).length;
}

async function benchSize(browser: Browser, url: string) {
  const { page, errors } = await freshPage(browser);
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  await page.addInitScript({ content: PROBE });
  await page.goto(`${url}/_/playground`);
  await page
    .getByRole('region', { name: 'Client preview' })
    .getByRole('navigation', { name: 'Navigation' })
    .waitFor();
  await page.waitForLoadState('networkidle');
  await sleep(SETTLE_MS);
  const firstLoadTasks = await page.evaluate(() => (globalThis as Probe).__tasks ?? []);
  if (errors.length > 0) throw new Error(`size: ${errors.join(' | ')}`);
  await page.context().close();
  const runtime = join(ROOT, 'packages/web/dist');
  const perFile = [...scripts]
    .map((path) => ({ path, gzipKiB: round1(gzipOf(runtime, path) / 1024) }))
    .sort((a, b) => b.gzipKiB - a.gzipKiB);
  const isWorker = (path: string) => /\/check\.worker-[^/]*\.js$/.test(path);
  const pageBytes = [...scripts]
    .filter((path) => !isWorker(path))
    .reduce((sum, path) => sum + gzipOf(runtime, path), 0);
  const worker = readdirSync(join(runtime, 'assets')).find((name) => /^check\.worker-.*\.js$/.test(name));
  const workerBytes = worker ? gzipOf(runtime, `assets/${worker}`) : 0;
  // The served client's own first load, as the reference the playground is compared with.
  const client = await freshPage(browser);
  const clientScripts = new Set<string>();
  client.page.on('request', (request) => {
    if (request.resourceType() === 'script') clientScripts.add(new URL(request.url()).pathname);
  });
  await client.page.goto(`${url}/`);
  await client.page.waitForLoadState('networkidle');
  await client.context.close();
  const clientBytes = [...clientScripts].reduce((sum, path) => sum + gzipOf(runtime, path), 0);
  const kib = (bytes: number) => round1(bytes / 1024);
  write(
    'playground-initial-js',
    {
      metric: "the playground's initial JavaScript, gzipped, until the rich example's client is drawn",
      ours: kib(pageBytes),
      peer: kib(clientBytes),
      peerName: 'the served client of examples/empty.md, first load',
      ratio: pageBytes / clientBytes,
      unit: 'KiB',
      workerKiB: kib(workerBytes),
      // Not a goal of the issue, but what a person feels: the longest task of the same first load.
      firstLoadLongestTaskMs: round1(Math.max(0, ...firstLoadTasks.map(([, duration]) => duration))),
      files: perFile,
      notes:
        'Scripts the page requested from navigation until its network was quiet with the preview drawn, each ' +
        'gzipped at level 9 from the built runtime (the server sends Brotli, smaller still). The checking ' +
        "worker's script is counted apart (workerKiB): it loads beside the page, off its main thread.",
      goal: 'measured (no goal set by the issue)',
      goalMet: true,
    },
    browser,
  );
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const all = wanted.length === 0;
  const browser = await launchChromium();
  const host = await startNinefold(EMPTY, 0);
  if (all || wanted.includes('size')) await benchSize(browser, host.url);
  if (all || wanted.includes('typing')) await benchTyping(browser, host.url);
  if (all || wanted.includes('github'))
    await benchGithub(browser, host.url, process.env.BENCH_PLAYGROUND_DOCUMENT ?? GITHUB_FILE);
}

main()
  .catch((error: Error) => {
    console.error(`\n${error.stack ?? error.message}`);
    process.exitCode = 1;
  })
  .finally(() => cleanUp());
