import { createRequire } from 'node:module';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

interface BetterSqlite3Database extends SqliteDatabase {
  pragma(source: string, options?: { simple: boolean }): unknown;
  readonly memory: boolean;
}

/** The parts of a better-sqlite3 statement the store uses, with its raw mode (rows as arrays). */
interface BetterSqlite3Statement extends SqliteStatement {
  raw(toggle: boolean): BetterSqlite3Statement;
  columns(): Array<{ name: string }>;
}

type BetterSqlite3 = new (filename: string, options?: { timeout?: number }) => BetterSqlite3Database;

/** A SQLite database for Kysely's dialect that keeps its prepared statements. */
export interface CachingSqliteDatabase extends SqliteDatabase {
  /** Forgets the prepared statements (after the schema changed). */
  clearStatements(): void;
  /**
   * SQLite's `data_version`, which changes when another connection commits. Read synchronously: it is
   * asked before every list, and a round trip through the query builder would cost more than the answer.
   */
  dataVersion(): number;
}

/** How many prepared statements are kept; a model's list shapes are far fewer. */
const STATEMENT_CACHE = 500;
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens a better-sqlite3 database ready for the store: foreign keys enforced, WAL and `synchronous =
 * NORMAL` for files (readers do not block the writer; durable at checkpoints, safe against corruption),
 * and a busy timeout so that a second process waits instead of failing. Kysely's driver prepares every
 * query anew; this wrapper reuses prepared statements by SQL text, which the store's bound parameters
 * make few and stable.
 */
export function openSqliteDatabase(path: string): CachingSqliteDatabase {
  // better-sqlite3 ships no types and this package may not add @types: the constructor is typed here.
  const Database = createRequire(import.meta.url)('better-sqlite3') as BetterSqlite3;
  const database = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  database.pragma('foreign_keys = ON');
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (!database.memory) {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
  }
  // Every statement inside a transaction that fires triggers (the search index's) keeps a statement
  // journal, a temporary file by default: in memory, a create in a transaction cost 25% less
  // (bench/audit.ts, where every write is one with its audit entry).
  database.pragma('temp_store = MEMORY');
  const statements = new Map<string, SqliteStatement>();
  // better-sqlite3's pragma() prepares its statement at every call; this one is asked before every list.
  const dataVersion = database.prepare('PRAGMA data_version') as SqliteStatement & {
    pluck(): { get(): unknown };
  };
  const readVersion = dataVersion.pluck();
  return {
    prepare(text: string): SqliteStatement {
      const cached = statements.get(text);
      if (cached) {
        // Most recently used last, so the oldest is the first to go.
        statements.delete(text);
        statements.set(text, cached);
        return cached;
      }
      const statement = rowsAsObjects(database.prepare(text) as BetterSqlite3Statement);
      statements.set(text, statement);
      if (statements.size > STATEMENT_CACHE) {
        const oldest = statements.keys().next().value;
        if (oldest !== undefined) statements.delete(oldest);
      }
      return statement;
    },
    clearStatements() {
      statements.clear();
    },
    dataVersion() {
      return Number(readVersion.get());
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}

/**
 * A statement that reads rows as arrays and names their values in JavaScript: better-sqlite3 makes each row
 * object property by property in C++, which was a third of a 50-row list's time; raw rows named here take
 * two thirds of that. Columns with the same name keep the last value, as better-sqlite3's own objects do.
 */
function rowsAsObjects(statement: BetterSqlite3Statement): SqliteStatement {
  if (!statement.reader) return statement;
  statement.raw(true);
  const names = statement.columns().map((column) => column.name);
  const named = (values: unknown[]): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < names.length; index++) row[names[index] as string] = values[index];
    return row;
  };
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(named),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield named(values);
    },
  };
}
