// Rules across records on a big table, side by side in one run, written to bench/results/record-rules-*.json:
//
// - a create of a ticket guarded by `count(Ticket, t, t.customer == record.customer && t.status == "open")
//   < MAX_OPEN_TICKETS` (the helpdesk fixture), against the same create with the rules of point 5 left out,
//   on a table of 1,000,000 tickets, one request at a time (p50 and p99);
// - a page of 50 (with its total) of the tickets a permission condition `record.customer == user.customerId`
//   lets a person read, as SQL (what the API does now), against the batch scan through CEL it did before.
//
// Run with `npx tsx bench/record-rules.ts` (about two minutes; needs PostgreSQL unless BENCH_SKIP_POSTGRES=1).
// BENCH_ROWS (default 1,000,000), BENCH_CREATES (default 300 of each), BENCH_DIALECTS (sqlite,postgres),
// BENCH_PG_URL as in bench/api.ts.
// The test suite runs it with 2,000 rows and 5 creates (`smoke`), asserting nothing about time.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  columnKindOf,
  conditionAsData,
  evaluateExpression,
  expressionEnvironment,
  findEntity,
  loadSpec,
  type Model,
} from '@ninefold/model';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app';
import { KyselyStore } from '../packages/server/src/store/kysely-store';
import { openStore } from '../packages/server/src/store/open-store';
import type { Store, StoredRecord } from '../packages/server/src/store/store';
import { median, percentile } from './support/figures';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RESULTS = fileURLToPath(new URL('./results/', import.meta.url));
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CUSTOMERS = 1000;
const SCAN_BATCH = 500;
const PERMISSION = 'record.customer == user.customerId';

export interface RunOptions {
  rows: number;
  creates: number;
  dialects: Array<'sqlite' | 'postgres'>;
  /** Write bench/results; the smoke run does not. */
  write: boolean;
  log: (line: string) => void;
}

export interface DialectFigures {
  dialect: 'sqlite' | 'postgres';
  rows: number;
  create: { withRule: Latency; withoutRule: Latency; p99Ratio: number };
  list: { sql: Latency; scan: Latency; speedup: number; total: number };
}

interface Latency {
  p50: number;
  p99: number;
  samples: number;
}

// Read once: a long run must measure one specification throughout.
const HELPDESK = readFileSync(join(ROOT, 'packages/model/test/fixtures/helpdesk.md'), 'utf8');

function helpdesk(withRules: boolean): Model {
  const text = HELPDESK;
  const result = loadSpec(text, { file: 'helpdesk.md' });
  if (!result.ok || !result.model) throw new Error('the helpdesk fixture must load');
  const model = structuredClone(result.model);
  if (!withRules && model.validation.shown) model.validation.rules = [];
  return model;
}

export async function run(options: RunOptions): Promise<DialectFigures[]> {
  const figures: DialectFigures[] = [];
  for (const dialect of options.dialects) {
    const target = await openTarget(dialect);
    try {
      const figure = await measure(dialect, target.url, options);
      figures.push(figure);
      // Written as soon as measured: a later side that fails keeps this one's figures.
      if (options.write) writeResults([figure], options);
    } finally {
      await target.drop();
    }
  }
  return figures;
}

async function openTarget(dialect: 'sqlite' | 'postgres'): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-rules-'));
    return {
      url: `sqlite:${join(dir, 'rules.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `nf_bench_rules_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      // Without FORCE: terminating a connection the store's pool still holds would crash the run.
      await admin.query(`drop database if exists "${name}"`).catch((error: Error) => {
        console.warn(`could not drop ${name}: ${error.message}`);
      });
      await admin.end();
    },
  };
}

