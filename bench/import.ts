// A CSV import of 100,000 products (issue 20): the prototype API's import, sent as the client sends it
// (keyed batches of 1,000 rows, each row checked by the create call's rules), against a plain batched
// INSERT of the same rows into the same table, with no check at all, in one run. Rows per second;
// written to bench/results/import-sqlite.json.
//
//   npx tsx bench/import.ts   BENCH_IMPORT_ROWS (default 100,000), BENCH_ROUNDS (default 3)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveForBench } from './support/child-servers';
import { cleanUp, cleanups } from './support/clean-up';
import { median, RESULTS_DIR } from './support/figures';
import { fillProducts, wordedName } from './support/fill-products';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SPEC = join(ROOT, 'examples/shop.yaml');
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 1_000;
const LOAD_AT_START = loadavg().map((value) => Math.round(value * 100) / 100);
const CATEGORIES = ['rigging', 'engine', 'electrics', 'safety', 'paint'];

interface SqliteDatabase {
  pragma(source: string): unknown;
  prepare(source: string): { run(...values: unknown[]): unknown; get(...values: unknown[]): unknown };
  transaction(work: () => void): () => void;
  close(): void;
}

/** The rows of a round, as a CSV file holds them: texts, with skus no other round uses. */
function rowsOf(round: number): Array<Record<string, string>> {
  return Array.from({ length: ROWS }, (_, index) => {
    const id = round * ROWS + index + 1;
    return {
      sku: `IM-${String(id).padStart(6, '0')}`,
      name: wordedName(id),
      category: CATEGORIES[id % CATEGORIES.length] as string,
      price: String(((id * 7919) % 100_000) / 100),
      stock: String((id * 31) % 500),
    };
  });
}

async function importOurs(url: string, headers: Record<string, string>, round: number): Promise<number> {
  const rows = rowsOf(round);
  const started = performance.now();
  for (let start = 0; start < rows.length; start += BATCH) {
    const answer = await fetch(`${url}/api/_import/Product?firstRow=${start + 2}`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'idempotency-key': `bench-${round}-${start}`,
      },
      body: JSON.stringify({ rows: rows.slice(start, start + BATCH) }),
    });
    const report = (await answer.json()) as { created: number; refused: number };
    if (!answer.ok || report.created !== Math.min(BATCH, rows.length - start)) {
      throw new Error(
        `the import of rows ${start + 2}… answered ${answer.status}: ${JSON.stringify(report).slice(0, 500)}`,
      );
    }
  }
  return performance.now() - started;
}

/** The same rows straight into the same kind of table: prepared INSERTs, a transaction per batch. */
function insertPlain(file: string, round: number): number {
  const Database = require('better-sqlite3') as new (file: string) => SqliteDatabase;
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const insert = db.prepare(
      'INSERT INTO "Product" ("sku", "name", "category", "price", "stock", "_version", "_created_at", "_updated_at") VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
    );
    const rows = rowsOf(round);
    const started = performance.now();
    for (let start = 0; start < rows.length; start += BATCH) {
      db.transaction(() => {
        const stamp = new Date().toISOString();
        for (const row of rows.slice(start, start + BATCH)) {
          insert.run(row.sku, row.name, row.category, Number(row.price), Number(row.stock), stamp, stamp);
        }
      })();
    }
    return performance.now() - started;
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-import-bench-'));
  cleanups.push({ name: 'remove the databases', run: () => rmSync(dir, { recursive: true, force: true }) });
  // Two databases with the store's own tables and indexes (the search index too), empty.
  const ours = join(dir, 'ours.db');
  const plain = join(dir, 'plain.db');
  await fillProducts(SPEC, ours, 0);
  await fillProducts(SPEC, plain, 0);
  const { url, headers, stop } = await serveForBench(SPEC, ours);

  const runs: Record<'ours' | 'plain', number[]> = { ours: [], plain: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['ours', 'plain'] as const) : (['plain', 'ours'] as const);
    for (const side of order) {
      const ms = side === 'ours' ? await importOurs(url, headers, round) : insertPlain(plain, round);
      runs[side].push(ms);
      console.log(
        `  round ${round + 1} ${side.padEnd(5)} ${ms.toFixed(0).padStart(7)} ms  ${Math.round((ROWS / ms) * 1000)} rows/s`,
      );
    }
  }
  await stop();
  const rate = (values: number[]) => Math.round((ROWS / median(values)) * 1000);
  const result = {
    metric: `import of ${ROWS.toLocaleString('en')} products, rows per second`,
    ours: rate(runs.ours),
    peer: rate(runs.plain),
    peerName: 'a plain batched INSERT (better-sqlite3, a transaction per 1,000 rows) into the same table',
    ratio: rate(runs.ours) / rate(runs.plain),
    unit: 'rows/s',
    notes:
      `POST /api/_import/Product as the client sends it: JSON batches of ${BATCH} rows of texts, each with an Idempotency-Key, signed in as the owner, on a SQLite file; ` +
      'each row is read by its field kind, checked (point 5, references, the grant, the unique sku) and written under a savepoint, with the search index kept by its triggers. ' +
      `The peer inserts the same rows, already typed, into another file with the same tables, indexes and triggers, and checks nothing. Higher is better; ratio = ours / peer. ${ROUNDS} rounds a side, alternating; median.`,
    rows: ROWS,
    rounds: ROUNDS,
    node: process.version,
    cpus: cpus().length,
    date: new Date().toISOString(),
    loadAverage: { start: LOAD_AT_START, end: loadavg().map((value) => Math.round(value * 100) / 100) },
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'import-sqlite.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\n${result.metric}: ours ${result.ours}, plain INSERT ${result.peer}, ratio ${result.ratio.toFixed(2)}`,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
