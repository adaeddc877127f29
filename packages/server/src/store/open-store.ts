import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { readPostgres, readSqlite } from '@ninefold/database';
import { Kysely, PostgresDialect, type PostgresPool, SqliteDialect, sql } from 'kysely';
import { DialectSql } from './dialect-sql';
import { hasExistingTables } from './existing-tables';
import { KyselyStore } from './kysely-store';
import { type OutsideWrites, postgresProbe, sqliteProbe, watchOutsideWrites } from './outside-writes';
import { LISTENER_NAME, type PgClient, startWriteListener, WRITES_CHANNEL } from './pg-listener';
import { ReadCache } from './read-cache';
import type { DynamicKysely } from './schema-sync';
import { SharedState } from './shared-state';
import { openSqliteDatabase } from './sqlite-database';
import type { Store, StoreOptions } from './store';
import { type PlannedTable, planTables, type TablePlan } from './table-plan';

/** The PostgreSQL schema of Ninefold's own tables when the model names a team's tables (`Table:`). */
const OWN_SCHEMA = 'ninefold';
/** Connections per PostgreSQL pool: a prototype API, and parallel test files each with their own pool. */
const POOL_SIZE = 10;
/** How long a notification sent through the pool may take to reach the listener at start. */
const DELIVERY_PROBE_MS = 3000;
const POOLER_REFUSAL =
  'a notification sent through the database URL never reached the connection that listens for them. ' +
  'The URL seems to go through a connection pooler in transaction mode (PgBouncer), where LISTEN and ' +
  "a session's locks last only one transaction, so live updates, the cache and the recovery of a " +
  "crashed node's writes would silently fail. Give a direct connection to PostgreSQL for listening " +
  'with --db-direct-url (NINEFOLD_DATABASE_DIRECT_URL); every other query may keep going through the pooler.';
const CONNECT_TIMEOUT_MS = 10_000;
/** PostgreSQL type OID of BIGINT (`int8`). */
const INT8_OID = 20;
/** PostgreSQL type OIDs of DATE, TIMESTAMP and TIMESTAMPTZ. */
const TEXT_TIME_OIDS = [1082, 1114, 1184];

/** What `pg`'s pool counts, besides Kysely's view of it. */
interface CountedPool extends PostgresPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

interface PgModule {
  Pool: new (config: Record<string, unknown>) => CountedPool;
  Client: new (config: { connectionString: string; application_name: string }) => PgClient;
  types: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}

