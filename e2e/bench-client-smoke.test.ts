// Smoke runs of the browser benchmarks: one round each, results written to a temporary directory, no time
// asserted, so that a change that breaks one fails here rather than when someone next measures. The peers
// (the minimal pages, rjsf, react-admin, Swagger UI) are installed from the npm registry into
// bench/.peers/ on the first run of a checkout, in the background from the suite's start.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { installPeers, PEER_NAMES } from '../bench/client-peers';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

async function bench(args: string[], env: Record<string, string>): Promise<string> {
  const results = mkdtempSync(join(tmpdir(), 'ninefold-bench-smoke-'));
  await run(process.execPath, [join(ROOT, 'scripts/run-ts.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, BENCH_RESULTS: results, NO_COLOR: '1', ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return results;
}

function result(dir: string, name: string): Record<string, unknown> & { ours: number; peer: number } {
  return JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
}

// Every peer, before the first benchmark asks for its own: the installs the suite started at its start
// are waited for, and any that failed there is tried again here.
beforeAll(() => installPeers(PEER_NAMES), 400_000);

describe('the browser benchmarks, one round each', () => {
  it('bench/client-detail.ts: an order’s first render against another checkout', async () => {
    // This checkout as its own baseline: the benchmark's two sides run, one load each.
    const dir = await bench(['bench/client-detail.ts'], {
      BENCH_DETAIL_RUNS: '1',
      BENCH_DETAIL_WARMUPS: '0',
      BENCH_DETAIL_BASELINE: ROOT,
    });
    const figure = result(dir, 'client-detail-first-render');
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
  }, 300_000);

  it('bench/client.ts: the first load’s size, the list’s first render and typing in a form, each beside its peer', async () => {
    const dir = await bench(['bench/client.ts', 'size', 'list', 'form'], {
      BENCH_LIST_RUNS: '1',
      BENCH_FORM_ROUNDS: '1',
      BENCH_WARMUPS: '0',
      // Enough keystrokes to see that each side types and is measured; the figures are not the point.
      BENCH_FORM_KEYSTROKES: '8',
      // This checkout as its own baseline: the side that measures another version runs too.
      BENCH_LIST_BASELINE: ROOT,
    });
    for (const name of [
      'client-initial-js',
      'client-list-first-render',
      'client-list-react-admin',
      'client-list-phone',
      'client-form-typing',
    ]) {
      const figure = result(dir, name);
      expect(figure.ours, name).toBeGreaterThan(0);
      expect(figure.peer, name).toBeGreaterThan(0);
    }
    const list = result(dir, 'client-list-first-render');
    expect((list.stackFloor as { medianFrameMs: number }).medianFrameMs).toBeGreaterThan(0);
    const baseline = list.baseline as { medianFrameMs: number; commit: string };
    expect(baseline.medianFrameMs).toBeGreaterThan(0);
    expect(baseline.commit).toMatch(/^[0-9a-f]{7,}$/);
  }, 400_000);

  it('bench/client-extension.ts: the list with an extension’s overrides beside the same list without', async () => {
    const dir = await bench(['bench/client-extension.ts'], { BENCH_EXTENSION_RUNS: '1', BENCH_WARMUPS: '0' });
    const figure = result(dir, 'client-list-extension');
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
    expect((figure.oursDetail as { requests: number }).requests).toBeGreaterThan(0);
  }, 300_000);

  it('bench/extension-edit.ts: an edit of the extension module under dev beside the same edit in a plain Vite app', async () => {
    const dir = await bench(['bench/extension-edit.ts'], { BENCH_EDIT_RUNS: '1', BENCH_WARMUPS: '0' });
    const figure = result(dir, 'extension-edit');
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
    expect((figure.oursDetail as { runsMs: number[] }).runsMs).toHaveLength(1);
  }, 300_000);

  it('bench/playground.ts: the first load, keystrokes to the preview, and a description opened and edited beside Swagger UI', async () => {
    // A small description in place of GitHub's: the same steps, in seconds.
    const dir = await bench(['bench/playground.ts'], {
      BENCH_PLAYGROUND_ROUNDS: '1',
      BENCH_PLAYGROUND_KEYS: '3',
      BENCH_PLAYGROUND_GITHUB_RUNS: '1',
      BENCH_PLAYGROUND_DOCUMENT: join(ROOT, 'e2e/fixtures/playground-pets.json'),
      BENCH_WARMUPS: '0',
    });
    const size = result(dir, 'playground-initial-js');
    expect(size.ours).toBeGreaterThan(0);
    expect(size.workerKiB).toBeGreaterThan(0);
    const typing = result(dir, 'playground-typing');
    expect(typing.ours).toBeGreaterThan(0);
    expect(typing.keystrokes).toBe(3);
    // Each keystroke's time is split at the check's answer: both parts measured for every key.
    const phases = typing.phases as Record<
      'toAnswer' | 'worker' | 'toFrame',
      { p50: number; measured: number }
    >;
    expect(phases.toAnswer.measured).toBe(3);
    expect(phases.toFrame.measured).toBe(3);
    expect(phases.worker.p50).toBeGreaterThanOrEqual(0);
    const opened = result(dir, 'playground-github-longest-task');
    expect(opened.editShownMedianMs).toBeGreaterThan(0);
    expect(opened.peer).toBeGreaterThanOrEqual(0);
  }, 300_000);

  it('bench/client-openapi.ts: a description’s first screen, served and imported in the page, beside Swagger UI', async () => {
    // A small description in place of GitHub's 13 MB: every side loads it the same way, in seconds
    // (importing GitHub's twice in the page and twice in Swagger UI was a minute of the suite's CPU).
    const dir = await bench(['bench/client-openapi.ts'], {
      BENCH_OPENAPI_RUNS: '1',
      BENCH_OPENAPI_DOCUMENT: join(ROOT, 'e2e/fixtures/playground-pets.json'),
      BENCH_WARMUPS: '0',
    });
    const figure = result(dir, 'openapi-first-screen-document');
    expect(figure.ours).toBeGreaterThan(0);
    expect(figure.peer).toBeGreaterThan(0);
    expect((figure.importedInPage as { medianMs: number }).medianMs).toBeGreaterThan(0);
  }, 240_000);
});
