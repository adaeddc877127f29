import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import { ensureOwnTable } from './own-table';
import type { DynamicKysely } from './schema-sync';
import type { IdempotencyClaim, IdempotencyEntry, StoredAnswer } from './store';
import { fnv1a, IDEMPOTENCY_TABLE } from './table-plan';

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
        `"lease_until" ${time} NOT NULL, "expires_at" ${time} NOT NULL, "holder" INTEGER)`,
      // Tables made before claims named their holder.
      ...(sqlite
        ? []
        : [`ALTER TABLE ${dialect.table(IDEMPOTENCY_TABLE)} ADD COLUMN IF NOT EXISTS "holder" INTEGER`]),
      `CREATE INDEX IF NOT EXISTS "_ninefold_idempotency_expires" ON ${dialect.table(IDEMPOTENCY_TABLE)} ("expires_at")`,
    ],
    inTransaction,
  );
}

/**
 * The namespace of the advisory locks by which each PostgreSQL node says it is alive (the first of the
 * lock's two keys; the second is the node's holder number, see `startWriteListener`). Positive, as are
 * holders, so that both read back unchanged from `pg_locks`, whose keys are unsigned.
 */
export const HOLDER_LOCK_NAMESPACE = fnv1a('ninefold-idempotency-holder') >>> 1;

/**
 * Claims a key: `claimed` when this request is the one to handle it; otherwise the row that holds it (its
 * answer, or none while it is being handled). An expired row, or a claim whose handler never finished
 * (the process died) once its lease has run out, is taken over. On PostgreSQL a claim names its node
 * (`holder`), and one whose node no longer holds its advisory lock is taken over at once: the node is
 * gone (killed, or cut off from the database), so a client's retry after a crash waits milliseconds,
 * not the lease.
 */
export async function claimKey(
  db: DynamicKysely,
  dialect: DialectSql,
  claim: IdempotencyClaim,
): Promise<'claimed' | IdempotencyEntry> {
  const table = dialect.tableRef(IDEMPOTENCY_TABLE);
  const holderGone =
    dialect.name === 'postgres'
      ? sql`OR ("status" IS NULL AND "holder" IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM pg_locks WHERE "locktype" = 'advisory' AND "granted" AND "objsubid" = 2
            AND "database" = (SELECT "oid" FROM pg_database WHERE "datname" = current_database())
            AND "classid" = ${HOLDER_LOCK_NAMESPACE}::int8::oid AND "objid" = "holder"::int8::oid))`
      : sql``;
  // A row can vanish between the insert and the read (its handler failed with a 5xx and released it):
  // then the claim is tried again.
  for (let attempt = 0; attempt < 3; attempt++) {
    await sql`
      DELETE FROM ${table} WHERE "id" = ${claim.id}
        AND ("expires_at" <= ${claim.now} OR ("status" IS NULL AND "lease_until" <= ${claim.now}) ${holderGone})
    `.execute(db);
    // ON CONFLICT DO NOTHING: the loser of a race learns it from the row count, not from an error.
    const inserted = await sql`
      INSERT INTO ${table} ("id", "token", "fingerprint", "lease_until", "expires_at", "holder")
      VALUES (${claim.id}, ${claim.token}, ${claim.fingerprint}, ${claim.leaseUntil}, ${claim.expiresAt}, ${claim.holder ?? null})
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
