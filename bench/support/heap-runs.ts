// What the OpenAPI benchmarks share: GitHub's description, and one side against JSON.parse of the same
// text, run alternately in one process, each run timed and its heap measured (with --expose-gc).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { median } from './figures';

const GITHUB = 'github/api.github.com.octokit-23.0.2.json';

/** The shared corpus beside the repository, NINEFOLD_CORPUS, or where this machine kind keeps it. */
export const GITHUB_FILE =
  [
    process.env.NINEFOLD_CORPUS ? `${process.env.NINEFOLD_CORPUS}/${GITHUB}` : undefined,
    fileURLToPath(new URL(`../../../shared/corpus/openapi/${GITHUB}`, import.meta.url)),
    `/work/shared/corpus/openapi/${GITHUB}`,
  ].find((path) => path !== undefined && existsSync(path)) ??
  fileURLToPath(new URL(`../../../shared/corpus/openapi/${GITHUB}`, import.meta.url));

export function readGithub(): string {
  return readFileSync(GITHUB_FILE, 'utf8');
}

const gc = (globalThis as { gc?: () => void }).gc;

interface Run {
  ms: number;
  /** Heap in use right after the run, over the heap before it: the peak, less whatever a scavenge freed. */
  peakMb: number;
  /** Heap the result keeps alive (after a full gc). */
  heapMb: number;
}

function measure(run: () => unknown): Run {
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const kept = run();
  const ms = performance.now() - started;
  const peakMb = (process.memoryUsage().heapUsed - before) / 1048576;
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1048576;
  if (kept === undefined) throw new Error('the measured run produced nothing');
  return { ms, peakMb, heapMb };
}

/**
 * Ours against JSON.parse of the same text, alternately, `runs` times after `warmUp` rounds: the median
 * times, their ratio, and the heap figures. Each side must return what it built, which stays alive until
 * it is measured.
 */
export function againstJsonParse(text: string, ours: () => unknown, runs: number, warmUp: number) {
  if (!gc) console.warn('run with --expose-gc for the memory figures');
  const oursRuns: Run[] = [];
  const peerRuns: Run[] = [];
  for (let i = 0; i < runs + warmUp; i++) {
    const peer = measure(() => JSON.parse(text));
    const own = measure(ours);
    if (i < warmUp) continue;
    peerRuns.push(peer);
    oursRuns.push(own);
  }
  const oursMs = median(oursRuns.map((run) => run.ms));
  const peerMs = median(peerRuns.map((run) => run.ms));
  const mb = (list: Run[], key: 'peakMb' | 'heapMb') =>
    Number(median(list.map((run) => run[key])).toFixed(1));
  return {
    ours: oursMs,
    peer: peerMs,
    peerName: 'JSON.parse of the same text',
    ratio: oursMs / peerMs,
    unit: 'ms',
    memory: {
      unit: 'MB of heap (process.memoryUsage().heapUsed, --expose-gc), median',
      peakOurs: mb(oursRuns, 'peakMb'),
      peakPeer: mb(peerRuns, 'peakMb'),
      peakRatio: Number((mb(oursRuns, 'peakMb') / mb(peerRuns, 'peakMb')).toFixed(2)),
      heldOurs: mb(oursRuns, 'heapMb'),
      heldPeer: mb(peerRuns, 'heapMb'),
    },
  };
}

/** Where the figures come from: the size, the runs, Node, the commit (and whether packages/ differ), the load. */
export function provenance(text: string, runs: number, warmUp: number): string {
  let commit = 'unknown';
  let dirty = false;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    dirty = execFileSync('git', ['status', '--porcelain', 'packages/'], { encoding: 'utf8' }).trim() !== '';
  } catch {}
  return (
    `${(text.length / 1048576).toFixed(1)} MB; median of ${runs} interleaved runs after ${warmUp} warm-up${warmUp === 1 ? '' : 's'}, ` +
    `on Node ${process.version}, commit ${commit}${dirty ? ' with uncommitted changes in packages/' : ''}, ` +
    `load average ${loadavg()[0]?.toFixed(2)}.`
  );
}
