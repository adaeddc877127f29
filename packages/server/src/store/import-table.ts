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

/** Hashes asked, or rows written, per statement: well below both dialects' limits on bound parameters. */
const PER_STATEMENT = 300;

/** The keys of the records imports made of content with these hashes, by hash. */
export async function selectImported(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  hashes: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let start = 0; start < hashes.length; start += PER_STATEMENT) {
    const part = hashes.slice(start, start + PER_STATEMENT);
    const result = await sql<{ hash: string; key: string }>`
      SELECT "hash", "key" FROM ${dialect.tableRef(IMPORTED_TABLE)}
      WHERE "entity" = ${entity} AND "hash" IN (${sql.join(part)})
    `.execute(db);
    for (const row of result.rows) found.set(row.hash, row.key);
  }
  return found;
}

/** Remembers that an import made these records of content with these hashes (the latest one wins). */
export async function insertImported(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  made: ReadonlyArray<{ hash: string; key: string }>,
): Promise<void> {
  for (let start = 0; start < made.length; start += PER_STATEMENT) {
    const rows = made
      .slice(start, start + PER_STATEMENT)
      .map(({ hash, key }) => sql`(${entity}, ${hash}, ${key})`);
    await sql`
      INSERT INTO ${dialect.tableRef(IMPORTED_TABLE)} ("entity", "hash", "key") VALUES ${sql.join(rows)}
      ON CONFLICT ("entity", "hash") DO UPDATE SET "key" = excluded."key"
    `.execute(db);
  }
}
