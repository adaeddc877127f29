// The shop's dashboard figures (issue 21) on a million orders, on SQLite and on PostgreSQL: the p99 of
// the prototype API's figures call (GET /api/_figures/dashboard/…), computed in SQL under the role's
// conditions, against the same GROUP BY sent straight to the database through its driver (no HTTP, no
// sign-in, no permissions: what the database alone takes). Each of our calls is made cold: a write to an
// order through the API comes first, so the server's remembered figures are forgotten; the warm p99 (the
// same call again) is reported beside it. Written to bench/results/figures-sqlite.json and
// figures-postgres.json.
//
//   npx tsx bench/figures.ts   BENCH_FIGURES_ROWS (default 1,000,000), BENCH_FIGURES_ROUNDS (default 20 a figure),
//                              BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SKIP_POSTGRES=1,
//                              BENCH_SKIP_SQLITE=1
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshPostgres, serveForBench, withPostgres } from './support/child-servers';
import { cleanUp, cleanups } from './support/clean-up';
import { median, percentile, RESULTS_DIR } from './support/figures';
import { fillOrders, fillPostgresOrders } from './support/fill-orders';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = join(ROOT, 'examples/shop.yaml');
const ROWS = Number(process.env.BENCH_FIGURES_ROWS ?? 1_000_000);
const CUSTOMERS = Math.max(10, Math.floor(ROWS / 100));
const ROUNDS = Number(process.env.BENCH_FIGURES_ROUNDS ?? 20);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOAD_AT_START = loadavg().map((value) => Math.round(value * 100) / 100);

const PAID = `"status" IN ('paid', 'shipped', 'delivered')`;
/** The shop's figures (examples/shop.yaml), each as the GROUP BY a person would write for it by hand. */
const FIGURES: Record<string, { sqlite: string; postgres: string }> = {
  revenue: same(`SELECT COALESCE(SUM("total"), 0) FROM "Order" WHERE ${PAID}`),
  averageOrder: same(`SELECT AVG("total") FROM "Order" WHERE "status" <> 'cancelled'`),
  ordersByStatus: same(`SELECT "status", COUNT(*) FROM "Order" GROUP BY 1`),
  revenueByMonth: same(
    `SELECT substr("placedOn", 1, 7) || '-01', COALESCE(SUM("total"), 0) FROM "Order" WHERE ${PAID} GROUP BY 1`,
  ),
  revenueByCustomer: same(
    `SELECT "customer", COALESCE(SUM("total"), 0) FROM "Order" WHERE ${PAID} GROUP BY 1`,
  ),
};

