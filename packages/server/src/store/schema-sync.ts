import { type Kysely, sql } from 'kysely';
import { type DialectSql, quote } from './dialect-sql';
import { diffPlans, type PlanDiff } from './migrate';
import { syncSearch } from './search-index';
import type { MigrationResult } from './store';
import { fnv1a, SCHEMA_TABLE, type TablePlan } from './table-plan';

/** Kysely over tables known only at run time (from the model): every query is built with `sql`. */
export type DynamicKysely = Kysely<Record<string, never>>;

/**
 * Brings the database in line with `plan`: reads the applied plan from `_ninefold_schema`, diffs it,
 * refuses destructive steps without consent (changing nothing), and otherwise applies every step and
 * stores the new plan, all in one transaction (DDL is transactional in SQLite and PostgreSQL).
 */
/** The advisory lock a migration of the schema holds on PostgreSQL (see `Store.lockSchema`). */
export function schemaLockKey(schema: string | undefined): number {
  return fnv1a(`ninefold:${schema}`) | 0;
}

export async function syncSchema(
  db: DynamicKysely,
  dialect: DialectSql,
  plan: TablePlan,
  allowDestructive: boolean,
): Promise<MigrationResult> {
  if (dialect.name === 'postgres') {
    return db.transaction().execute(async (trx) => {
      // Two processes starting on one schema take turns instead of both creating the tables.
      await sql`SELECT pg_advisory_xact_lock(${schemaLockKey(dialect.schema)})`.execute(trx);
      return syncWith(trx, dialect, plan, allowDestructive);
    });
  }
  return db.connection().execute(async (connection) => {
    const diff = diffPlans(await readPlan(connection, dialect), plan);
    const rebuilding = allowDestructive && diff.destructive.length > 0;
    // SQLite rebuilds a table to drop or change its columns; references to it would block dropping the
    // old copy, so foreign keys are off meanwhile (this pragma is a no-op inside a transaction) and are
    // checked before committing.
    if (rebuilding) await sql`PRAGMA foreign_keys = OFF`.execute(connection);
    try {
      await sql`BEGIN IMMEDIATE`.execute(connection);
      try {
        const result = await syncWith(connection, dialect, plan, allowDestructive);
        if (rebuilding) {
          const broken = await sql<Record<string, unknown>>`PRAGMA foreign_key_check`.execute(connection);
          if (broken.rows.length > 0) {
            throw new Error(
              `Migration would leave broken references: ${JSON.stringify(broken.rows.slice(0, 5))}`,
            );
          }
        }
        await sql`COMMIT`.execute(connection);
        return result;
      } catch (error) {
        await sql`ROLLBACK`.execute(connection);
        throw error;
      }
    } finally {
      if (rebuilding) await sql`PRAGMA foreign_keys = ON`.execute(connection);
    }
  });
}

async function syncWith(
  db: DynamicKysely,
  dialect: DialectSql,
  plan: TablePlan,
  allowDestructive: boolean,
): Promise<MigrationResult> {
  const before = await readPlan(db, dialect);
  const diff = diffPlans(before, plan);
  if (diff.unchanged) return { ok: true, applied: [] };
  if (diff.destructive.length > 0 && !allowDestructive) return { ok: false, refused: diff.destructive };
  const run = (text: string) => sql.raw(text).execute(db);

  if (dialect.name === 'postgres') await applyPostgres(run, dialect, diff);
  else await applySqlite(run, dialect, diff);

  // Indexes: those no longer planned go; every planned one is ensured, which also restores the ones that
  // went with a dropped column or a rebuilt table.
  const dropped = new Set([...diff.dropTables, ...diff.recreateTables].map((table) => table.name));
  for (const { table, index } of diff.dropIndexes) {
    if (!dropped.has(table)) await run(dialect.dropIndex(index.name));
  }
  for (const table of plan.tables) {
    for (const index of table.indexes) await run(dialect.createIndex(table.name, index));
  }
  if (dialect.name === 'postgres') await syncForeignKeys(db, dialect, plan);
  const rebuilt = new Set([
    ...dropped,
    ...diff.createTables.map((table) => table.name),
    ...diff.alterTables
      .filter((altered) => altered.dropColumns.length > 0 || altered.changeColumns.length > 0)
      .map((altered) => altered.to.name),
  ]);
  await syncSearch(run, dialect, before, plan, rebuilt);
  await writePlan(db, dialect, plan);
  return { ok: true, applied: diff.steps };
}

type Run = (text: string) => Promise<unknown>;

