// A SQLite file of the shop (examples/shop.yaml) whose Product table holds many simple rows, filled
// straight into the table the store created (with its indexes): for the benchmarks of large lists.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadSpec } from '@ninefold/model';
import { openStore } from '../../packages/server/src/store/open-store';
import { withPostgres } from './child-servers';

const require = createRequire(import.meta.url);
const CATEGORIES = ['rigging', 'engine', 'electrics', 'safety', 'paint'] as const;

interface SqliteDatabase {
  pragma(source: string): unknown;
  prepare(source: string): { run(...values: unknown[]): unknown; all(...values: unknown[]): unknown[] };
  transaction(work: () => void): () => void;
  close(): void;
}

/** The words of a product's name in the search benchmark: 12 × 20 names, each followed by its number. */
export const NAME_WORDS = {
  first: [
    'Galvanised',
    'Stainless',
    'Bronze',
    'Nylon',
    'Marine',
    'Heavy',
    'Compact',
    'Coated',
    'Braided',
    'Teak',
    'Carbon',
    'Brass',
  ],
  second: [
    'shackle',
    'cleat',
    'winch',
    'block',
    'fender',
    'anchor',
    'bilge',
    'pump',
    'halyard',
    'sheave',
    'thimble',
    'swivel',
    'snap',
    'hatch',
    'hinge',
    'lamp',
    'fuse',
    'hose',
    'valve',
    'rope',
  ],
};

/** A product's name with words a person would search for: "Bronze winch 123". */
export function wordedName(id: number): string {
  const { first, second } = NAME_WORDS;
  return `${first[id % first.length]} ${second[Math.floor(id / first.length) % second.length]} ${id}`;
}

/** Makes the tables and indexes of a specification in a new database through the store, as serve would. */
export async function migrateSpec(spec: string, url: string): Promise<void> {
  const loaded = loadSpec(readFileSync(spec, 'utf8'), { file: spec });
  if (!loaded.ok || !loaded.model)
    throw new Error(`${spec} must load: ${JSON.stringify(loaded.issues.slice(0, 3))}`);
  const store = await openStore({ model: loaded.model, url });
  try {
    if (!(await store.migrate({ allowDestructive: false })).ok) throw new Error('the migration was refused');
  } finally {
    await store.close();
  }
}

/** Creates the tables through the store, then fills Product with simple deterministic rows, fast. */
export async function fillProducts(
  spec: string,
  file: string,
  rows: number,
  nameOf: (id: number) => string = (id) => `Part ${id}`,
): Promise<number> {
  await migrateSpec(spec, `sqlite:${file}`);

  const started = performance.now();
  const Database = require('better-sqlite3') as new (file: string) => SqliteDatabase;
  const db = new Database(file);
  try {
    const columns = (db.prepare(`PRAGMA table_info("Product")`).all() as Array<{ name: string }>).map(
      (column) => column.name,
    );
    const wanted = [
      'id',
      'sku',
      'name',
      'category',
      'price',
      'stock',
      '_version',
      '_created_at',
      '_updated_at',
    ];
    const missing = wanted.filter((name) => !columns.includes(name));
    if (missing.length > 0) throw new Error(`the store's Product table has no ${missing.join(', ')} column`);
    // Only for the fill: the server reopens the file with its own settings (WAL, synchronous NORMAL).
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const insert = db.prepare(
      `INSERT INTO "Product" (${wanted.map((name) => `"${name}"`).join(', ')}) VALUES (${wanted.map(() => '?').join(', ')})`,
    );
    const stamp = '2026-01-01T00:00:00.000Z';
    const BATCH = 50_000;
    for (let start = 1; start <= rows; start += BATCH) {
      db.transaction(() => {
        for (let id = start; id < start + BATCH && id <= rows; id++) {
          insert.run(
            id,
            `MX-${String(id - 1).padStart(6, '0')}`,
            nameOf(id),
            CATEGORIES[id % CATEGORIES.length],
            ((id * 7919) % 100_000) / 100,
            (id * 31) % 500,
            1,
            stamp,
            stamp,
          );
        }
      })();
    }
  } finally {
    db.close();
  }
  return (performance.now() - started) / 1000;
}

/**
 * The same products in a PostgreSQL database: the store makes the tables and indexes, then one INSERT …
 * SELECT fills them, named like `wordedName` (`worded`) or "Part N". Answers the seconds the fill took.
 */
export async function fillPostgresProducts(
  spec: string,
  url: string,
  rows: number,
  names: 'worded' | 'parts',
): Promise<number> {
  await migrateSpec(spec, url);
  return withPostgres(url, async (query) => {
    const started = performance.now();
    const { first, second } = NAME_WORDS;
    const array = (words: string[]) => `ARRAY[${words.map((word) => `'${word}'`).join(', ')}]`;
    const name =
      names === 'worded'
        ? `(${array(first)})[1 + i % ${first.length}] || ' ' || (${array(second)})[1 + (i / ${first.length}) % ${second.length}] || ' ' || i`
        : `'Part ' || i`;
    await query(`
      INSERT INTO "Product" ("id", "sku", "name", "category", "price", "stock", "_version", "_created_at", "_updated_at")
      SELECT i, 'MX-' || lpad((i - 1)::text, 6, '0'), ${name},
        (${array([...CATEGORIES])})[1 + i % ${CATEGORIES.length}],
        ((i * 7919) % 100000) / 100.0, (i * 31) % 500, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      FROM generate_series(1::bigint, ${rows}) AS i`);
    await query(`SELECT setval(pg_get_serial_sequence('"Product"', 'id'), ${Math.max(rows, 1)})`);
    await query('ANALYZE "Product"');
    return (performance.now() - started) / 1000;
  });
}
