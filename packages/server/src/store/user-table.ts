import type { JsonValue } from '@ninefold/model';
import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import type { DynamicKysely } from './schema-sync';
import type { NewUser, StoredUser, UserLookup } from './store';
import { fnv1a, USERS_TABLE } from './table-plan';

/**
 * Creates the users table if it is missing. Like the files table it is outside the table plan: no entity
 * of the model describes it, and a model change never touches it. Emails are kept lower-cased, so that
 * `Ann@Shop.test` and `ann@shop.test` are one account.
 */
export async function ensureUserTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  const create = sql.raw(
    `CREATE TABLE IF NOT EXISTS ${dialect.table(USERS_TABLE)} (` +
      `"id" TEXT NOT NULL PRIMARY KEY, "email" TEXT NOT NULL UNIQUE, "role" TEXT NOT NULL, ` +
      `"password_hash" TEXT, "api_key_hash" TEXT UNIQUE, "attributes" TEXT NOT NULL, "created_at" TEXT NOT NULL)`,
  );
  if (dialect.name === 'postgres' && !inTransaction) {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${fnv1a(`ninefold-users:${dialect.schema}`) | 0})`.execute(trx);
      await create.execute(trx);
    });
    return;
  }
  await create.execute(db);
}

export async function insertUser(
  db: DynamicKysely,
  dialect: DialectSql,
  id: string,
  user: NewUser,
): Promise<StoredUser | 'exists'> {
  const email = user.email.toLowerCase();
  // ON CONFLICT DO NOTHING speaks both dialects, and no failed statement aborts a PostgreSQL transaction.
  const result = await sql`
    INSERT INTO ${dialect.tableRef(USERS_TABLE)}
      ("id", "email", "role", "password_hash", "api_key_hash", "attributes", "created_at")
    VALUES (${id}, ${email}, ${user.role}, ${user.passwordHash ?? null}, ${user.apiKeyHash ?? null},
      ${JSON.stringify(user.attributes)}, ${new Date().toISOString()})
    ON CONFLICT DO NOTHING
  `.execute(db);
  if (Number(result.numAffectedRows ?? 0) === 0) return 'exists';
  return { id, email, role: user.role, attributes: user.attributes, ...hashes(user) };
}

export async function selectUser(
  db: DynamicKysely,
  dialect: DialectSql,
  by: UserLookup,
): Promise<StoredUser | undefined> {
  const [column, value] =
    'id' in by
      ? (['id', by.id] as const)
      : 'email' in by
        ? (['email', by.email.toLowerCase()] as const)
        : (['api_key_hash', by.apiKeyHash] as const);
  const result = await sql<UserRow>`
    SELECT "id", "email", "role", "password_hash", "api_key_hash", "attributes"
    FROM ${dialect.tableRef(USERS_TABLE)} WHERE ${sql.id(column)} = ${value}
  `.execute(db);
  const row = result.rows[0];
  return row ? fromRow(row) : undefined;
}

export async function updateUserSecrets(
  db: DynamicKysely,
  dialect: DialectSql,
  id: string,
  secrets: Pick<NewUser, 'passwordHash' | 'apiKeyHash'>,
): Promise<void> {
  await sql`
    UPDATE ${dialect.tableRef(USERS_TABLE)}
    SET "password_hash" = ${secrets.passwordHash ?? null}, "api_key_hash" = ${secrets.apiKeyHash ?? null}
    WHERE "id" = ${id}
  `.execute(db);
}

export async function countUsers(db: DynamicKysely, dialect: DialectSql): Promise<number> {
  const result = await sql<{ count: number | string }>`
    SELECT COUNT(*) AS "count" FROM ${dialect.tableRef(USERS_TABLE)}
  `.execute(db);
  return Number(result.rows[0]?.count ?? 0);
}

interface UserRow {
  id: string;
  email: string;
  role: string;
  password_hash: string | null;
  api_key_hash: string | null;
  attributes: string;
}

function fromRow(row: UserRow): StoredUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    attributes: parseAttributes(row.attributes),
    ...(row.password_hash === null ? {} : { passwordHash: row.password_hash }),
    ...(row.api_key_hash === null ? {} : { apiKeyHash: row.api_key_hash }),
  };
}

function hashes(user: NewUser): Pick<StoredUser, 'passwordHash' | 'apiKeyHash'> {
  return {
    ...(user.passwordHash === undefined ? {} : { passwordHash: user.passwordHash }),
    ...(user.apiKeyHash === undefined ? {} : { apiKeyHash: user.apiKeyHash }),
  };
}

function parseAttributes(text: string): Record<string, JsonValue> {
  const value = JSON.parse(text) as unknown;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, JsonValue>)
    : {};
}
