import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec } from '@ninefold/model';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open-store';
import { LISTENER_NAME } from '../src/store/pg-listener';
import type { ListQuery, Store } from '../src/store/store';
import { dropSchema, PG_URL, postgresUnavailable, uniqueSchema } from './support/databases';

const result = loadSpec(
  `title: T
entities:
  Note:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      tag: { kind: text }
`,
  { file: 't.yaml' },
);
const model = result.model;
if (!model) throw new Error('model');

const byTag = (tag: string, limit = 10): ListQuery => ({
  filters: [{ field: 'tag', op: 'eq', value: tag }],
  sort: [],
  limit,
  withTotal: true,
});
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** What another writer did reaches a PostgreSQL store by a notification, a moment after its commit. */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const until = Date.now() + 3000;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await read();
  }
  expect(last).toEqual(expected);
}

/** A writer outside the store: another process, or a person at the database's own prompt. */
interface RawWriter {
  run(text: string): Promise<void>;
  close(): Promise<void>;
}

interface Target {
  name: string;
  skip?: string;
  /** Two stores on one database: two processes of the API (two nodes on PostgreSQL). */
  open(): Promise<{ a: Store; b: Store; raw: RawWriter; table: (name: string) => string }>;
  /** Whether what another writer did is seen at once (SQLite) or after its notification (PostgreSQL). */
  immediate: boolean;
}

const pgUnavailable = await postgresUnavailable();
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

const targets: Target[] = [
  {
    name: 'SQLite',
    immediate: true,
    async open() {
      const file = join(mkdtempSync(join(tmpdir(), 'ninefold-cache-')), 'notes.db');
      const a = await openStore({ model: model as NonNullable<typeof model>, url: `sqlite:${file}` });
      const b = await openStore({ model: model as NonNullable<typeof model>, url: `sqlite:${file}` });
      stores.push(a, b);
      expect((await a.migrate({ allowDestructive: false })).ok).toBe(true);
      const Database = createRequire(import.meta.url)('better-sqlite3') as new (
        file: string,
      ) => { exec(text: string): void; close(): void };
      const db = new Database(file);
      return {
        a,
        b,
        table: (name) => `"${name}"`,
        raw: { run: async (text) => db.exec(text), close: async () => db.close() },
      };
    },
  },
  {
    name: 'PostgreSQL',
    immediate: false,
    ...(pgUnavailable && process.env.CI !== 'true' ? { skip: pgUnavailable } : {}),
    async open() {
      const schema = uniqueSchema('cache');
      schemas.push(schema);
      const options = { model: model as NonNullable<typeof model>, url: PG_URL, schema };
      const a = await openStore(options);
      stores.push(a);
      expect((await a.migrate({ allowDestructive: false })).ok).toBe(true);
      const b = await openStore(options);
      stores.push(b);
      expect((await b.migrate({ allowDestructive: false })).ok).toBe(true);
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      return {
        a,
        b,
        table: (name) => `"${schema}"."${name}"`,
        raw: {
          run: async (text) => {
            await client.query(text);
          },
          close: () => client.end(),
        },
      };
    },
  },
];