async function measure(
  dialect: 'sqlite' | 'postgres',
  url: string,
  options: RunOptions,
): Promise<DialectFigures> {
  const model = helpdesk(true);
  const store = await openStore({ model, url });
  try {
    const migrated = await store.migrate({ allowDestructive: false });
    if (!migrated.ok) throw new Error('the helpdesk tables could not be made');
    const started = performance.now();
    await fill(store, dialect, options.rows);
    options.log(
      `${dialect}: ${options.rows.toLocaleString('en')} tickets in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    // The same store under two APIs: one with the rules of point 5, one without; creates alternate.
    const withRules = await buildApp({ model, store });
    const withoutRules = await buildApp({ model: helpdesk(false), store });
    const timings = { withRule: [] as number[], withoutRule: [] as number[] };
    const warmUp = Math.min(20, options.creates);
    for (let index = 0; index < warmUp + options.creates; index++) {
      const order: Array<['withRule' | 'withoutRule', typeof withRules]> =
        index % 2 === 0
          ? [
              ['withRule', withRules],
              ['withoutRule', withoutRules],
            ]
          : [
              ['withoutRule', withoutRules],
              ['withRule', withRules],
            ];
      for (const [side, app] of order) {
        // A customer of the 1,000 seeded ones, each with hundreds of tickets (a third of them open).
        const customer = 1 + ((index * 7919 + (side === 'withRule' ? 0 : 1)) % CUSTOMERS);
        const begin = performance.now();
        const answer = await app.inject({
          method: 'POST',
          url: '/api/tickets',
          payload: { customer, subject: `Bench ${index}` },
        });
        const took = performance.now() - begin;
        // With the rule most customers are over the limit: a refusal is the work the rule does.
        const expected = side === 'withRule' ? [201, 422] : [201];
        if (!expected.includes(answer.statusCode)) {
          throw new Error(`${side} create answered ${answer.statusCode}: ${answer.body.slice(0, 300)}`);
        }
        if (index >= warmUp) timings[side].push(took);
      }
    }
    await withRules.close();
    await withoutRules.close();

    const list = await measureList(model, store);
    const create = {
      withRule: latency(timings.withRule),
      withoutRule: latency(timings.withoutRule),
      p99Ratio: round(
        percentile(timings.withRule, 99) / Math.max(percentile(timings.withoutRule, 99), 0.001),
      ),
    };
    options.log(
      `${dialect}: create p99 ${create.withRule.p99} ms with the rule, ${create.withoutRule.p99} ms without (${create.p99Ratio}x); ` +
        `list p50 ${list.sql.p50} ms as SQL, ${list.scan.p50} ms as a scan (${list.speedup}x faster)`,
    );
    return { dialect, rows: options.rows, create, list };
  } finally {
    await store.close();
  }
}

/** A page of 50 with its total, of one customer's tickets: as SQL, and as the scan through CEL it replaced. */
async function measureList(model: Model, store: Store) {
  const env = expressionEnvironment(model, { entity: 'Ticket', variables: ['record', 'user'] });
  const bySql: number[] = [];
  const byScan: number[] = [];
  let total = 0;
  // The scan reads the whole table through CEL (on PostgreSQL with offsets that grow with the table):
  // on a big table one round of it says enough, and SQL's rounds are cheap.
  const times = 5;
  const scans = store.dialect === 'postgres' ? 1 : 2;
  for (let round = 0; round < times; round++) {
    const user = { customerId: 1 + ((round * 31) % CUSTOMERS) };
    const query = { filters: [], sort: [], limit: 50, offset: 50, withTotal: true };
    let begin = performance.now();
    const ticket = findEntity(model, 'Ticket');
    const where =
      ticket && conditionAsData(PERMISSION, env, { user }, (field) => columnKindOf(model, ticket, field));
    if (!where) throw new Error('the permission condition must translate');
    const page = await store.list('Ticket', { ...query, where });
    bySql.push(performance.now() - begin);
    total = page.total ?? 0;

    if (round >= scans) continue;
    begin = performance.now();
    let counted = 0;
    const items: StoredRecord[] = [];
    for (let offset = 0; ; offset += SCAN_BATCH) {
      const batch = await store.list('Ticket', { ...query, offset, limit: SCAN_BATCH, withTotal: false });
      for (const record of batch.items) {
        const allowed = evaluateExpression(PERMISSION, env, { record, user });
        if (!allowed.ok || allowed.value !== true) continue;
        if (counted >= 50 && counted < 100) items.push(record);
        counted += 1;
      }
      if (batch.items.length < SCAN_BATCH) break;
    }
    byScan.push(performance.now() - begin);
    if (counted !== total || items.length !== page.items.length) {
      throw new Error(
        `the scan found ${counted} (${items.length} on the page), SQL ${total} (${page.items.length})`,
      );
    }
  }
  return {
    sql: latency(bySql),
    scan: latency(byScan),
    speedup: round(median(byScan) / Math.max(median(bySql), 0.001)),
    total,
  };
}

/** Fills the ticket table in the database itself: customers 1..1,000, a third of the tickets open. */
async function fill(store: Store, dialect: 'sqlite' | 'postgres', rows: number): Promise<void> {
  if (!(store instanceof KyselyStore)) throw new Error('the bench needs the Kysely store');
  const db = store.kysely;
  const stamp = '2026-01-01T00:00:00.000Z';
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < CUSTOMERS; start += 500) {
      const values = [];
      for (let id = start + 1; id <= Math.min(CUSTOMERS, start + 500); id++) {
        values.push(
          sql`(${id}, ${`Customer ${id}`}, ${id % 4 === 0 ? 'free' : 'pro'}, 1, ${stamp}, ${stamp})`,
        );
      }
      await sql`INSERT INTO "Customer" ("id", "name", "plan", "_version", "_created_at", "_updated_at") VALUES ${sql.join(values)}`.execute(
        trx,
      );
    }
    const series =
      dialect === 'postgres'
        ? sql`SELECT i FROM generate_series(1, ${rows}) AS s(i)`
        : sql`WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${rows}) SELECT i FROM s`;
    const status = sql`CASE i % 3 WHEN 0 THEN 'open' WHEN 1 THEN 'held' ELSE 'closed' END`;
    await sql`
      INSERT INTO "Ticket" ("number", "customer", "subject", "status", "hours", "_version", "_created_at", "_updated_at")
      SELECT 'B-' || i, (i % ${CUSTOMERS}) + 1, 'Ticket ' || i, ${status}, i % 7, 1, ${stamp}, ${stamp}
      FROM (${series}) AS numbers
    `.execute(trx);
  });
  if (dialect === 'postgres') {
    // New rows and a fresh sequence: the planner needs statistics, the identity its next value.
    await sql`ANALYZE`.execute(db);
    await sql`SELECT setval(pg_get_serial_sequence('"Customer"', 'id'), ${CUSTOMERS})`.execute(db);
  }
}

function latency(values: number[]): Latency {
  return { p50: round(median(values)), p99: round(percentile(values, 99)), samples: values.length };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function writeResults(figures: DialectFigures[], options: RunOptions): void {
  mkdirSync(RESULTS, { recursive: true });
  for (const figure of figures) {
    const file = join(RESULTS, `record-rules-${figure.dialect}.json`);
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          metric: `A create guarded by a count over ${figure.rows.toLocaleString('en')} tickets (p99, 1 request at a time), and a page of 50 of the tickets a permission condition allows`,
          measuredAt: new Date().toISOString(),
          node: process.version,
          creates: options.creates,
          goal: 'create p99 under 20 ms with the rule',
          ...figure,
          run: randomUUID(),
        },
        null,
        2,
      )}\n`,
    );
    options.log(`wrote ${file}`);
  }
}

async function main(): Promise<void> {
  const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
  const creates = Number(process.env.BENCH_CREATES ?? 300);
  const all: Array<'sqlite' | 'postgres'> =
    process.env.BENCH_SKIP_POSTGRES === '1' ? ['sqlite'] : ['sqlite', 'postgres'];
  // BENCH_DIALECTS=postgres runs one side again without the other.
  const dialects = all.filter((dialect) =>
    (process.env.BENCH_DIALECTS ?? dialect).split(',').includes(dialect),
  );
  await run({ rows, creates, dialects, write: true, log: (line) => console.log(line) });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
