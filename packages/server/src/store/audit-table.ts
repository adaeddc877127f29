import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import { ensureOwnTable } from './own-table';
import type { DynamicKysely } from './schema-sync';
import type { AuditEntry, AuditQuery, NewAuditEntry, StoredRecord } from './store';
import { AUDIT_TABLE } from './table-plan';

/**
 * The audit trail, one row per write: the record as it was and as it became, whole, as JSON. Whole
 * records rather than the changed fields: what a reader may see of an entry is decided when it is read
 * (their role's conditions and hidden fields, which may change), and needs the record itself.
 */
export function ensureAuditTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  const seq =
    dialect.name === 'sqlite'
      ? '"seq" INTEGER PRIMARY KEY AUTOINCREMENT'
      : '"seq" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY';
  return ensureOwnTable(
    db,
    dialect,
    'ninefold-audit',
    [
      `CREATE TABLE IF NOT EXISTS ${dialect.table(AUDIT_TABLE)} (${seq}, ` +
        `"at" TEXT NOT NULL, "entity" TEXT NOT NULL, "record_key" TEXT NOT NULL, "action" TEXT NOT NULL, ` +
        `"transition" TEXT, "call" TEXT NOT NULL, "user_id" TEXT, "user_name" TEXT, ` +
        `"before" TEXT, "after" TEXT)`,
      `CREATE INDEX IF NOT EXISTS "_ninefold_audit_record" ON ${dialect.table(AUDIT_TABLE)} ` +
        `("entity", "record_key", "seq")`,
    ],
    inTransaction,
  );
}

export async function insertAudit(
  db: DynamicKysely,
  dialect: DialectSql,
  entries: readonly NewAuditEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map(
    (entry) =>
      sql`(${entry.at}, ${entry.entity}, ${entry.key}, ${entry.action}, ${entry.transition ?? null}, ${entry.call}, ${entry.by?.id ?? null}, ${entry.by?.name ?? null}, ${json(entry.before)}, ${json(entry.after)})`,
  );
  await sql`
    INSERT INTO ${dialect.tableRef(AUDIT_TABLE)}
      ("at", "entity", "record_key", "action", "transition", "call", "user_id", "user_name", "before", "after")
    VALUES ${sql.join(rows)}
  `.execute(db);
}

/** Entries newest first: of one record, of one entity, or of all, before a `seq` when paging back. */
export async function selectAudit(
  db: DynamicKysely,
  dialect: DialectSql,
  query: AuditQuery,
): Promise<AuditEntry[]> {
  const conditions = [
    ...(query.entity === undefined ? [] : [sql`"entity" = ${query.entity}`]),
    ...(query.key === undefined ? [] : [sql`"record_key" = ${query.key}`]),
    ...(query.before === undefined ? [] : [sql`"seq" < ${query.before}`]),
  ];
  const where = conditions.length === 0 ? sql`` : sql`WHERE ${sql.join(conditions, sql` AND `)}`;
  const result = await sql<AuditRow>`
    SELECT "seq", "at", "entity", "record_key", "action", "transition", "call", "user_id", "user_name",
      "before", "after"
    FROM ${dialect.tableRef(AUDIT_TABLE)} ${where}
    ORDER BY "seq" DESC LIMIT ${query.limit}
  `.execute(db);
  return result.rows.map((row) => ({
    seq: Number(row.seq),
    at: row.at,
    entity: row.entity,
    key: row.record_key,
    action: row.action as AuditEntry['action'],
    ...(row.transition === null ? {} : { transition: row.transition }),
    call: row.call,
    by: row.user_id === null ? null : { id: row.user_id, name: row.user_name },
    before: parse(row.before),
    after: parse(row.after),
  }));
}

/**
 * Removes the entries written before `at` (ISO 8601); answers how many. It scans the table: it runs every
 * few hours, and an index on the time would cost every write.
 */
export async function pruneAudit(db: DynamicKysely, dialect: DialectSql, at: string): Promise<number> {
  const result = await sql`DELETE FROM ${dialect.tableRef(AUDIT_TABLE)} WHERE "at" < ${at}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

const json = (record: StoredRecord | null) => (record === null ? null : JSON.stringify(record));
const parse = (text: string | null): StoredRecord | null =>
  text === null ? null : (JSON.parse(text) as StoredRecord);

interface AuditRow {
  seq: number | string;
  at: string;
  entity: string;
  record_key: string;
  action: string;
  transition: string | null;
  call: string;
  user_id: string | null;
  user_name: string | null;
  before: string | null;
  after: string | null;
}
