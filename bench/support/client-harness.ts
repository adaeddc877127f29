// What every client benchmark shares: a real `ninefold serve` process, the one origin the browser talks
// to, Chromium with a fresh context per load, and the result files with the machine's state.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../e2e/support/browser';
import type { BuiltPeer } from '../client-peers';
import { type FrontServer, startFront } from '../client-server';
import { stopChild } from './child-servers';
import { children, cleanups } from './clean-up';
import { RESULTS_DIR } from './figures';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOAD_AT_START = loadavg().map((value) => Math.round(value * 100) / 100);

export const VIEWPORT = { width: 1280, height: 800 };

// ------------------------------------------------------------------------------------------ clean-up

export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-client-'));
  cleanups.push({ name: `remove ${dir}`, run: () => rmSync(dir, { recursive: true, force: true }) });
  return dir;
}

// ------------------------------------------------------------------------------------------ our side

export interface Ninefold {
  url: string;
  output: () => string;
}

/**
 * `ninefold serve SPEC` on a free port with a database in a scratch directory: this checkout's, or that of
 * another checkout at `root` (with its dependencies installed), to measure two versions in one run; `extra`
 * are more options of serve (`--ui FILE`).
 */
export async function startNinefold(
  spec: string,
  seed: number,
  root = ROOT,
  extra: string[] = [],
): Promise<Ninefold> {
  const dir = scratchDir();
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/ninefold.js'),
      'serve',
      spec,
      '--port',
      '0',
      '--db',
      join(dir, 'bench.db'),
      '--seed',
      String(seed),
      ...extra,
    ],
    // The events stream never ends, and the timings wait for the network to be idle; the checkouts
    // compared against have none either.
    {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', NINEFOLD_LIVE_UPDATES: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  cleanups.push({ name: 'stop ninefold serve', run: () => stopChild(child) });
  // The first start in a fresh tree may build the web runtime: hence the long wait.
  const started = Date.now();
  while (true) {
    const match = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
    if (match?.[1]) return { url: match[1], output: () => output };
    if (child.exitCode !== null) throw new Error(`ninefold serve exited (${child.exitCode}):\n${output}`);
    if (Date.now() - started > 300_000) throw new Error(`ninefold serve was not ready:\n${output}`);
    await sleep(100);
  }
}

/**
 * One origin for our client, the peers and the API: the bench server serves the peers and passes
 * everything else to `ninefold serve`, which serves our built client (building it first when stale).
 */
export async function startOrigin(ninefold: Ninefold, peers: BuiltPeer[]): Promise<FrontServer> {
  const answer = await fetch(`${ninefold.url}/orders`, { headers: { accept: 'text/html' } });
  await answer.arrayBuffer();
  if (!answer.ok || !(answer.headers.get('content-type') ?? '').includes('text/html'))
    throw new Error(`ninefold serve does not serve the client: GET /orders answered ${answer.status}`);
  const front = await startFront({
    backend: ninefold.url,
    peers: Object.fromEntries(peers.map((peer) => [peer.base, peer.dist])),
  });
  cleanups.push({ name: 'stop the bench server', run: () => front.close() });
  return front;
}

// ------------------------------------------------------------------------------------------ browser

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  cleanups.push({ name: 'close Chromium', run: () => browser.close() });
  return browser;
}

/** A fresh context per load: an empty HTTP cache, as for a first visit. */
export async function freshPage(
  browser: Browser,
  viewport = VIEWPORT,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Console errors name no URL for failed loads: those are recorded from the responses instead.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  page.on('requestfailed', (request) => errors.push(`${request.failure()?.errorText} ${request.url()}`));
  return { context, page, errors };
}

/**
 * What the probes leave on the page's window. Predicates of waitForFunction must be functions, not
 * strings: a string is evaluated with eval in the page, which our Content-Security-Policy forbids. They
 * are serialized into the page, so they reach the window through globalThis, not through helpers here.
 */
export interface ProbeGlobals {
  __bench?: { rowsAt?: number; frameAt?: number };
  __keys?: number[];
}

// ------------------------------------------------------------------------------------------ figures

export const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * Loads per side before the measured ones: `usual`, or BENCH_WARMUPS. A smoke run in the suite asks for
 * none, since it checks that every side loads and is measured, not the figures.
 */
export function warmUps(usual: number): number {
  const asked = process.env.BENCH_WARMUPS;
  return asked === undefined ? usual : Number(asked);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface Result {
  metric: string;
  ours: number;
  peer: number;
  peerName: string;
  ratio: number;
  unit: string;
  /** What exactly was measured, so the figure can be read without the code. */
  notes: string;
  goal: string;
  goalMet: boolean;
  [extra: string]: unknown;
}

/** The commit measured, and whether the client's and server's sources differed from it. */
/** The commit a checkout is at, for a result that names what it measured. */
export function commitOf(root: string): string {
  return spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
}

export function measuredSources(): { commit: string; uncommittedChanges: boolean } {
  const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  return {
    commit: git(['rev-parse', 'HEAD']),
    uncommittedChanges: git(['status', '--porcelain', '--', 'packages', 'examples']) !== '',
  };
}

export function write(name: string, result: Result, browser: Browser): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const full = {
    ...result,
    ...measuredSources(),
    node: process.version,
    chromium: browser.version(),
    date: new Date().toISOString(),
    cpus: cpus().length,
    // The machine is shared: its load at the start and at the end says how noisy the figures are.
    loadAverage: { start: LOAD_AT_START, end: loadavg().map((value) => Math.round(value * 100) / 100) },
  };
  writeFileSync(`${RESULTS_DIR}${name}.json`, `${JSON.stringify(full, null, 2)}\n`);
  console.log(
    `${result.metric}: ours ${result.ours} ${result.unit}, ${result.peerName} ${result.peer} ${result.unit}, ` +
      `ratio ${result.ratio.toFixed(2)}; goal ${result.goal}: ${result.goalMet ? 'met' : 'NOT met'}`,
  );
}
