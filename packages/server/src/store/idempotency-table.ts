import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import { ensureOwnTable } from './own-table';
import type { DynamicKysely } from './schema-sync';
import type { IdempotencyClaim, IdempotencyEntry, StoredAnswer } from './store';
import { IDEMPOTENCY_TABLE } from './table-plan';

/**
 * The answers to keyed POST calls. A row is inserted (the key's hash is the primary key) before the call
 * is handled, so of two identical requests arriving together exactly one inserts it and runs; the other
 * finds the row. `status` stays NULL while the first is being handled. Times are milliseconds.
 */
export function ensureIdempotencyTable(db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) {
  const sqlite = dialect.name === 'sqlite';
  const bytes = sqlite ? 'BLOB' : 'BYTEA';
  const time = sqlite ? 'INTEGER' : 'BIGINT';
  return ensureOwnTable(
    db,
    dialect,
    'ninefold-idempotency',
    [
      `CREATE TABLE IF NOT EXISTS ${dialect.table(IDEMPOTENCY_TABLE)} (` +
        `"id" TEXT NOT NULL PRIMARY KEY, "token" TEXT NOT NULL, "fingerprint" TEXT NOT NULL, ` +
        `"status" INTEGER, "headers" TEXT, "body" ${bytes}, ` +
        `"lease_until" ${time} NOT NULL, "expires_at" ${time} NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS "_ninefold_idempotency_expires" ON ${dialect.table(IDEMPOTENCY_TABLE)} ("expires_at")`,
    ],
    inTransaction,
  );
}

/**
 * Claims a key: `claimed` when this request is the one to handle it; otherwise the row that holds it (its
 * answer, or none while it is being handled). An expired row, or a claim whose handler never finished
 * (the process died) once its lease has run out, is taken over.
 */
export async function claimKey(
  db: DynamicKysely,
  dialect: DialectSql,
  claim: IdempotencyClaim,
): Promise<'claimed' | IdempotencyEntry> {
  const table = dialect.tableRef(IDEMPOTENCY_TABLE);
  // A row can vanish between the insert and the read (its handler failed with a 5xx and released it):
  // then the claim is tried again.
  for (let attempt = 0; attempt < 3; attempt++) {
    await sql`
      DELETE FROM ${table} WHERE "id" = ${claim.id}
        AND ("expires_at" <= ${claim.now} OR ("status" IS NULL AND "lease_until" <= ${claim.now}))
    `.execute(db);
    // ON CONFLICT DO NOTHING: the loser of a race learns it from the row count, not from an error.
    const inserted = await sql`
      INSERT INTO ${table} ("id", "token", "fingerprint", "lease_until", "expires_at")
      VALUES (${claim.id}, ${claim.token}, ${claim.fingerprint}, ${claim.leaseUntil}, ${claim.expiresAt})
      ON CONFLICT DO NOTHING
    `.execute(db);
    if (Number(inserted.numAffectedRows ?? 0) === 1) return 'claimed';
    const found = await sql<IdempotencyRow>`
      SELECT "fingerprint", "status", "headers", "body" FROM ${table} WHERE "id" = ${claim.id}
    `.execute(db);
    const row = found.rows[0];
    if (row) return fromRow(row);
  }
  // Three times gone before it could be read: another request keeps claiming and failing. Say "busy".
  return { fingerprint: claim.fingerprint };
}

export async function completeKey(
  db: DynamicKysely,
  dialect: DialectSql,
  id: string,
  token: string,
  answer: StoredAnswer,
): Promise<boolean> {
  const updated = await sql`
    UPDATE ${dialect.tableRef(IDEMPOTENCY_TABLE)}
    SET "status" = ${answer.status}, "headers" = ${JSON.stringify(answer.headers)}, "body" = ${Buffer.from(answer.body)}
    WHERE "id" = ${id} AND "token" = ${token} AND "status" IS NULL
  `.execute(db);
  return Number(updated.numAffectedRows ?? 0) === 1;
}

/**
 * Frees every claim that has no answer. Safe at any moment for exactly-once: an answer is stored in the
 * transaction of the write it answers, so a claim without one made no write, and a handler still running
 * under a freed claim cannot store its answer (its token is gone) and rolls its write back.
 */
export async function releaseUnansweredKeys(db: DynamicKysely, dialect: DialectSql): Promise<number> {
  const deleted = await sql`
    DELETE FROM ${dialect.tableRef(IDEMPOTENCY_TABLE)} WHERE "status" IS NULL
  `.execute(db);
  return Number(deleted.numAffectedRows ?? 0);
}

export async function releaseKey(db: DynamicKysely, dialect: DialectSql, id: string, token: string) {
  await sql`
    DELETE FROM ${dialect.tableRef(IDEMPOTENCY_TABLE)} WHERE "id" = ${id} AND "token" = ${token}
  `.execute(db);
}

export async function purgeKeys(db: DynamicKysely, dialect: DialectSql, now: number): Promise<void> {
  await sql`DELETE FROM ${dialect.tableRef(IDEMPOTENCY_TABLE)} WHERE "expires_at" <= ${now}`.execute(db);
}

interface IdempotencyRow {
  fingerprint: string;
  status: number | string | null;
  headers: string | null;
  body: Uint8Array | null;
}

function fromRow(row: IdempotencyRow): IdempotencyEntry {
  if (row.status === null) return { fingerprint: row.fingerprint };
  return {
    fingerprint: row.fingerprint,
    answer: {
      status: Number(row.status),
      headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
      body: new Uint8Array(row.body ?? new Uint8Array()),
    },
  };
}
