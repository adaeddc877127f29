import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import { ensureOwnTable } from './own-table';
import type { DynamicKysely } from './schema-sync';
import type { HistoryEntry, RecordKey } from './store';
import { HISTORY_TABLE } from './table-plan';

/**
 * The transitions taken, one row each. `seq` orders them: times can tie (a pinned clock, two transitions
 * in one millisecond), insertion order cannot.
 */
export function ensureHistoryTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  const seq =
    dialect.name === 'sqlite'
      ? '"seq" INTEGER PRIMARY KEY AUTOINCREMENT'
      : '"seq" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY';
  return ensureOwnTable(
    db,
    dialect,
    'ninefold-history',
    [
      `CREATE TABLE IF NOT EXISTS ${dialect.table(HISTORY_TABLE)} (${seq}, ` +
        `"entity" TEXT NOT NULL, "record_key" TEXT NOT NULL, "transition" TEXT NOT NULL, ` +
        `"from_state" TEXT NOT NULL, "to_state" TEXT NOT NULL, "user_id" TEXT, "user_email" TEXT, ` +
        `"at" TEXT NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS "_ninefold_history_record" ON ${dialect.table(HISTORY_TABLE)} ` +
        `("entity", "record_key", "seq")`,
    ],
    inTransaction,
  );
}

export async function insertHistory(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  key: RecordKey,
  entry: HistoryEntry,
): Promise<void> {
  await sql`
    INSERT INTO ${dialect.tableRef(HISTORY_TABLE)}
      ("entity", "record_key", "transition", "from_state", "to_state", "user_id", "user_email", "at")
    VALUES (${entity}, ${String(key)}, ${entry.transition}, ${entry.from}, ${entry.to},
      ${entry.by?.id ?? null}, ${entry.by?.email ?? null}, ${entry.at})
  `.execute(db);
}

/** A record's transitions, newest first. */
export async function selectHistory(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  key: RecordKey,
): Promise<HistoryEntry[]> {
  const result = await sql<HistoryRow>`
    SELECT "transition", "from_state", "to_state", "user_id", "user_email", "at"
    FROM ${dialect.tableRef(HISTORY_TABLE)}
    WHERE "entity" = ${entity} AND "record_key" = ${String(key)}
    ORDER BY "seq" DESC
  `.execute(db);
  return result.rows.map((row) => ({
    transition: row.transition,
    from: row.from_state,
    to: row.to_state,
    by: row.user_id === null ? null : { id: row.user_id, email: row.user_email },
    at: row.at,
  }));
}

/** A deleted record's history goes with it: a later record given the same key starts with none. */
export async function deleteHistory(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  key: RecordKey,
): Promise<void> {
  await sql`
    DELETE FROM ${dialect.tableRef(HISTORY_TABLE)} WHERE "entity" = ${entity} AND "record_key" = ${String(key)}
  `.execute(db);
}

interface HistoryRow {
  transition: string;
  from_state: string;
  to_state: string;
  user_id: string | null;
  user_email: string | null;
  at: string;
}
