// The playground's storage, chosen by measurement (issue 23): its API in the tab keeps records in memory
// and runs the prototype API's rules over them (packages/web/src/playground/tab-api.ts). The other choice
// was SQLite compiled to WebAssembly; sql.js (installed on first use into bench/.peers/sql-wasm/) stands
// for it, in Node, on the same records. Run by hand:
//
//   npx tsx bench/playground-storage.ts
//
// For the rich example's orders at BENCH_STORAGE_COUNTS (default 12, as the playground seeds, 1,000 and
// 10,000 of each entity):
// - a list page as the client asks it: placed orders, newest first, 25 a page, with the total;
// - reading one order by its key;
// and the bytes each choice adds to the page: sql.js's WebAssembly file, gzipped, against nothing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { ApiDescription } from '@ninefold/model';
import { describeApi, loadSpec, type Model } from '@ninefold/model';
import { seedRecords } from '../packages/web/src/playground/seed-records';
import { createTabApi } from '../packages/web/src/playground/tab-api';
import { installPeer, versionIn } from './client-peers';
import { median, RESULTS_DIR } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const COUNTS = (process.env.BENCH_STORAGE_COUNTS ?? '12,1000,10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS ?? 200);

interface SqlDatabase {
  run(sql: string, params?: unknown[]): void;
  prepare(sql: string): {
    bind(params: unknown[]): void;
    step(): boolean;
    get(): unknown[];
    reset(): void;
    free(): void;
  };
  exec(sql: string): Array<{ values: unknown[][] }>;
  close(): void;
}

function shop(): Model {
  const file = join(ROOT, 'examples/shop.md');
  const loaded = loadSpec(readFileSync(file, 'utf8'), { file });
  if (!loaded.model) throw new Error('examples/shop.md must load');
  return loaded.model;
}

function timed(rounds: number, work: () => unknown): number {
  for (let i = 0; i < 5; i++) work();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function timedAsync(rounds: number, work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function main(): Promise<void> {
  const peerDir = await installPeer('sql-wasm');
  const require = createRequire(join(peerDir, 'package.json'));
  const initSqlJs = require('sql.js') as (options?: unknown) => Promise<{ Database: new () => SqlDatabase }>;
  const SQL = await initSqlJs();
  const wasm = readFileSync(join(peerDir, 'node_modules/sql.js/dist/sql-wasm.wasm'));
  const model = shop();
  const api = { ...describeApi(model), base: '/api' } as ApiDescription;
  const rows: Array<Record<string, unknown>> = [];
  for (const count of COUNTS) {
    const seeded = seedRecords(model, count);
    const orders = seeded.Order ?? [];
    // Ours: the tab's API as the owner, the records seeded as the playground seeds them.
    const tab = createTabApi(model, api, seeded, { principal: () => ({ role: 'owner', user: { id: 'o' } }) });
    const list = () =>
      tab.list({
        entity: 'Order',
        filters: [{ field: 'status', op: 'eq', value: 'placed' }],
        sort: [{ field: 'placedOn', direction: 'desc' }],
        page: { style: 'page', page: 1, size: 25 },
      });
    const first = await list();
    // The peer: the same orders in SQLite (sql.js), the fields the list reads as columns with indexes,
    // the whole record as JSON, the page and its total read as the prototype API reads them.
    const db = new SQL.Database();
    db.run('CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT, placedOn TEXT, record TEXT NOT NULL)');
    db.run('CREATE INDEX orders_status ON orders (status, placedOn)');
    db.run('BEGIN');
    for (const [index, order] of orders.entries()) {
      db.run('INSERT INTO orders VALUES (?, ?, ?, ?)', [
        index + 1,
        order.status ?? null,
        order.placedOn ?? null,
        JSON.stringify(order),
      ]);
    }
    db.run('COMMIT');
    const page = db.prepare(
      'SELECT record FROM orders WHERE status = ? ORDER BY placedOn DESC, id LIMIT 25 OFFSET 0',
    );
    const total = db.prepare('SELECT count(*) FROM orders WHERE status = ?');
    const sqlList = () => {
      const items: unknown[] = [];
      page.bind(['placed']);
      while (page.step()) items.push(JSON.parse(page.get()[0] as string));
      page.reset();
      total.bind(['placed']);
      total.step();
      const count = total.get()[0];
      total.reset();
      return { items, count };
    };
    const peerFirst = sqlList();
    if (peerFirst.items.length !== first.items.length || peerFirst.count !== first.total) {
      throw new Error(
        `the two sides disagree: ${first.items.length} of ${first.total} against ${peerFirst.items.length} of ${String(peerFirst.count)}`,
      );
    }
    const byKey = db.prepare('SELECT record FROM orders WHERE id = ?');
    const sqlGet = () => {
      byKey.bind([Math.ceil(orders.length / 2)]);
      byKey.step();
      const record = JSON.parse(byKey.get()[0] as string);
      byKey.reset();
      return record;
    };
    const listOurs = await timedAsync(ROUNDS, list);
    const listPeer = timed(ROUNDS, sqlList);
    const getOurs = await timedAsync(ROUNDS, () =>
      tab.get({ entity: 'Order', id: String(Math.ceil(orders.length / 2)) }),
    );
    const getPeer = timed(ROUNDS, sqlGet);
    page.free();
    total.free();
    byKey.free();
    db.close();
    rows.push({
      records: count,
      listMs: { ours: round3(listOurs), peer: round3(listPeer), ratio: listOurs / listPeer },
      getMs: { ours: round3(getOurs), peer: round3(getPeer), ratio: getOurs / getPeer },
    });
    console.log(
      `${count} orders: list ours ${round3(listOurs)} ms, sql.js ${round3(listPeer)} ms; get ours ${round3(getOurs)} ms, sql.js ${round3(getPeer)} ms`,
    );
  }
  const largest = rows.at(-1) as { listMs: { ours: number; peer: number; ratio: number } };
  const result = {
    metric:
      'a list page of the rich example’s orders in the playground’s API in the tab, against SQLite compiled to WebAssembly',
    ours: largest.listMs.ours,
    peer: largest.listMs.peer,
    peerName: `sql.js ${versionIn(peerDir, 'sql.js')} (SQLite compiled to WebAssembly), in Node`,
    ratio: largest.listMs.ratio,
    unit: 'ms',
    byCount: rows,
    pageBytes: {
      oursKiB: 0,
      peerWasmKiB: Math.round(gzipSync(wasm, { level: 9 }).length / 102.4) / 10,
      note: "sql.js's sql-wasm.wasm gzipped, before its JavaScript glue and a store of ours over it; the in-memory store is code the tab's API has anyway (the client's memory data interface)",
    },
    notes:
      `Median of ${ROUNDS} calls after 5 warm-up calls, in one Node process. Records: seedRecords(shop, N), as the playground seeds them ` +
      '(N of each entity). Ours: createTabApi(...).list, signed in as the owner, placed orders newest first, page 1 of 25 with the total, ' +
      'the permission rules of point 6 asked of each record, the fields the role may read presented; .get the same. Peer: the same orders ' +
      'in a sql.js database, status and placedOn as indexed columns and the record as JSON, SELECT of the page and of count(*) through ' +
      'prepared statements, rows parsed from JSON; a lookup by primary key. The peer checks no permission and presents nothing: a floor.',
    goal: 'in memory while a list page at the sizes the playground holds (12 seeded, and 1,000 of each entity) takes under one frame (16 ms); SQLite in WebAssembly otherwise',
    goalMet: rows.every(
      (row) =>
        (row as { records: number; listMs: { ours: number } }).records > 1_000 ||
        (row as { listMs: { ours: number } }).listMs.ours < 16,
    ),
    date: new Date().toISOString(),
    node: process.version,
  };
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}playground-storage.json`, `${JSON.stringify(result, null, 2)}\n`);
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exitCode = 1;
});
