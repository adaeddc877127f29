// The request log's cost: the shop's list with every request logged (`--log-level info`, a JSON line to a
// pipe this process reads, as a supervisor does) against no log (`silent`), side by side in one run,
// written to bench/results/logs-list-sqlite.json. Goal: logs on ≤ 1.1x the time of logs off.
//
// Run with `node --import tsx bench/logs.ts`. Environment: BENCH_ROUNDS (default 5), BENCH_SECONDS (the
// measured seconds of each run, default 8; the suite's smoke run: 1), BENCH_SEED (records, default 1000).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AutocannonResult, autocannon, loadLength } from './support/autocannon';
import { signInAsOwner, startServe } from './support/child-servers';
import { cleanUp, cleanups } from './support/clean-up';
import { median, RESULTS_DIR } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = join(ROOT, 'examples/shop.yaml');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const SEED = Number(process.env.BENCH_SEED ?? 1000);
const CONNECTIONS = 10;
const LIST = '/api/products?page=2&limit=50';
const GOAL = 1.1;

interface Side {
  level: 'info' | 'silent';
  url: string;
  headers: Record<string, string>;
  output: () => string;
  rps: number[];
  p99: number[];
}

async function start(level: Side['level'], dir: string): Promise<Side> {
  const server = await startServe(SPEC, join(dir, `${level}.db`), [
    '--seed',
    String(SEED),
    '--log-level',
    level,
  ]);
  const headers = await signInAsOwner(`serve --log-level ${level}`, server.url, server.output);
  return { level, url: server.url, headers, output: server.output, rps: [], p99: [] };
}

async function run(side: Side, seconds: number): Promise<AutocannonResult> {
  const result = await autocannon({
    url: side.url,
    connections: CONNECTIONS,
    ...loadLength(seconds),
    requests: [{ method: 'GET', path: LIST, headers: side.headers }],
  });
  if (result.non2xx > 0 || result.errors + result.timeouts > 0) {
    throw new Error(`${side.level}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return result;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-logs-'));
  cleanups.push({ name: 'remove the databases', run: () => rmSync(dir, { recursive: true, force: true }) });
  const sides = [await start('info', dir), await start('silent', dir)];
  for (let round = 0; round < ROUNDS; round++) {
    // The order flips each round, so that drift in the machine's load falls on both.
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      await run(side, 1);
      const measured = await run(side, SECONDS);
      side.rps.push(measured.requests.average);
      side.p99.push(measured.latency.p99);
      console.log(`round ${round + 1} ${side.level}: ${Math.round(measured.requests.average)} req/s`);
    }
  }
  const [logged, quiet] = sides as [Side, Side];
  // The logging side did write its lines: a run that logged nothing would measure nothing.
  const lines = logged
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request"')).length;
  if (lines === 0) throw new Error('the logging server wrote no request line');
  if (quiet.output().includes('"msg":"request"')) throw new Error('the silent server logged requests');
  const ours = median(logged.rps);
  const peer = median(quiet.rps);
  const ratio = peer / ours;
  const figure = {
    metric: 'list a page of 50 of 1000 products on SQLite, every request logged, against no log',
    ours,
    peer,
    peerName: 'the same server with --log-level silent',
    ratio,
    unit: 'req/s',
    goal: `ratio <= ${GOAL} (the time per request with logs, over without)`,
    met: ratio <= GOAL,
    oursP99Ms: median(logged.p99),
    peerP99Ms: median(quiet.p99),
    notes: `GET ${LIST} as the owner, ${CONNECTIONS} connections, a 1 s warm-up then ${SECONDS} s, median of ${ROUNDS} interleaved rounds; both servers seeded with --seed ${SEED}; the logging server's standard output is a pipe this process reads, as a supervisor's. Load average at the end: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}.`,
    rounds: { ours: logged.rps, peer: quiet.rps },
  };
  writeFileSync(join(RESULTS_DIR, 'logs-list-sqlite.json'), `${JSON.stringify(figure, null, 2)}\n`);
  console.log(
    `logs on: ${Math.round(ours)} req/s, off: ${Math.round(peer)} req/s, ratio ${ratio.toFixed(3)} (goal ≤ ${GOAL})`,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
