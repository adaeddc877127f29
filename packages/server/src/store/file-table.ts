import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import type { DynamicKysely } from './schema-sync';
import type { NewFile, StoredFile } from './store';
import { FILES_TABLE, fnv1a } from './table-plan';

export { FILES_TABLE };

/**
 * Creates the files table if it is missing. It is not part of the table plan: it holds no entity, and a
 * model change never touches it. On PostgreSQL, servers starting together take turns (an advisory lock),
 * since two concurrent `CREATE TABLE IF NOT EXISTS` can still collide there.
 */
export async function ensureFileTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  const bytes = dialect.name === 'sqlite' ? 'BLOB' : 'BYTEA';
  const size = dialect.name === 'sqlite' ? 'INTEGER' : 'BIGINT';
  const create = sql.raw(
    `CREATE TABLE IF NOT EXISTS ${dialect.table(FILES_TABLE)} (` +
      `"id" TEXT NOT NULL PRIMARY KEY, "name" TEXT NOT NULL, "type" TEXT NOT NULL, ` +
      `"size" ${size} NOT NULL, "bytes" ${bytes} NOT NULL, "created_at" TEXT NOT NULL)`,
  );
  if (dialect.name === 'postgres' && !inTransaction) {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${fnv1a(`ninefold-files:${dialect.schema}`) | 0})`.execute(trx);
      await create.execute(trx);
    });
    return;
  }
  await create.execute(db);
}

export async function insertFile(db: DynamicKysely, dialect: DialectSql, id: string, file: NewFile) {
  await sql`
    INSERT INTO ${dialect.tableRef(FILES_TABLE)} ("id", "name", "type", "size", "bytes", "created_at")
    VALUES (${id}, ${file.name}, ${file.type}, ${file.bytes.byteLength}, ${Buffer.from(file.bytes)}, ${new Date().toISOString()})
  `.execute(db);
}

export async function selectFile(
  db: DynamicKysely,
  dialect: DialectSql,
  id: string,
): Promise<StoredFile | undefined> {
  const result = await sql<{ name: string; type: string; size: number | string; bytes: Uint8Array }>`
    SELECT "name", "type", "size", "bytes" FROM ${dialect.tableRef(FILES_TABLE)} WHERE "id" = ${id}
  `.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  return { id, name: row.name, type: row.type, size: Number(row.size), bytes: new Uint8Array(row.bytes) };
}

export async function removeFile(db: DynamicKysely, dialect: DialectSql, id: string): Promise<void> {
  await sql`DELETE FROM ${dialect.tableRef(FILES_TABLE)} WHERE "id" = ${id}`.execute(db);
}
