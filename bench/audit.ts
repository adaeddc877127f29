// The audit trail's cost on writes: the shop's product create with every write recorded (the default)
// against `--no-audit`, side by side in one run on each database, written to
// bench/results/audit-create-{sqlite,postgres}.json. Goal: on ≤ 1.2x off, in throughput and in p99.
//
// Run with `node --import tsx bench/audit.ts`. Environment: BENCH_ROUNDS (default 5), BENCH_SECONDS (the
// measured seconds of each run, default 8; the suite's smoke run: 1), BENCH_SKIP_POSTGRES=1, BENCH_PG_URL.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AutocannonResult, autocannon, loadLength } from './support/autocannon';
import { freshPostgres, signInAsOwner, startServe } from './support/child-servers';
import { cleanUp, cleanups } from './support/clean-up';
import { median, RESULTS_DIR } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = join(ROOT, 'examples/shop.yaml');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = 10;
const GOAL = 1.2;

interface Side {
  name: 'on' | 'off';
  url: string;
  headers: Record<string, string>;
  next: () => Record<string, unknown>;
  rps: number[];
  p99: number[];
}

/** New, valid, distinct products: each side its own SKUs, so that neither meets the other's. */
function products(prefix: string): () => Record<string, unknown> {
  let counter = 0;
  return () => {
    counter++;
    return {
      sku: `${prefix}-${String(counter).padStart(6, '0')}`,
      name: `Audited part ${counter}`,
      category: 'engine',
      price: (counter % 100_000) / 100,
      stock: counter % 500,
    };
  };
}

async function start(name: Side['name'], db: string): Promise<Side> {
  const server = await startServe(SPEC, db, [
    '--user',
    'owner@demo.test:owner',
    '--log-level',
    'silent',
    ...(name === 'off' ? ['--no-audit'] : []),
  ]);
  const headers = await signInAsOwner(`serve (audit ${name})`, server.url, server.output);
  return {
    name,
    url: server.url,
    headers: { ...headers, 'content-type': 'application/json' },
    next: products(name === 'on' ? 'AUD' : 'NOA'),
    rps: [],
    p99: [],
  };
}

async function run(side: Side, seconds: number): Promise<AutocannonResult> {
  const result = await autocannon({
    url: side.url,
    connections: CONNECTIONS,
    ...loadLength(seconds),
    requests: [
      {
        method: 'POST',
        path: '/api/products',
        headers: side.headers,
        setupRequest: (request) => ({ ...request, body: JSON.stringify(side.next()) }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors + result.timeouts > 0) {
    throw new Error(`audit ${side.name}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return result;
}

async function measure(database: 'sqlite' | 'postgres', dbOf: (name: string) => Promise<string>) {
  const sides = [await start('on', await dbOf('on')), await start('off', await dbOf('off'))];
  for (let round = 0; round < ROUNDS; round++) {
    // The order flips each round, so that drift in the machine's load falls on both.
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      await run(side, 1);
      const measured = await run(side, SECONDS);
      side.rps.push(measured.requests.average);
      side.p99.push(measured.latency.p99);
      console.log(
        `${database} round ${round + 1} audit ${side.name}: ${Math.round(measured.requests.average)} creates/s`,
      );
    }
  }
  const [on, off] = sides as [Side, Side];
  const ours = median(on.rps);
  const peer = median(off.rps);
  const p99On = median(on.p99);
  const p99Off = median(off.p99);
  const ratio = peer / ours;
  const p99Ratio = p99Off === 0 ? 0 : p99On / p99Off;
  const figure = {
    metric: `create a product on ${database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, every write recorded in the audit trail, against none`,
    ours,
    peer,
    peerName: 'the same server with --no-audit',
    ratio,
    unit: 'creates/s',
    oursP99Ms: p99On,
    peerP99Ms: p99Off,
    p99Ratio,
    goal: `ratio <= ${GOAL} in throughput and in p99`,
    met: ratio <= GOAL && p99Ratio <= GOAL,
    notes: `POST /api/products as the owner, each request a new product; ${CONNECTIONS} connections, a 1 s warm-up then ${SECONDS} s, median of ${ROUNDS} interleaved rounds; request logs off on both. Load average at the end: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}.`,
    rounds: { ours: on.rps, peer: off.rps },
  };
  writeFileSync(join(RESULTS_DIR, `audit-create-${database}.json`), `${JSON.stringify(figure, null, 2)}\n`);
  console.log(
    `${database}: audit on ${Math.round(ours)}/s p99 ${p99On} ms, off ${Math.round(peer)}/s p99 ${p99Off} ms: ratio ${ratio.toFixed(3)}, p99 ${p99Ratio.toFixed(2)} (goal ≤ ${GOAL})`,
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-audit-'));
  cleanups.push({ name: 'remove the databases', run: () => rmSync(dir, { recursive: true, force: true }) });
  await measure('sqlite', async (name) => join(dir, `${name}.db`));
  if (process.env.BENCH_SKIP_POSTGRES !== '1') {
    await measure('postgres', (name) => freshPostgres(PG_ADMIN_URL, `audit_${name}`));
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
