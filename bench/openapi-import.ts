// Run with `node --expose-gc --import tsx bench/openapi-import.ts`: the whole import of GitHub's 13 MB
// OpenAPI description (read, map to the nine-point model with its report, check the model) against
// JSON.parse of the same text, interleaved, in one run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { importOpenApi } from '../packages/openapi/src/index';

const FILE = new URL(
  '../../shared/corpus/openapi/github/api.github.com.octokit-23.0.2.json',
  import.meta.url,
);
const RESULTS = new URL('./results/', import.meta.url);
const RUNS = Number(process.env.BENCH_OPENAPI_RUNS ?? 9);
const WARM_UP = 2;

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
  if (kept === undefined) throw new Error('nothing imported');
  return { ms, peakMb, heapMb };
}

const text = readFileSync(FILE, 'utf8');
const check = importOpenApi({ text, file: 'github.json' });
if (!check.ok || !check.model || !check.report)
  throw new Error(`GitHub's document did not import cleanly: ${check.issues[0]?.message}`);
const model = check.model;
const count = (point: { shown: boolean; items?: unknown[] }) =>
  point.shown ? (point.items?.length ?? 0) : 0;
const figures = {
  entities: count(model.entities),
  embedded: model.entities.shown ? model.entities.items.filter((entity) => entity.embedded).length : 0,
  screens: count(model.screens),
  calls: count(model.calls),
  modelBytes: JSON.stringify(model).length,
  reportBytes: JSON.stringify(check.report).length,
  reportEntries: Object.values(check.report.counts).reduce((sum, n) => sum + n, 0),
  issues: check.issues.length,
};

const ours: Run[] = [];
const peer: Run[] = [];
for (let i = 0; i < RUNS + WARM_UP; i++) {
  const a = measure(() => JSON.parse(text));
  const b = measure(() => importOpenApi({ text, file: 'github.json' }).model);
  if (i < WARM_UP) continue;
  peer.push(a);
  ours.push(b);
}

const oursMs = median(ours.map((run) => run.ms));
const peerMs = median(peer.map((run) => run.ms));
const mb = (runs: Run[], key: 'peakMb' | 'heapMb') => Number(median(runs.map((run) => run[key])).toFixed(1));
let commit = 'unknown';
let dirty = false;
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  dirty = execFileSync('git', ['status', '--porcelain', 'packages/'], { encoding: 'utf8' }).trim() !== '';
} catch {}
const result = {
  metric:
    "import GitHub's OpenAPI description (13 MB JSON, 1,223 operations): read, map to the nine-point model with its import report, check the model",
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
  model: figures,
  notes:
    `${(text.length / 1048576).toFixed(1)} MB; median of ${RUNS} interleaved runs after ${WARM_UP} warm-ups, on Node ${process.version}, ` +
    `commit ${commit}${dirty ? ' with uncommitted changes in packages/' : ''}, load average ${loadavg()[0]?.toFixed(2)}. ` +
    `The model has ${figures.entities} entities (${figures.embedded} embedded), ${figures.screens} screens and ${figures.calls} calls ` +
    `(${(figures.modelBytes / 1048576).toFixed(1)} MB as JSON); the report ${figures.reportEntries} entries ` +
    `(${(figures.reportBytes / 1048576).toFixed(1)} MB). Goal: ratio <= 3.`,
};
mkdirSync(RESULTS, { recursive: true });
writeFileSync(new URL('openapi-import-github.json', RESULTS), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