for (const target of targets) {
  describe.skipIf(target.skip !== undefined)(
    `what the store remembers of its reads, on ${target.name}`,
    () => {
      it('keeps pages and totals exact across its own writes, transactions, other nodes and plain SQL', async () => {
        const { a, b, raw, table } = await target.open();
        const tags = async (store: Store, tag: string) => {
          const page = await store.list('Note', byTag(tag));
          return { total: page.total, ids: page.items.map((item) => item.id) };
        };
        for (let i = 0; i < 3; i++) await a.create('Note', { tag: 'x' });
        expect(await tags(a, 'x')).toEqual({ total: 3, ids: [1, 2, 3] });
        expect(await tags(a, 'x')).toEqual({ total: 3, ids: [1, 2, 3] });

        // Its own writes are read back at once: the page asked right after a write is never the old one.
        await a.create('Note', { tag: 'x' });
        expect(await tags(a, 'x')).toEqual({ total: 4, ids: [1, 2, 3, 4] });
        await a.update('Note', 1, { tag: 'y' });
        expect(await tags(a, 'x')).toEqual({ total: 3, ids: [2, 3, 4] });
        expect(await tags(a, 'y')).toEqual({ total: 1, ids: [1] });
        await a.transaction(async (tx) => {
          await tx.create('Note', { tag: 'x' });
        });
        expect(await tags(a, 'x')).toEqual({ total: 4, ids: [2, 3, 4, 5] });
        await a.delete('Note', 3);
        expect(await tags(a, 'x')).toEqual({ total: 3, ids: [2, 4, 5] });

        // Another process of the API writes to the same database.
        expect(await tags(b, 'x')).toEqual({ total: 3, ids: [2, 4, 5] });
        await b.create('Note', { tag: 'x' });
        await b.delete('Note', 2);
        const afterB = { total: 3, ids: [4, 5, 6] };
        if (target.immediate) expect(await tags(a, 'x')).toEqual(afterB);
        else await eventually(() => tags(a, 'x'), afterB);

        // A person changes rows with plain SQL, behind every API's back.
        await raw.run(`UPDATE ${table('Note')} SET "tag" = 'z' WHERE "id" = 4`);
        const afterRaw = { total: 2, ids: [5, 6] };
        if (target.immediate) expect(await tags(a, 'x')).toEqual(afterRaw);
        else await eventually(() => tags(a, 'x'), afterRaw);
        await eventually(() => tags(b, 'x'), afterRaw);
        await raw.close();
      });

      it('forgets a user whose role another node or plain SQL changed, so the token’s role is checked', async () => {
        const { a, b, raw, table } = await target.open();
        const made = await a.createUser({ email: 'ana@example.test', role: 'clerk', attributes: {} });
        if (made === 'exists') throw new Error('the user must be new');
        expect((await a.findUser({ id: made.id }))?.role).toBe('clerk');
        expect((await b.findUser({ id: made.id }))?.role).toBe('clerk');
        await raw.run(`UPDATE ${table('_ninefold_users')} SET "role" = 'owner' WHERE "id" = '${made.id}'`);
        const role = async (store: Store) => (await store.findUser({ id: made.id }))?.role;
        if (target.immediate) expect(await role(a)).toBe('owner');
        else await eventually(() => role(a), 'owner');
        await eventually(() => role(b), 'owner');
        await raw.close();
      });

      it('hands out a remembered page frozen, so no caller can change what the next one gets', async () => {
        const { a, raw } = await target.open();
        await a.create('Note', { tag: 'x' });
        await a.list('Note', byTag('x'));
        const remembered = await a.list('Note', byTag('x'));
        expect(Object.isFrozen(remembered.items[0])).toBe(true);
        expect(() => {
          (remembered.items as unknown[]).push({});
        }).toThrow(TypeError);
        await raw.close();
      });
    },
  );
}

describe.skipIf(pgUnavailable !== undefined && process.env.CI !== 'true')(
  'the PostgreSQL store when its listening connection is lost',
  () => {
    it('forgets everything and sees what was written meanwhile, then listens again', async () => {
      const schema = uniqueSchema('cachelost');
      schemas.push(schema);
      const store = await openStore({ model: model as NonNullable<typeof model>, url: PG_URL, schema });
      stores.push(store);
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      for (let i = 0; i < 3; i++) await store.create('Note', { tag: 'x' });
      expect((await store.list('Note', byTag('x'))).total).toBe(3);

      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      try {
        const listening = async () =>
          (
            await admin.query(
              `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
              [LISTENER_NAME],
            )
          ).rows.map((row) => row.pid as number);
        const before = await listening();
        expect(before.length).toBeGreaterThan(0);
        await admin.query(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [before]);
        await admin.query(`UPDATE "${schema}"."Note" SET "tag" = 'z' WHERE "id" = 1`);
        await eventually(async () => (await store.list('Note', byTag('x'))).total, 2);
        // It connects again by itself, and what others write is seen through it again.
        await eventually(async () => (await listening()).some((pid) => !before.includes(pid)), true);
        expect((await store.list('Note', byTag('x'))).total).toBe(2);
        await admin.query(`UPDATE "${schema}"."Note" SET "tag" = 'z' WHERE "id" = 2`);
        await eventually(async () => (await store.list('Note', byTag('x'))).total, 1);
      } finally {
        await admin.end();
      }
    });
  },
);
