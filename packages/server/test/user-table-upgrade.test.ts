// A database made before people were managed: its users table has no column for deactivation or ended
// sessions. Opened by this version, the table gains them, and every user it held signs in as before.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open-store';
import { dropSchema, exampleModel, PG_URL, postgresUnavailable, uniqueSchema } from './support/databases';

const model = exampleModel();
const BEFORE =
  '"id" TEXT NOT NULL PRIMARY KEY, "email" TEXT NOT NULL UNIQUE, "role" TEXT NOT NULL, ' +
  '"password_hash" TEXT, "api_key_hash" TEXT UNIQUE, "attributes" TEXT NOT NULL, "created_at" TEXT NOT NULL';
const ROW = `('u1', 'ann@shop.test', 'owner', 'scrypt$hash', NULL, '{"customerId":3}', '2026-01-01T00:00:00Z')`;
const pgSkip = await postgresUnavailable();

async function upgraded(url: string, schema?: string) {
  const store = await openStore({ model, url, ...(schema ? { schema } : {}) });
  try {
    const found = await store.findUser({ email: 'ann@shop.test' });
    expect(found).toMatchObject({ id: 'u1', role: 'owner', attributes: { customerId: 3 }, sessions: 0 });
    expect(found?.deactivatedAt).toBeUndefined();
    const changed = await store.updateUser('u1', {
      deactivatedAt: '2026-11-30T00:00:00Z',
      endSessions: true,
    });
    expect(changed).toMatchObject({ deactivatedAt: '2026-11-30T00:00:00Z', sessions: 1 });
  } finally {
    await store.close();
  }
}

describe('a users table made before people were managed', () => {
  it('gains its new columns on SQLite, keeping its users', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ninefold-users-')), 'old.db');
    const Database = createRequire(import.meta.url)('better-sqlite3');
    const old = new Database(file);
    old.exec(`CREATE TABLE "_ninefold_users" (${BEFORE}); INSERT INTO "_ninefold_users" VALUES ${ROW}`);
    old.close();
    await upgraded(`sqlite:${file}`);
  });

  it.skipIf(pgSkip !== undefined)(
    `gains its new columns on PostgreSQL, keeping its users${pgSkip ? ` — skipped: ${pgSkip}` : ''}`,
    async () => {
      const schema = uniqueSchema('users_upgrade');
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query(`CREATE TABLE "${schema}"."_ninefold_users" (${BEFORE})`);
      await client.query(`INSERT INTO "${schema}"."_ninefold_users" VALUES ${ROW}`);
      await client.end();
      try {
        await upgraded(PG_URL, schema);
      } finally {
        await dropSchema(schema);
      }
    },
  );
});
