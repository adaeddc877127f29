import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import type { DynamicKysely } from './schema-sync';
import { fnv1a } from './table-plan';

/**
 * Creates one of the store's own tables (and its indexes) if missing. They are outside the table plan:
 * no entity describes them and a model change never touches them. On PostgreSQL, servers starting
 * together take turns (an advisory lock, in the caller's transaction when there is one), since two
 * concurrent `CREATE TABLE IF NOT EXISTS` can still collide there.
 */
export async function ensureOwnTable(
  db: DynamicKysely,
  dialect: DialectSql,
  lockName: string,
  statements: string[],
  inTransaction: boolean,
): Promise<void> {
  const create = async (executor: DynamicKysely) => {
    if (dialect.name === 'postgres') {
      await sql`SELECT pg_advisory_xact_lock(${fnv1a(`${lockName}:${dialect.schema}`) | 0})`.execute(
        executor,
      );
    }
    for (const statement of statements) await sql.raw(statement).execute(executor);
  };
  if (dialect.name === 'postgres' && !inTransaction) {
    await db.transaction().execute((trx) => create(trx));
    return;
  }
  await create(db);
}
