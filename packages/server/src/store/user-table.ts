import type { JsonValue } from '@ninefold/model';
import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import type { DynamicKysely } from './schema-sync';
import type { NewUser, StoredUser, UserLink, UserLookup, UserPatch } from './store';
import { fnv1a, USER_LINKS_TABLE, USERS_TABLE } from './table-plan';

/**
 * Creates the users table if it is missing. Like the files table it is outside the table plan: no entity
 * of the model describes it, and a model change never touches it. Emails are kept lower-cased, so that
 * `Ann@Shop.test` and `ann@shop.test` are one account.
 */
export async function ensureUserTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  const create = async (db: DynamicKysely) => {
    await sql
      .raw(
        `CREATE TABLE IF NOT EXISTS ${dialect.table(USERS_TABLE)} (` +
          `"id" TEXT NOT NULL PRIMARY KEY, "email" TEXT NOT NULL UNIQUE, "role" TEXT NOT NULL, ` +
          `"password_hash" TEXT, "api_key_hash" TEXT UNIQUE, "attributes" TEXT NOT NULL, "created_at" TEXT NOT NULL, ` +
          `"deactivated_at" TEXT, "sessions" INTEGER NOT NULL DEFAULT 0)`,
      )
      .execute(db);
    // A table made before people were managed gains their columns; its rows keep what they had.
    const columns = await userColumns(db, dialect);
    if (!columns.has('deactivated_at')) {
      await sql.raw(`ALTER TABLE ${dialect.table(USERS_TABLE)} ADD COLUMN "deactivated_at" TEXT`).execute(db);
    }
    if (!columns.has('sessions')) {
      await sql
        .raw(`ALTER TABLE ${dialect.table(USERS_TABLE)} ADD COLUMN "sessions" INTEGER NOT NULL DEFAULT 0`)
        .execute(db);
    }
    await sql
      .raw(
        `CREATE TABLE IF NOT EXISTS ${dialect.table(USER_LINKS_TABLE)} (` +
          `"token_hash" TEXT NOT NULL PRIMARY KEY, "user_id" TEXT NOT NULL, "purpose" TEXT NOT NULL, ` +
          `"expires_at" TEXT NOT NULL, "used_at" TEXT)`,
      )
      .execute(db);
  };
  if (dialect.name === 'postgres' && !inTransaction) {
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${fnv1a(`ninefold-users:${dialect.schema}`) | 0})`.execute(trx);
      await create(trx);
    });
    return;
  }
  await create(db);
}

async function userColumns(db: DynamicKysely, dialect: DialectSql): Promise<Set<string>> {
  const result =
    dialect.name === 'postgres'
      ? await sql<{ name: string }>`
          SELECT column_name AS "name" FROM information_schema.columns
          WHERE table_schema = ${dialect.schema ?? 'public'} AND table_name = ${USERS_TABLE}`.execute(db)
      : await sql<{ name: string }>`SELECT "name" FROM pragma_table_info(${USERS_TABLE})`.execute(db);
  return new Set(result.rows.map((row) => row.name));
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
    SELECT ${USER_COLUMNS} FROM ${dialect.tableRef(USERS_TABLE)} WHERE ${sql.id(column)} = ${value}
  `.execute(db);
  const row = result.rows[0];
  return row ? fromRow(row) : undefined;
}

const USER_COLUMNS = sql.raw(
  '"id", "email", "role", "password_hash", "api_key_hash", "attributes", "deactivated_at", "sessions"',
);

/** Every user, by email: the people a manager sees (a team's, not a crowd's, so one page). */
export async function selectUsers(
  db: DynamicKysely,
  dialect: DialectSql,
  limit: number,
): Promise<StoredUser[]> {
  const result = await sql<UserRow>`
    SELECT ${USER_COLUMNS} FROM ${dialect.tableRef(USERS_TABLE)} ORDER BY "email" LIMIT ${limit}
  `.execute(db);
  return result.rows.map(fromRow);
}

/** Changes a user; `endSessions` counts their sessions on, so that every token issued before is refused. */
export async function updateUser(
  db: DynamicKysely,
  dialect: DialectSql,
  id: string,
  patch: UserPatch,
): Promise<StoredUser | undefined> {
  const sets = [
    ...(patch.role === undefined ? [] : [sql`"role" = ${patch.role}`]),
    ...(patch.attributes === undefined ? [] : [sql`"attributes" = ${JSON.stringify(patch.attributes)}`]),
    ...(patch.deactivatedAt === undefined ? [] : [sql`"deactivated_at" = ${patch.deactivatedAt}`]),
    ...(patch.passwordHash === undefined ? [] : [sql`"password_hash" = ${patch.passwordHash}`]),
    ...(patch.endSessions ? [sql`"sessions" = "sessions" + 1`] : []),
  ];
  if (sets.length > 0) {
    await sql`UPDATE ${dialect.tableRef(USERS_TABLE)} SET ${sql.join(sets)} WHERE "id" = ${id}`.execute(db);
  }
  return selectUser(db, dialect, { id });
}

/** Keeps a one-use link's token, as its hash: the token itself is only ever in the email. */
export async function insertUserLink(db: DynamicKysely, dialect: DialectSql, link: UserLink): Promise<void> {
  await sql`
    INSERT INTO ${dialect.tableRef(USER_LINKS_TABLE)} ("token_hash", "user_id", "purpose", "expires_at")
    VALUES (${link.tokenHash}, ${link.userId}, ${link.purpose}, ${link.expiresAt})
  `.execute(db);
}

/**
 * Uses a link once: one statement marks it used only if it is unused and unexpired, so two requests
 * racing with one token cannot both succeed.
 */
export async function redeemUserLink(
  db: DynamicKysely,
  dialect: DialectSql,
  tokenHash: string,
  now: string,
): Promise<Pick<UserLink, 'userId' | 'purpose'> | undefined> {
  const result = await sql<{ user_id: string; purpose: UserLink['purpose'] }>`
    UPDATE ${dialect.tableRef(USER_LINKS_TABLE)} SET "used_at" = ${now}
    WHERE "token_hash" = ${tokenHash} AND "used_at" IS NULL AND "expires_at" > ${now}
    RETURNING "user_id", "purpose"
  `.execute(db);
  const row = result.rows[0];
  return row ? { userId: row.user_id, purpose: row.purpose } : undefined;
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
  deactivated_at: string | null;
  sessions: number | string;
}

function fromRow(row: UserRow): StoredUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    attributes: parseAttributes(row.attributes),
    ...(row.deactivated_at === null ? {} : { deactivatedAt: row.deactivated_at }),
    sessions: Number(row.sessions),
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