/**
 * Opens the store for a model on the database a URL names: `sqlite:<path>` (a file, created if missing),
 * `sqlite::memory:`, or `postgres://...` / `postgresql://...` (with `schema`, created if missing, holding
 * every table). The tables are not touched until `migrate`.
 *
 * @example
 * ```ts
 * const store = await openStore({ model, url: 'sqlite:data/shop.db' });
 * const migration = await store.migrate({ allowDestructive: false });
 * if (!migration.ok) for (const step of migration.refused) console.error(step.description);
 * ```
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const plan = planTables(options.model);
  const { url } = options;
  if (url.startsWith('sqlite:')) {
    const database = openSqliteDatabase(sqlitePath(url));
    const cache = new ReadCache();
    let dataVersion = database.dataVersion();
    const kysely: DynamicKysely = new Kysely({ dialect: new SqliteDialect({ database }) });
    const dialect = new DialectSql('sqlite', undefined);
    // SQLite's data_version changes when another connection commits; then nothing remembered holds.
    const cacheCurrent = () => {
      const version = database.dataVersion();
      if (version !== dataVersion) {
        cache.clear();
        dataVersion = version;
      }
      return true;
    };
    const shared = new SharedState(kysely, dialect, { cache: () => (cacheCurrent() ? cache : undefined) });
    const file = sqlitePath(url);
    const outside = watchTeamTables(plan, shared, cache, (tables) =>
      sqliteProbe(tables, () => database.dataVersion()),
    );
    return new KyselyStore(
      {
        sql: dialect,
        plan,
        schemaChanged: () => database.clearStatements(),
        cache,
        cacheCurrent,
        shared,
        readCatalog: async () => ({ catalog: readSqlite(file), defaultSchema: 'main' }),
        close: async () => outside?.close(),
      },
      kysely,
    );
  }
  if (/^postgres(?:ql)?:\/\//.test(url)) {
    // `pg` ships no types and this package may not add @types: the parts used are typed here.
    const pg = createRequire(import.meta.url)('pg') as PgModule;
    const pool = new pg.Pool({
      connectionString: url,
      max: POOL_SIZE,
      // An unreachable server fails the open instead of hanging on the operating system's TCP timeout.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // BIGINT (keys, counts) as JS numbers, for this pool only: the global parsers stay untouched.
      // DATE and TIMESTAMP as the text PostgreSQL sends (a team's tables hold them; the store's own keep
      // text): `pg` would make a local-time Date of a date, a day off in any zone west of UTC.
      types: {
        getTypeParser: (oid: number, format?: string) =>
          oid === INT8_OID
            ? (value: string) => Number(value)
            : TEXT_TIME_OIDS.includes(oid)
              ? (value: string) => value
              : pg.types.getTypeParser(oid, format),
      },
    });
    const kysely: DynamicKysely = new Kysely({
      dialect: new PostgresDialect({ pool }),
    });
    try {
      const current = await sql<{ schema: string }>`SELECT current_schema() AS "schema"`.execute(kysely);
      const connected = current.rows[0]?.schema ?? 'public';
      // Next to a team's own tables, Ninefold's go into a schema of their own: theirs stay as they are.
      const theirs = hasExistingTables(plan);
      let schema = options.schema ?? (theirs ? OWN_SCHEMA : undefined);
      if (schema === undefined) schema = connected;
      else await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(kysely);
      for (const table of plan.tables) {
        if (table.existing && table.existing.schema === undefined) table.existing.schema = connected;
      }
      const dialect = new DialectSql('postgres', schema);
      const cache = new ReadCache();
      let shared: SharedState | undefined;
      const listener = startWriteListener({
        events: (id) => shared?.signal(id),
        // Named, so that an operator sees in pg_stat_activity what the one idle connection per node is.
        connect: () =>
          new pg.Client({ connectionString: options.directUrl ?? url, application_name: LISTENER_NAME }),
        dialect,
        // A team's tables get no trigger of ours: reads of them are not cached (see `currentCache`).
        tables: plan.tables.filter((table) => !table.existing).map((table) => table.name),
        cache,
        holder: randomInt(1, 2 ** 31),
      });
      // Behind a pooler in transaction mode, what is sent through the pool never reaches the listener:
      // live updates, the cache and the claims of a crashed node would silently go wrong. Refused here.
      const heard = await listener.hears(async (payload) => {
        await sql`SELECT pg_notify(${WRITES_CHANNEL}, ${payload})`.execute(kysely);
      }, DELIVERY_PROBE_MS);
      if (heard === false) {
        await listener.close();
        throw new Error(POOLER_REFUSAL);
      }
      shared = new SharedState(kysely, dialect, {
        cache: () => (listener.current() ? cache : undefined),
        tablesChanged: listener.tablesChanged,
      });
      const outside = watchTeamTables(plan, shared, cache, (tables) => postgresProbe(kysely, tables));
      return new KyselyStore(
        {
          sql: dialect,
          plan,
          schemaChanged: () => {},
          cache,
          cacheCurrent: listener.current,
          tablesChanged: listener.tablesChanged,
          close: async () => {
            outside?.close();
            await listener.close();
          },
          holder: listener.holder,
          poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
          shared,
          readCatalog: async () => {
            // The team's tables, and the join tables their lists are kept in.
            const schemas = [
              ...new Set(
                plan.tables.flatMap((table) => [
                  ...(table.existing?.schema ? [table.existing.schema] : []),
                  ...table.columns.flatMap((column) =>
                    column.through ? [column.through.table.schema ?? connected] : [],
                  ),
                ]),
              ),
            ];
            return { catalog: await readPostgres(url, schemas), defaultSchema: connected };
          },
        },
        kysely,
      );
    } catch (error) {
      await kysely.destroy();
      throw error;
    }
  }
  // The URL may hold a password: only its scheme is repeated.
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? 'this URL';
  throw new Error(
    `Unsupported database URL (${scheme}): use sqlite:<path>, sqlite::memory: or postgres://...`,
  );
}

/** Live updates of the writes other programs make to a team's tables, when the model names any. */
function watchTeamTables(
  plan: TablePlan,
  shared: SharedState,
  cache: ReadCache,
  probe: (tables: PlannedTable[]) => Parameters<typeof watchOutsideWrites>[0],
): OutsideWrites | undefined {
  const tables = plan.tables.filter((table) => table.existing);
  if (tables.length === 0) return undefined;
  // A lost live update is not a lost write: a failure to record one is let go, as `publishChange` does.
  return watchOutsideWrites(probe(tables), (event) => {
    // What was remembered of the table (its totals, on PostgreSQL) no longer holds.
    cache.invalidate(event.entity);
    void shared.appendEvent(event).catch(() => {});
  });
}

/** `sqlite:data/app.db` -> `data/app.db`; `sqlite:///abs/app.db` -> `/abs/app.db`; `sqlite::memory:`. */
function sqlitePath(url: string): string {
  const rest = url.slice('sqlite:'.length);
  const path = rest.startsWith('//') ? rest.slice(2) : rest;
  if (path.length === 0) throw new Error('A sqlite: URL needs a path, or :memory:');
  return path;
}
