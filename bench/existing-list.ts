// Run with `node --import tsx bench/existing-list.ts`: a list page of a team's own PostgreSQL table of
// 1,000,000 rows with a key of two columns (issue 44), served in place by `serve` as the import describes
// it, against the same page read through the driver (`pg`), interleaved in one run. Two driver figures:
// the page alone (the peer: the API reads its pages fresh, and remembers the total until a write is
// seen), and the page with its total counted each time (what the API did before it remembered it).

import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { importDatabase } from '@ninefold/database';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app';
import { openStore } from '../packages/server/src/store/open-store';
import { createTemporaryDatabase } from '../packages/server/test/support/databases';
import { median, percentile, RESULTS_DIR } from './support/figures';

const ROWS = Number(process.env.BENCH_EXISTING_ROWS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_EXISTING_REQUESTS ?? 400);
const PAGES = 20;
const SIZE = 50;

const database = await createTemporaryDatabase('bench_existing');
try {
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const filling = performance.now();
  await admin.query(`
    CREATE TABLE readings (
      sensor_id integer NOT NULL,
      taken_at timestamptz NOT NULL,
      value numeric(8, 2) NOT NULL,
      note text,
      PRIMARY KEY (sensor_id, taken_at)
    );
    INSERT INTO readings
      SELECT s, timestamptz '2026-01-01' + make_interval(mins => m), round((random() * 100)::numeric, 2), NULL
      FROM generate_series(1, ${Math.max(1, Math.ceil(ROWS / 1000))}) s, generate_series(1, ${Math.min(1000, ROWS)}) m
      LIMIT ${ROWS};
    ANALYZE readings;
  `);
  const fillSeconds = (performance.now() - filling) / 1000;
  await admin.end();

  const imported = await importDatabase(database.url);
  if (!imported.result.model) throw new Error('the import gave no model');
  const model = imported.result.model;
  const store = await openStore({ model, url: database.url });
  const migrated = await store.migrate({ allowDestructive: false });
  if (!migrated.ok) throw new Error('the store refused the tables');
  const app = await buildApp({ model, store });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const pageSql = `SELECT sensor_id, taken_at, value, note FROM readings ORDER BY sensor_id, taken_at LIMIT ${SIZE} OFFSET $1`;
  const withTotal = `SELECT sensor_id, taken_at, value, note, (SELECT COUNT(*) FROM readings) AS total FROM readings ORDER BY sensor_id, taken_at LIMIT ${SIZE} OFFSET $1`;

  const ours: number[] = [];
  const driver: number[] = [];
  const driverWithTotal: number[] = [];
  const time = async (into: number[], work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    into.push(performance.now() - started);
  };
  // Warm-up of each: the first reads fill PostgreSQL's buffers and the server's prepared paths.
  for (let i = 0; i < 20; i++) {
    await fetch(`${address}/api/readings?page=${(i % PAGES) + 1}&limit=${SIZE}`).then((r) => r.arrayBuffer());
    await pool.query(withTotal, [(i % PAGES) * SIZE]);
  }
  for (let i = 0; i < REQUESTS; i++) {
    const page = i % PAGES;
    await time(ours, async () => {
      const answer = await fetch(`${address}/api/readings?page=${page + 1}&limit=${SIZE}`);
      if (!answer.ok) throw new Error(`the list answered ${answer.status}`);
      const body = (await answer.json()) as { items: unknown[] };
      if (body.items.length !== Math.min(SIZE, Math.max(0, ROWS - page * SIZE)))
        throw new Error('a short page');
    });
    await time(driver, () => pool.query(pageSql, [page * SIZE]));
    await time(driverWithTotal, () => pool.query(withTotal, [page * SIZE]));
  }
  await app.close();
  await store.close();
  await pool.end();

  const p99 = (values: number[]) => Math.round(percentile(values, 99) * 10) / 10;
  const result = {
    metric: `p99 of a list page of ${SIZE} of a team's PostgreSQL table of ${ROWS.toLocaleString('en')} rows with a key of two columns, served in place, against the same page through the driver`,
    unit: 'ms',
    ours: p99(ours),
    peer: p99(driver),
    peerName: 'pg (node-postgres), the same page in one query on one connection',
    ratio: percentile(ours, 99) / percentile(driver, 99),
    driverWithTotalP99Ms: p99(driverWithTotal),
    ratioToDriverWithTotal: percentile(ours, 99) / percentile(driverWithTotal, 99),
    p50Ms: {
      ours: Math.round(median(ours) * 10) / 10,
      driverWithTotal: Math.round(median(driverWithTotal) * 10) / 10,
      driverPageOnly: Math.round(median(driver) * 10) / 10,
    },
    requests: REQUESTS,
    rows: ROWS,
    fillSeconds: Math.round(fillSeconds * 10) / 10,
    notes: `GET /api/readings?page=N&limit=${SIZE} over pages 1-${PAGES}, one request at a time over HTTP on 127.0.0.1, interleaved with the driver's queries on one connection, after 20 warm-up reads of each. Ours reads each page fresh (a team's table has other writers), ordered by the key's two columns (the primary key's index), answers its total (the conventional list call names one) as counted once and remembered until a write is seen (ours, or another program's, which the watcher of outside writes tells within about a second), and presents each record with its key text over HTTP. driverWithTotal counts the million rows with every page, as the API did before it remembered the total. Node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} at the end.`,
    date: new Date().toISOString(),
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}existing-list-1m-postgres.json`, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
} finally {
  await database.drop();
}
