// The search of a list (point 7's `search` parameter), answered by the database's own full-text index:
// FTS5 on SQLite, tsvector with GIN indexes on PostgreSQL (issue 20). Run on a domain of our own.

import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { dropSchema, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

function seedBank(change: (text: string) => string = (text) => text): Model {
  const text = change(readFileSync(new URL('./fixtures/seed-bank.yaml', import.meta.url), 'utf8'));
  const loaded = loadSpec(text, { file: 'seed-bank.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

const model = seedBank();
const databases = await testDatabases();

const VARIETIES: StoredRecord[] = [
  { code: 'TOM-1', name: 'Marmande', latin: 'Solanum lycopersicum', grower: 'Ines Duarte', packets: 12 },
  { code: 'TOM-2', name: 'Green Zebra', latin: 'Solanum lycopersicum', grower: 'Ada Lovelace', packets: 4 },
  {
    code: 'BEA-1',
    name: 'Cherokee Trail of Tears',
    latin: 'Phaseolus vulgaris',
    grower: 'Ada Byron',
    packets: 9,
  },
  {
    code: 'KAL-1',
    name: 'Red Russian',
    latin: 'Brassica napus',
    grower: 'Tom Marsh',
    packets: 0,
    story: 'Came with sailors from Archangel.',
    secretNote: 'Kept behind the boathouse',
  },
];

for (const database of databases) {
  const title = `a list searched, on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let keeper: { authorization: string };
    let volunteer: { authorization: string };
    let schema: string | undefined;

    beforeAll(async () => {
      schema = database.postgres ? uniqueSchema('search') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store });
      keeper = await signInAs(app, store, 'keeper');
      volunteer = await signInAs(app, store, 'volunteer');
      for (const variety of VARIETIES) {
        if (!(await store.create('Variety', variety)).ok) throw new Error('set-up failed: a variety');
      }
      for (const [variety, note, kind] of [
        ['TOM-1', 'Swapped at the spring fair', 'gift'],
        ['BEA-1', 'For two packets of kale', 'trade'],
      ] as const) {
        if (!(await store.create('Swap', { variety, note, kind })).ok)
          throw new Error('set-up failed: a swap');
      }
    });
    afterAll(async () => {
      await app?.close();
      await store?.close();
      if (schema) await dropSchema(schema);
    });

    async function found(url: string, who = keeper): Promise<string[]> {
      const answer = await app.inject({ url, headers: { authorization: who.authorization } });
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json().items as Array<{ code?: string; id?: number }>).map((item) =>
        String(item.code ?? item.id),
      );
    }

    it('finds records by any word of their text fields, as a prefix, whatever its case', async () => {
      expect(await found('/api/varieties?find=marmande')).toEqual(['TOM-1']);
      expect(await found('/api/varieties?find=ZEB')).toEqual(['TOM-2']);
      expect(await found('/api/varieties?find=lycopersicum&sort=name')).toEqual(['TOM-2', 'TOM-1']);
      // The grower is a text field too: the default searches every text field a person reads.
      expect(await found('/api/varieties?find=ada&sort=name')).toEqual(['BEA-1', 'TOM-2']);
    });

    it('wants every word, in any of the fields', async () => {
      expect(await found('/api/varieties?find=ada%20solanum')).toEqual(['TOM-2']);
      expect(await found('/api/varieties?find=ada%20brassica')).toEqual([]);
    });

    it('does not look in the key, in markdown, or anywhere a call does not name', async () => {
      expect(await found('/api/varieties?find=KAL')).toEqual([]);
      expect(await found('/api/varieties?find=archangel')).toEqual([]);
      // The swaps' call names its fields: the note (markdown) and the kind (an enum).
      expect(await found('/api/swaps?q=fair')).toEqual(['1']);
      expect(await found('/api/swaps?q=trade')).toEqual(['2']);
    });

    it('never looks where the role may not read', async () => {
      expect(await found('/api/varieties?find=boathouse')).toEqual(['KAL-1']);
      expect(await found('/api/varieties?find=boathouse', volunteer)).toEqual([]);
      expect(await found('/api/varieties?find=russian', volunteer)).toEqual(['KAL-1']);
    });

    it('keeps its filters, sort, page and total, and follows cursors through the matches only', async () => {
      const answer = await app.inject({
        url: '/api/swaps?q=packets%20kale',
        headers: { authorization: keeper.authorization },
      });
      expect(answer.json()).toMatchObject({ total: 1, items: [{ id: 2 }] });
      const first = await app.inject({
        url: '/api/varieties?find=solanum&first=1&sort=-packets',
        headers: { authorization: keeper.authorization },
      });
      expect(first.json().items.map((item: { code: string }) => item.code)).toEqual(['TOM-1']);
      const next = first.json().next as string;
      expect(
        await found(`/api/varieties?find=solanum&first=1&sort=-packets&after=${encodeURIComponent(next)}`),
      ).toEqual(['TOM-2']);
    });

    it('stays in step with every write', async () => {
      const made = await store.create('Variety', { code: 'PEA-1', name: 'Alderman', grower: 'Tom Marsh' });
      expect(made.ok).toBe(true);
      expect(await found('/api/varieties?find=alderman')).toEqual(['PEA-1']);
      const changed = await store.update('Variety', 'PEA-1', { name: 'Telephone' });
      expect(changed.ok).toBe(true);
      expect(await found('/api/varieties?find=alderman')).toEqual([]);
      expect(await found('/api/varieties?find=teleph')).toEqual(['PEA-1']);
      // A write that touches no searched field leaves the words where they were.
      expect((await store.update('Variety', 'PEA-1', { packets: 3 })).ok).toBe(true);
      expect(await found('/api/varieties?find=teleph')).toEqual(['PEA-1']);
      expect((await store.delete('Variety', 'PEA-1')).ok).toBe(true);
      expect(await found('/api/varieties?find=teleph')).toEqual([]);
    });

    it('reads any text as words, never as search syntax, and refuses a text too long to be a search', async () => {
      const all = await found('/api/varieties?sort=name');
      expect(all).toHaveLength(VARIETIES.length);
      // Nothing but punctuation is no word: the list is not narrowed.
      expect(await found(`/api/varieties?sort=name&find=${encodeURIComponent('-- " *')}`)).toEqual(all);
      for (const hostile of [
        '"ada',
        'ada OR zebra',
        'NEAR(ada zebra)',
        'name:ada',
        "ada' OR 1=1 --",
        'ada:*|zeb',
      ]) {
        const answer = await app.inject({
          url: `/api/varieties?find=${encodeURIComponent(hostile)}`,
          headers: { authorization: keeper.authorization },
        });
        expect(answer.statusCode, hostile).toBe(200);
      }
      expect(await found(`/api/varieties?find=${encodeURIComponent('ada OR zebra')}`)).toEqual([]);
      const long = await app.inject({
        url: `/api/varieties?find=${'a'.repeat(1001)}`,
        headers: { authorization: keeper.authorization },
      });
      expect(long.statusCode).toBe(400);
      expect(long.json().detail).toContain('"find" must be at most 1000 characters');
    });
  });

  describe.skipIf(database.skip !== undefined)(
    `a search added to a filled database, on ${database.name}`,
    () => {
      it('indexes the rows already there, and a search taken away leaves the list working', async () => {
        const schema = database.postgres ? uniqueSchema('search_added') : undefined;
        const url = database.postgres ? database.url : `sqlite:${tmpFile()}`;
        const without = seedBank((text) => text.replace('      search: find\n', ''));
        const options = { url, ...(schema ? { schema } : {}) };
        const before = await openStore({ model: without, ...options });
        try {
          expect((await before.migrate({ allowDestructive: false })).ok).toBe(true);
          for (const variety of VARIETIES) expect((await before.create('Variety', variety)).ok).toBe(true);
        } finally {
          await before.close();
        }
        const after = await openStore({ model, ...options });
        try {
          const migrated = await after.migrate({ allowDestructive: false });
          expect(migrated).toMatchObject({ ok: true });
          expect(JSON.stringify(migrated)).toContain(
            'full-text search index on \\"Variety\\" (name, latin, grower, secretNote)',
          );
          const result = await after.list('Variety', {
            filters: [],
            sort: [],
            limit: 10,
            withTotal: true,
            search: { text: 'zebra', fields: ['name'] },
          });
          expect(result.items.map((item) => item.code)).toEqual(['TOM-2']);
        } finally {
          await after.close();
        }
        const again = await openStore({ model: without, ...options });
        try {
          expect((await again.migrate({ allowDestructive: false })).ok).toBe(true);
          expect((await again.create('Variety', { code: 'X-1', name: 'Zebra again' })).ok).toBe(true);
          const plain = await again.list('Variety', { filters: [], sort: [], limit: 10, withTotal: true });
          expect(plain.total).toBe(VARIETIES.length + 1);
        } finally {
          await again.close();
          if (schema) await dropSchema(schema);
        }
      });
    },
  );
}

function tmpFile(): string {
  return `${process.env.TMPDIR ?? '/tmp'}/ninefold-search-${process.pid}-${Date.now()}.db`;
}