async function applyPostgres(run: Run, dialect: DialectSql, diff: PlanDiff): Promise<void> {
  for (const table of diff.dropTables) await run(dialect.dropTable(table.name));
  for (const table of diff.recreateTables) await run(dialect.dropTable(table.name));
  for (const altered of diff.alterTables) {
    const table = altered.to.name;
    for (const column of altered.dropColumns) await run(dialect.dropColumn(table, column.name));
    for (const column of altered.changeColumns) {
      await run(dialect.dropColumn(table, column.name));
      await run(dialect.addColumn(table, column));
    }
    for (const column of altered.addColumns) await run(dialect.addColumn(table, column));
  }
  for (const table of [...diff.recreateTables, ...diff.createTables]) await run(dialect.createTable(table));
}

async function applySqlite(run: Run, dialect: DialectSql, diff: PlanDiff): Promise<void> {
  for (const table of diff.dropTables) await run(dialect.dropTable(table.name));
  for (const table of diff.recreateTables) {
    await run(dialect.dropTable(table.name));
    await run(dialect.createTable(table));
  }
  for (const altered of diff.alterTables) {
    if (altered.dropColumns.length === 0 && altered.changeColumns.length === 0) {
      for (const column of altered.addColumns) await run(dialect.addColumn(altered.to.name, column));
      continue;
    }
    // SQLite cannot drop a column that is indexed or references another table, nor change a column's
    // type: the table is rebuilt (its documented procedure), keeping the columns that did not change.
    const changed = new Set(altered.changeColumns.map((column) => column.name));
    const kept = altered.to.columns
      .filter(
        (column) => altered.from.columns.some((old) => old.name === column.name) && !changed.has(column.name),
      )
      .map((column) => quote(column.name));
    const columns = [...kept, '"_version"', '"_created_at"', '"_updated_at"'].join(', ');
    const temporary = `_ninefold_rebuild_${altered.to.name}`;
    await run(dialect.createTable(altered.to, temporary));
    await run(
      `INSERT INTO ${dialect.table(temporary)} (${columns}) SELECT ${columns} FROM ${dialect.table(altered.to.name)}`,
    );
    await run(dialect.dropTable(altered.to.name));
    await run(`ALTER TABLE ${dialect.table(temporary)} RENAME TO ${quote(altered.to.name)}`);
  }
  for (const table of diff.createTables) await run(dialect.createTable(table));
}

/** PostgreSQL: adds the planned foreign keys that are missing and drops the ones no longer planned. */
async function syncForeignKeys(db: DynamicKysely, dialect: DialectSql, plan: TablePlan): Promise<void> {
  const existing = await sql<{ table: string; name: string }>`
    SELECT t.relname AS "table", c.conname AS "name"
    FROM pg_constraint c
    JOIN pg_class t ON t.oid = c.conrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE c.contype = 'f' AND n.nspname = ${dialect.schema}
  `.execute(db);
  const have = new Set(existing.rows.map((row) => `${row.table}\u0000${row.name}`));
  const want = new Set<string>();
  for (const table of plan.tables) {
    for (const column of table.columns) {
      if (!column.references) continue;
      const id = `${table.name}\u0000${column.references.constraint}`;
      want.add(id);
      if (!have.has(id)) await sql.raw(dialect.addForeignKey(table.name, column)).execute(db);
    }
  }
  const planned = new Set(plan.tables.map((table) => table.name));
  for (const row of existing.rows) {
    if (planned.has(row.table) && !want.has(`${row.table}\u0000${row.name}`)) {
      await sql.raw(`ALTER TABLE ${dialect.table(row.table)} DROP CONSTRAINT ${quote(row.name)}`).execute(db);
    }
  }
}

async function readPlan(db: DynamicKysely, dialect: DialectSql): Promise<TablePlan | undefined> {
  await sql
    .raw(
      `CREATE TABLE IF NOT EXISTS ${dialect.table(SCHEMA_TABLE)} ` +
        '("id" INTEGER PRIMARY KEY, "plan" TEXT NOT NULL, "applied_at" TEXT NOT NULL)',
    )
    .execute(db);
  const result = await sql<{
    plan: string;
  }>`SELECT "plan" FROM ${dialect.tableRef(SCHEMA_TABLE)} WHERE "id" = 1`.execute(db);
  const text = result.rows[0]?.plan;
  if (text === undefined) return undefined;
  const plan = JSON.parse(text) as TablePlan;
  if (plan.format !== 1)
    throw new Error(`The database was migrated by a newer Ninefold (plan format ${plan.format})`);
  return plan;
}

async function writePlan(db: DynamicKysely, dialect: DialectSql, plan: TablePlan): Promise<void> {
  await sql`
    INSERT INTO ${dialect.tableRef(SCHEMA_TABLE)} ("id", "plan", "applied_at")
    VALUES (1, ${JSON.stringify(plan)}, ${new Date().toISOString()})
    ON CONFLICT ("id") DO UPDATE SET "plan" = excluded."plan", "applied_at" = excluded."applied_at"
  `.execute(db);
}