function same(sql: string) {
  return { sqlite: sql, postgres: sql };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function ask(url: string, headers: Record<string, string>): Promise<unknown> {
  const answer = await fetch(url, { headers });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

/** A write to an order through the API, so that the figures remembered of orders are forgotten. */
async function touch(server: { url: string; headers: Record<string, string> }, round: number) {
  const read = await fetch(`${server.url}/api/orders/1`, { headers: server.headers });
  const etag = read.headers.get('etag');
  if (!read.ok || !etag) throw new Error(`reading order 1 answered ${read.status}`);
  const answer = await fetch(`${server.url}/api/orders/1`, {
    method: 'PATCH',
    headers: { ...server.headers, 'content-type': 'application/json', 'if-match': etag },
    body: JSON.stringify({ notes: `bench ${round}` }),
  });
  if (!answer.ok) throw new Error(`touching order 1 answered ${answer.status}: ${await answer.text()}`);
}

async function measure(
  side: 'sqlite' | 'postgres',
  server: { url: string; headers: Record<string, string> },
  direct: (sql: string) => Promise<unknown>,
) {
  const cold: number[] = [];
  const warm: number[] = [];
  const peer: number[] = [];
  const perFigure: Record<string, { cold: number; warm: number; peer: number }> = {};
  // One of each first: the database's pages are read once into its cache for both sides alike.
  for (const [name, sql] of Object.entries(FIGURES)) {
    await ask(`${server.url}/api/_figures/dashboard/${name}`, server.headers);
    await direct(sql[side]);
  }
  for (const [name, sql] of Object.entries(FIGURES)) {
    const mine = { cold: [] as number[], warm: [] as number[], peer: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      await touch(server, round);
      const url = `${server.url}/api/_figures/dashboard/${name}`;
      const pair = [
        async () => mine.cold.push(await timed(() => ask(url, server.headers))),
        async () => mine.peer.push(await timed(() => direct(sql[side]))),
      ];
      for (const run of round % 2 === 0 ? pair : pair.reverse()) await run();
      mine.warm.push(await timed(() => ask(url, server.headers)));
    }
    cold.push(...mine.cold);
    warm.push(...mine.warm);
    peer.push(...mine.peer);
    const p99 = (values: number[]) => Math.round(percentile(values, 99) * 10) / 10;
    perFigure[name] = { cold: p99(mine.cold), warm: p99(mine.warm), peer: p99(mine.peer) };
  }
  const round1 = (value: number) => Math.round(value * 10) / 10;
  const result = {
    metric: `p99 of the dashboard's figures calls on ${ROWS.toLocaleString('en')} orders, ${side}, cold`,
    ours: round1(percentile(cold, 99)),
    peer: round1(percentile(peer, 99)),
    peerName: 'the same GROUP BY sent straight to the database through its driver',
    ratio: percentile(cold, 99) / percentile(peer, 99),
    unit: 'ms',
    warmP99: round1(percentile(warm, 99)),
    medians: { cold: round1(median(cold)), warm: round1(median(warm)), peer: round1(median(peer)) },
    perFigure,
    goal: 'p99 under 100 ms (issue 21)',
    notes:
      `GET /api/_figures/dashboard/{revenue, averageOrder, ordersByStatus, revenueByMonth, revenueByCustomer} signed in as the owner, from ninefold serve on ${side} holding ${ROWS.toLocaleString('en')} orders of ${CUSTOMERS.toLocaleString('en')} customers; ` +
      `${ROUNDS} rounds a figure, each after a write to an order through the API (so the server's remembered figures are forgotten: cold), our call and the driver's alternating which goes first; then the same call again (warm). Lower is better; ratio = ours (cold) / peer.`,
    rows: ROWS,
    rounds: ROUNDS,
    node: process.version,
    cpus: cpus().length,
    date: new Date().toISOString(),
    loadAverage: { start: LOAD_AT_START, end: loadavg().map((value) => Math.round(value * 100) / 100) },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `figures-${side}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `${result.metric}: ours ${result.ours} ms (warm ${result.warmP99} ms), driver ${result.peer} ms; by figure ${JSON.stringify(perFigure)}`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-figures-bench-'));
  cleanups.push({ name: 'remove the database', run: () => rmSync(dir, { recursive: true, force: true }) });
  if (process.env.BENCH_SKIP_SQLITE !== '1') await onSqlite(join(dir, 'figures.db'));
  if (process.env.BENCH_SKIP_POSTGRES !== '1')
    await onPostgres(new URL(await freshPostgres(PG_ADMIN_URL, 'figures')));
}

async function onSqlite(file: string): Promise<void> {
  process.stdout.write(`filling ${ROWS.toLocaleString('en')} orders into SQLite… `);
  console.log(`${(await fillOrders(SPEC, file, ROWS, CUSTOMERS)).toFixed(1)} s`);
  const sqlite = await serveForBench(SPEC, file);
  const Database = require('better-sqlite3') as new (
    file: string,
    options: { readonly: boolean },
  ) => { prepare(sql: string): { all(): unknown[] }; close(): void };
  const db = new Database(file, { readonly: true });
  cleanups.push({ name: 'close the driver', run: () => db.close() });
  await measure('sqlite', sqlite, async (sql) => db.prepare(sql).all());
  await sqlite.stop();
}

async function onPostgres(url: URL): Promise<void> {
  process.stdout.write(`filling ${ROWS.toLocaleString('en')} orders into PostgreSQL… `);
  console.log(`${(await fillPostgresOrders(SPEC, url.toString(), ROWS, CUSTOMERS)).toFixed(1)} s`);
  const postgres = await serveForBench(SPEC, url.toString());
  await withPostgres(url.toString(), (query) => measure('postgres', postgres, query));
  await postgres.stop();
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
