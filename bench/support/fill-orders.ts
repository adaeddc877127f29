// A database of the shop (examples/shop.yaml) whose Order table holds many simple orders, filled straight
// into the tables the store created (with their indexes): for the dashboard figures' benchmark.
import { createRequire } from 'node:module';
import { withPostgres } from './child-servers';
import { migrateSpec } from './fill-products';

const require = createRequire(import.meta.url);
const LINE = JSON.stringify([{ product: 1, quantity: 1, unitPrice: 10 }]);
export const STATES = ['draft', 'placed', 'paid', 'shipped', 'delivered', 'cancelled'] as const;

interface SqliteDatabase {
  pragma(source: string): unknown;
  prepare(source: string): { run(...values: unknown[]): unknown };
  transaction(work: () => void): () => void;
  close(): void;
}

/** Order `id`'s values: a state of six in turn, a day of three years, a total of 10 to 5,010 EUR. */
function order(id: number, customers: number) {
  const day = new Date(Date.UTC(2024, 0, 1) + ((id * 7919) % 1096) * 86_400_000).toISOString().slice(0, 10);
  return {
    number: `ORD-${String(id).padStart(7, '0')}`,
    customer: 1 + (id % customers),
    placedOn: day,
    status: STATES[id % STATES.length] as string,
    total: 10 + ((id * 104_729) % 500_000) / 100,
  };
}

/** Fills a SQLite file: `customers` customers, then `rows` orders. Answers the seconds the fill took. */
export async function fillOrders(
  spec: string,
  file: string,
  rows: number,
  customers: number,
): Promise<number> {
  await migrateSpec(spec, `sqlite:${file}`);
  const started = performance.now();
  const Database = require('better-sqlite3') as new (file: string) => SqliteDatabase;
  const db = new Database(file);
  const stamp = '2026-01-01T00:00:00.000Z';
  try {
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const customer = db.prepare(
      `INSERT INTO "Customer" ("id", "name", "email", "country", "creditLimit", "active", "_version", "_created_at", "_updated_at") VALUES (?, ?, ?, 'NO', 1000000000, 1, 1, ?, ?)`,
    );
    db.transaction(() => {
      for (let id = 1; id <= customers; id++)
        customer.run(id, `Customer ${id}`, `c${id}@bench.test`, stamp, stamp);
    })();
    const insert = db.prepare(
      `INSERT INTO "Order" ("id", "number", "customer", "placedOn", "status", "total", "_version", "_created_at", "_updated_at") VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    );
    const BATCH = 50_000;
    for (let start = 1; start <= rows; start += BATCH) {
      db.transaction(() => {
        for (let id = start; id < start + BATCH && id <= rows; id++) {
          const values = order(id, customers);
          insert.run(
            id,
            values.number,
            values.customer,
            values.placedOn,
            values.status,
            values.total,
            stamp,
            stamp,
          );
        }
      })();
    }
    // Order 1 is valid as a whole (a product on one line), so that the benchmark may write to it.
    db.prepare(
      `INSERT INTO "Product" ("id", "sku", "name", "category", "price", "stock", "_version", "_created_at", "_updated_at") VALUES (1, 'MX-000001', 'Part 1', 'engine', 10, 1000000, 1, ?, ?)`,
    ).run(stamp, stamp);
    db.prepare(`UPDATE "Order" SET "lines" = ?, "total" = 10 WHERE "id" = 1`).run(LINE);
    db.pragma('optimize');
  } finally {
    db.close();
  }
  return (performance.now() - started) / 1000;
}

/** The same in a PostgreSQL database, with one INSERT … SELECT a table. */
export async function fillPostgresOrders(
  spec: string,
  url: string,
  rows: number,
  customers: number,
): Promise<number> {
  await migrateSpec(spec, url);
  return withPostgres(url, async (query) => {
    const started = performance.now();
    const stamp = `'2026-01-01T00:00:00.000Z'`;
    await query(`
      INSERT INTO "Customer" ("id", "name", "email", "country", "creditLimit", "active", "_version", "_created_at", "_updated_at")
      SELECT i, 'Customer ' || i, 'c' || i || '@bench.test', 'NO', 1000000000, true, 1, ${stamp}, ${stamp}
      FROM generate_series(1::bigint, ${customers}) AS i`);
    await query(`
      INSERT INTO "Order" ("id", "number", "customer", "placedOn", "status", "total", "_version", "_created_at", "_updated_at")
      SELECT i, 'ORD-' || lpad(i::text, 7, '0'), 1 + i % ${customers},
        to_char(DATE '2024-01-01' + ((i * 7919) % 1096)::int, 'YYYY-MM-DD'),
        (ARRAY[${STATES.map((state) => `'${state}'`).join(', ')}])[1 + i % ${STATES.length}],
        10 + ((i * 104729) % 500000) / 100.0, 1, ${stamp}, ${stamp}
      FROM generate_series(1::bigint, ${rows}) AS i`);
    await query(`
      INSERT INTO "Product" ("id", "sku", "name", "category", "price", "stock", "_version", "_created_at", "_updated_at")
      VALUES (1, 'MX-000001', 'Part 1', 'engine', 10, 1000000, 1, ${stamp}, ${stamp})`);
    await query(`UPDATE "Order" SET "lines" = '${LINE}', "total" = 10 WHERE "id" = 1`);
    for (const table of ['Customer', 'Order', 'Product'])
      await query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), ${Math.max(rows, customers)})`);
    // As autovacuum leaves a table in steady state: statistics, and the visibility map that lets an
    // index answer alone (a bulk load leaves every page unvisited).
    await query('VACUUM ANALYZE "Customer"');
    await query('VACUUM ANALYZE "Order"');
    return (performance.now() - started) / 1000;
  });
}
