import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import { ensureOwnTable } from './own-table';
import type { DynamicKysely } from './schema-sync';
import { IMPORTED_TABLE } from './table-plan';

/**
 * What imports made, one row per record: the hash of the row's content and the record's key. An entity
 * with no unique field has nothing else to tell an orders file imported twice from two files of orders.
 */
export function ensureImportedTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  return ensureOwnTable(
    db,
    dialect,
    'ninefold-imported',
    [
      `CREATE TABLE IF NOT EXISTS ${dialect.table(IMPORTED_TABLE)} (` +
        `"entity" TEXT NOT NULL, "hash" TEXT NOT NULL, "key" TEXT NOT NULL, PRIMARY KEY ("entity", "hash"))`,
    ],
    inTransaction,
  );
}

/** The key of the record an import made of content with this hash, if any. */
export async function selectImported(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  hash: string,
): Promise<string | undefined> {
  const result = await sql<{ key: string }>`
    SELECT "key" FROM ${dialect.tableRef(IMPORTED_TABLE)} WHERE "entity" = ${entity} AND "hash" = ${hash}
  `.execute(db);
  return result.rows[0]?.key;
}

/** Remembers that an import made the record `key` of content with this hash (the latest one wins). */
export async function insertImported(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  hash: string,
  key: string,
): Promise<void> {
  await sql`
    INSERT INTO ${dialect.tableRef(IMPORTED_TABLE)} ("entity", "hash", "key") VALUES (${entity}, ${hash}, ${key})
    ON CONFLICT ("entity", "hash") DO UPDATE SET "key" = ${key}
  `.execute(db);
}
