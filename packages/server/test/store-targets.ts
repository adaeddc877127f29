import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Model } from '@ninefold/model';
import { sql } from 'kysely';
import { afterAll, describe, it } from 'vitest';
import { KyselyStore } from '../src/store/kysely-store';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { EMPTY_MODEL as EMPTY } from './store-model';
import { PG_URL, postgresUnavailable } from './support/databases';

/** A database the same suite runs on; each test gets an empty one from `fresh`. */
export interface StoreTarget {
  dialect: 'sqlite' | 'postgres';
  /** Opens a store for `model` on this test's database (the same database until the next `fresh`). */
  open(model: Model): Promise<Store>;
  /** Forgets the current database: the next `open` starts from an empty one. */
  fresh(): Promise<void>;
  columns(store: Store, table: string): Promise<string[]>;
  indexes(store: Store, table: string): Promise<string[]>;
}

function kyselyOf(store: Store) {
  if (!(store instanceof KyselyStore)) throw new Error('Expected the Kysely store');
  return store.kysely;
}

function sqliteTarget(storage: 'memory' | 'file'): StoreTarget {
  let directory: string | undefined;
  let generation = 0;
  afterAll(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  });
  return {
    dialect: 'sqlite',
    async open(model) {
      if (storage === 'memory') return openStore({ model, url: 'sqlite::memory:' });
      directory ??= mkdtempSync(join(tmpdir(), 'ninefold-store-'));
      return openStore({ model, url: `sqlite:${join(directory, `test-${generation}.db`)}` });
    },
    async fresh() {
      generation++;
    },
    async columns(store, table) {
      const result = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(
        kyselyOf(store),
      );
      return result.rows.map((row) => row.name);
    },
    async indexes(store, table) {
      const result = await sql<{ name: string }>`
        SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${table} AND name NOT LIKE 'sqlite_%'
        ORDER BY name`.execute(kyselyOf(store));
      return result.rows.map((row) => row.name);
    },
  };
}

function postgresTarget(label: string): StoreTarget {
  // One schema per test file (and process, so parallel runs do not meet), emptied before each test and
  // dropped at the end.
  const schema = `nf_test_${label}_${process.pid}`;
  const dropSchema = async () => {
    const store = await openStore({ model: EMPTY, url: PG_URL });
    try {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(kyselyOf(store));
    } finally {
      await store.close();
    }
  };
  afterAll(dropSchema);
  return {
    dialect: 'postgres',
    open: (model) => openStore({ model, url: PG_URL, schema }),
    fresh: dropSchema,
    async columns(store, table) {
      const result = await sql<{ name: string }>`
        SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = ${schema} AND table_name = ${table} ORDER BY ordinal_position`.execute(
        kyselyOf(store),
      );
      return result.rows.map((row) => row.name);
    },
    async indexes(store, table) {
      const result = await sql<{ name: string }>`
        SELECT indexname AS name FROM pg_indexes WHERE schemaname = ${schema} AND tablename = ${table}
        ORDER BY indexname`.execute(kyselyOf(store));
      return result.rows.map((row) => row.name);
    },
  };
}

const unavailable = await postgresUnavailable();

/**
 * Runs one suite on SQLite and on PostgreSQL. Without a reachable PostgreSQL the PostgreSQL half is
 * skipped with one warning, except in CI, where it must run and its absence fails the run.
 */
export function describeOnEveryDatabase(
  title: string,
  options: { label: string; sqlite: 'memory' | 'file' },
  suite: (target: StoreTarget) => void,
): void {
  describe(`${title} on SQLite (${options.sqlite === 'memory' ? 'in memory' : 'file'})`, () =>
    suite(sqliteTarget(options.sqlite)));
  if (unavailable && process.env.CI === 'true') {
    describe(`${title} on PostgreSQL`, () => {
      it('has a PostgreSQL to run on (CI requires it)', () => {
        throw new Error(`CI must run the PostgreSQL suite: ${unavailable}`);
      });
    });
    return;
  }
  if (unavailable) console.warn(`${title}: PostgreSQL suite skipped: ${unavailable}`);
  const suffix = unavailable ? ` (skipped: ${unavailable})` : '';
  describe.skipIf(unavailable !== undefined)(`${title} on PostgreSQL${suffix}`, () =>
    suite(postgresTarget(options.label)),
  );
}
