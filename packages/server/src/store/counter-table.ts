import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import { ensureOwnTable } from './own-table';
import type { DynamicKysely } from './schema-sync';
import { COUNTERS_TABLE } from './table-plan';

/**
 * The counters that number records (`ORD-{seq:6}`), one row per entity and field. A number is taken by
 * an UPDATE inside the create's own transaction: the row lock makes concurrent creates take turns (no
 * repeats), and a create that is refused rolls its number back with it (no gaps), which a SEQUENCE
 * would not.
 */
export function ensureCounterTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  const number = dialect.name === 'sqlite' ? 'INTEGER' : 'BIGINT';
  return ensureOwnTable(
    db,
    dialect,
    'ninefold-counters',
    [
      `CREATE TABLE IF NOT EXISTS ${dialect.table(COUNTERS_TABLE)} (` +
        `"entity" TEXT NOT NULL, "field" TEXT NOT NULL, "value" ${number} NOT NULL, ` +
        `PRIMARY KEY ("entity", "field"))`,
    ],
    inTransaction,
  );
}

/** Takes the next number of a counter; a new counter gives 1 first. */
export async function takeNumber(
  db: DynamicKysely,
  dialect: DialectSql,
  entity: string,
  field: string,
): Promise<number> {
  const table = dialect.tableRef(COUNTERS_TABLE);
  await sql`
    INSERT INTO ${table} ("entity", "field", "value") VALUES (${entity}, ${field}, 0)
    ON CONFLICT ("entity", "field") DO NOTHING
  `.execute(db);
  const result = await sql<{ value: number | string }>`
    UPDATE ${table} SET "value" = "value" + 1 WHERE "entity" = ${entity} AND "field" = ${field}
    RETURNING "value"
  `.execute(db);
  return Number(result.rows[0]?.value);
}
