// Run with `node --expose-gc --import tsx bench/openapi-read.ts`: reading GitHub's 13 MB OpenAPI description
// (parse, bundle, check every reference) against JSON.parse of the same text, interleaved, in one run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { readOpenApi } from '../packages/openapi/src/index';

const FILE = new URL(
  '../../shared/corpus/openapi/github/api.github.com.octokit-23.0.2.json',
  import.meta.url,
);
const RESULTS = new URL('./results/', import.meta.url);
const RUNS = Number(process.env.BENCH_OPENAPI_RUNS ?? 9);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.warn('run with --expose-gc for the memory figures');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

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
  if (kept === undefined) throw new Error('nothing read');
  return { ms, peakMb, heapMb };
}

const text = readFileSync(FILE, 'utf8');
const check = readOpenApi({ text, file: 'github.json' });
if (!check.ok) throw new Error(`GitHub's document did not read cleanly: ${check.issues[0]?.message}`);

const ours: Run[] = [];
const peer: Run[] = [];
for (let i = 0; i < RUNS + 1; i++) {
  const a = measure(() => JSON.parse(text));
  const b = measure(() => readOpenApi({ text, file: 'github.json' }).document);
  if (i === 0) continue; // warm-up
  peer.push(a);
  ours.push(b);
}

const oursMs = median(ours.map((run) => run.ms));
const peerMs = median(peer.map((run) => run.ms));
const mb = (runs: Run[], key: 'peakMb' | 'heapMb') => Number(median(runs.map((run) => run[key])).toFixed(1));
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {}
const result = {
  metric: "read GitHub's OpenAPI description (13 MB JSON, 1,223 operations) into one bundled 3.x document",
  ours: oursMs,
  peer: peerMs,
  peerName: 'JSON.parse of the same text',
  ratio: oursMs / peerMs,
  unit: 'ms',
  memory: {
    unit: 'MB of heap (process.memoryUsage().heapUsed, --expose-gc), median',
    peakOurs: mb(ours, 'peakMb'),
    peakPeer: mb(peer, 'peakMb'),
    peakRatio: Number((mb(ours, 'peakMb') / mb(peer, 'peakMb')).toFixed(2)),
    heldOurs: mb(ours, 'heapMb'),
    heldPeer: mb(peer, 'heapMb'),
  },
  notes: `${(text.length / 1048576).toFixed(1)} MB; median of ${RUNS} interleaved runs after one warm-up, on Node ${process.version}, commit ${commit}, load average ${loadavg()[0]?.toFixed(2)}. Goal: ratio <= 3.`,
};
mkdirSync(RESULTS, { recursive: true });
writeFileSync(new URL('openapi-read-github.json', RESULTS), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
