// The audit trail on a domain of our own (a community radio, test/fixtures/radio.yaml), on both
// databases: generated writes by each role, some refused, then every reader's view of the trail held
// against an oracle written from the specification's words (point 6), not from the code under test:
//  - the producer "may do everything": every entry, every field, and who made it;
//  - a host reads and changes "their own programmes" (host is them) and "never sees the fees": the
//    entries of a programme that was or became theirs, of each side only what was theirs, never a fee;
//  - a listener "reads the programmes once they are scheduled; no notes, no fees", and changes nothing:
//    of each side only what was not a draft, never a note or a fee, never who made it;
//  - nobody signed in: nothing.
// Every write that was answered 2xx has exactly one entry, and a refused write none.
import { readFileSync } from 'node:fs';
import { loadSpec, type Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/seeded-random';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const RADIO = readFileSync(new URL('./fixtures/radio.yaml', import.meta.url), 'utf8');
const model = (() => {
  const loaded = loadSpec(RADIO, { file: 'radio.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model as Model;
})();

type Programme = Record<string, unknown> & { id: number; host?: string | null; status: string };
type Side = Record<string, unknown> | null;
interface Written {
  key: string;
  action: 'create' | 'update' | 'transition' | 'delete';
  byId: string;
  before: Side;
  after: Side;
}
interface Reader {
  name: string;
  id: string;
  headers: Record<string, string>;
  /** What the specification says this reader may read of a programme, and which fields it never sees. */
  reads: (programme: Record<string, unknown>) => boolean;
  hidden: string[];
  /** Whether the reader may change the programme: only then is it told who changed it. */
  mayChange: (programme: Record<string, unknown>) => boolean;
}

const WRITES = 70;
const databases = await testDatabases();

for (const database of databases) {
  const title = `the audit trail, on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    const people: Record<string, { id: string; headers: Record<string, string> }> = {};
    const written: Written[] = [];
    let refused = 0;

    beforeAll(async () => {
      schema = database.postgres ? uniqueSchema('audit') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store });
      for (const [name, role] of [
        ['producer', 'producer'],
        ['ana', 'host'],
        ['bo', 'host'],
        ['lee', 'listener'],
      ] as const) {
        const signed = await signInAs(app, store, role, {}, `${name}@radio.test`);
        people[name] = { id: signed.userId, headers: { authorization: signed.authorization } };
      }
      await generateWrites();
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await store?.close();
      if (schema) await dropSchema(schema);
    });

    const asProducer = async (id: number): Promise<Programme | null> => {
      const answer = await app.inject({ url: `/api/programmes/${id}`, headers: people.producer?.headers });
      return answer.statusCode === 200 ? (answer.json() as Programme) : null;
    };

    /** Writes drawn from a seeded stream: each role tries what people of it would, allowed or not. */
    async function generateWrites() {
      const random = seededRandom(20261130);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      const ids: number[] = [];
      let n = 0;
      for (let step = 0; step < WRITES; step++) {
        n++;
        const who = pick(['producer', 'producer', 'ana', 'bo', 'lee'] as const);
        const person = people[who] as { id: string; headers: Record<string, string> };
        const hostOf = () => pick([people.ana?.id, people.bo?.id, null]);
        const kind =
          ids.length < 4 ? 'create' : pick(['create', 'update', 'update', 'schedule', 'air', 'delete']);
        const id = ids.length > 0 ? pick(ids) : 0;
        const before = kind === 'create' ? null : await asProducer(id);
        let answer: Awaited<ReturnType<typeof app.inject>> | undefined;
        switch (kind) {
          case 'create': {
            const host = who === 'producer' ? hostOf() : person.id;
            answer = await app.inject({
              method: 'POST',
              url: '/api/programmes',
              headers: person.headers,
              payload: {
                title: `Programme ${n}`,
                slot: pick(['Mon 06:00', 'Wed 21:00', 'Sat 10:00']),
                notes: `note-${n}-for-the-producer`,
                ...(host === null ? {} : { host }),
                ...(who === 'producer' ? { fee: 7000 + n } : {}),
              },
            });
            break;
          }
          case 'update': {
            const version = await app.inject({ url: `/api/programmes/${id}`, headers: person.headers });
            const change: Record<string, unknown> = { title: `Programme ${n}, retitled` };
            if (random() < 0.5) change.notes = `note-${n}-changed`;
            if (who === 'producer' && random() < 0.4) change.host = hostOf();
            if (who === 'producer' && random() < 0.4) change.fee = 7000 + n;
            answer = await app.inject({
              method: 'PATCH',
              url: `/api/programmes/${id}`,
              headers: { ...person.headers, 'if-match': version.headers.etag ?? '"0"' },
              payload: change,
            });
            break;
          }
          case 'schedule':
          case 'air':
            answer = await app.inject({
              method: 'POST',
              url: `/api/programmes/${id}/${kind}`,
              headers: person.headers,
            });
            break;
          case 'delete':
            answer = await app.inject({
              method: 'DELETE',
              url: `/api/programmes/${id}`,
              headers: person.headers,
            });
            break;
        }
        if (answer === undefined || answer.statusCode >= 300) {
          refused++;
          continue;
        }
        const key = kind === 'create' ? (answer.json() as Programme).id : id;
        if (kind === 'create') ids.push(key);
        if (kind === 'delete') ids.splice(ids.indexOf(key), 1);
        const after = kind === 'delete' ? null : await asProducer(key);
        written.push({
          key: String(key),
          action: kind === 'schedule' || kind === 'air' ? 'transition' : (kind as Written['action']),
          byId: person.id,
          before,
          after,
        });
      }
    }

    const readers = (): Reader[] => [
      {
        name: 'producer',
        id: people.producer?.id ?? '',
        headers: people.producer?.headers ?? {},
        reads: () => true,
        hidden: [],
        mayChange: () => true,
      },
      ...(['ana', 'bo'] as const).map((name) => ({
        name,
        id: people[name]?.id ?? '',
        headers: people[name]?.headers ?? {},
        reads: (programme: Record<string, unknown>) => programme.host === people[name]?.id,
        hidden: ['fee'],
        mayChange: (programme: Record<string, unknown>) => programme.host === people[name]?.id,
      })),
      {
        name: 'lee',
        id: people.lee?.id ?? '',
        headers: people.lee?.headers ?? {},
        reads: (programme: Record<string, unknown>) => programme.status !== 'draft',
        hidden: ['notes', 'fee'],
        mayChange: () => false,
      },
    ];

    /** The oracle: what the specification's words let a reader see of each write, newest first. */
    function expected(reader: Reader) {
      const entries = [];
      for (const write of [...written].reverse()) {
        const shown = (side: Side) =>
          side !== null && reader.reads(side)
            ? Object.fromEntries(Object.entries(side).filter(([field]) => !reader.hidden.includes(field)))
            : undefined;
        const was = shown(write.before);
        const is = shown(write.after);
        if (was === undefined && is === undefined) continue;
        const changes = [...new Set([...Object.keys(was ?? {}), ...Object.keys(is ?? {})])]
          .filter(
            (field) =>
              was === undefined ||
              is === undefined ||
              JSON.stringify(was[field]) !== JSON.stringify(is[field]),
          )
          .map((field) => ({
            field,
            ...(was?.[field] === undefined ? {} : { before: was[field] }),
            ...(is?.[field] === undefined ? {} : { after: is[field] }),
          }))
          .sort((a, b) => a.field.localeCompare(b.field));
        const image = (is ?? was) as Record<string, unknown>;
        entries.push({
          key: write.key,
          action: write.action,
          changes,
          ...(reader.mayChange(
            write.after !== null && reader.reads(write.after) ? write.after : (write.before ?? {}),
          )
            ? { by: write.byId }
            : {}),
          image,
        });
      }
      return entries.map(({ image: _image, ...entry }) => entry);
    }

    async function trail(headers: Record<string, string>, url = '/api/_audit') {
      const items: Array<Record<string, unknown>> = [];
      let next: string | undefined;
      do {
        const answer = await app.inject({
          url: `${url}${url.includes('?') ? '&' : '?'}limit=17${next ? `&before=${next}` : ''}`,
          headers,
        });
        expect(answer.statusCode, answer.body).toBe(200);
        const page = answer.json() as { items: Array<Record<string, unknown>>; next?: string };
        items.push(...page.items);
        next = page.next;
      } while (next !== undefined);
      return items;
    }

    const comparable = (entry: Record<string, unknown>) => ({
      key: entry.key,
      action: entry.action,
      changes: [...(entry.changes as Array<{ field: string }>)].sort((a, b) =>
        a.field.localeCompare(b.field),
      ),
      ...(entry.by === undefined ? {} : { by: (entry.by as { id: string } | null)?.id }),
    });

    it('were made of every kind, some refused', () => {
      const kinds = new Set(written.map((write) => write.action));
      expect([...kinds].sort()).toEqual(['create', 'delete', 'transition', 'update']);
      expect(refused).toBeGreaterThan(5);
      expect(written.length).toBeGreaterThan(30);
    });

    it('holds exactly one entry per write that went through, and none for a refused one', async () => {
      const all = await trail(people.producer?.headers ?? {});
      expect(all).toHaveLength(written.length);
    });

    for (const name of ['producer', 'ana', 'bo', 'lee']) {
      it(`shows ${name} what point 6 lets them read, field by field, and who only to those who may change it`, async () => {
        const reader = readers().find((candidate) => candidate.name === name) as Reader;
        const answered = (await trail(reader.headers)).map(comparable);
        expect(answered).toEqual(expected(reader));
        // Nothing hidden from the reader is anywhere in what they were given, before or after.
        const text = JSON.stringify(await trail(reader.headers));
        if (reader.hidden.includes('fee')) expect(text).not.toMatch(/"(before|after)":7\d{3}\b/);
        if (reader.hidden.includes('notes')) expect(text).not.toContain('-for-the-producer');
      });
    }

    it('answers one record’s trail only to a reader who may read the record', async () => {
      const last = [...written].reverse().find((write) => write.after !== null) as Written;
      const url = `/api/_audit/Programme/${last.key}`;
      const producer = await trail(people.producer?.headers ?? {}, url);
      expect(producer.map(comparable)).toEqual(
        expected(readers()[0] as Reader).filter((entry) => entry.key === last.key),
      );
      for (const reader of readers().slice(1)) {
        const answer = await app.inject({ url, headers: reader.headers });
        const current = last.after as Record<string, unknown>;
        expect(answer.statusCode, `${reader.name}: ${answer.body}`).toBe(reader.reads(current) ? 200 : 404);
      }
    });

    it('refuses a reader who is not signed in', async () => {
      expect((await app.inject({ url: '/api/_audit' })).statusCode).toBe(401);
    });

    it('exports what a listener may see as CSV, one row per changed field, and nothing more', async () => {
      const answer = await app.inject({
        url: '/api/_audit',
        headers: { ...people.lee?.headers, accept: 'text/csv' },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toContain('text/csv');
      const lines = answer.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(lines[0]).toBe('at,entity,key,action,transition,call,by,field,before,after');
      const rows = expected(readers()[3] as Reader).reduce(
        (sum, entry) => sum + Math.max(1, entry.changes.length),
        0,
      );
      expect(lines.length - 1).toBe(rows);
      expect(answer.body).not.toContain('-for-the-producer');
      expect(answer.body).not.toMatch(/,7\d{3}(,|\n)/);
    });
  });
}

describe('the audit trail’s settings', () => {
  it('off, writes leave no entry, and neither the contract nor the API names the trail', async () => {
    const store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({ model, store, audit: false });
    const producer = await signInAs(app, store, 'producer', {}, 'producer@radio.test');
    const created = await app.inject({
      method: 'POST',
      url: '/api/programmes',
      headers: { authorization: producer.authorization },
      payload: { title: 'Unrecorded' },
    });
    expect(created.statusCode).toBe(201);
    expect(await store.auditEntries({ limit: 10 })).toEqual([]);
    expect(
      (await app.inject({ url: '/api/_audit', headers: { authorization: producer.authorization } }))
        .statusCode,
    ).toBe(404);
    expect((await app.inject({ url: '/spec.json' })).json().api.audit).toBeUndefined();
    await app.close();
    await store.close();
  });

  it('keeps entries for the retention asked, removing only the older ones', async () => {
    const store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    let now = new Date('2026-01-10T09:00:00Z');
    const app = await buildApp({ model, store, now: () => now });
    const producer = await signInAs(app, store, 'producer', {}, 'producer@radio.test');
    const create = (title: string) =>
      app.inject({
        method: 'POST',
        url: '/api/programmes',
        headers: { authorization: producer.authorization },
        payload: { title },
      });
    await create('Old');
    now = new Date('2026-03-10T09:00:00Z');
    await create('New');
    expect(await store.pruneAudit('2026-02-01T00:00:00.000Z')).toBe(1);
    const left = await store.auditEntries({ limit: 10 });
    expect(left.map((entry) => entry.after?.title)).toEqual(['New']);
    expect((await app.inject({ url: '/spec.json' })).json().api.audit).toBe('/_audit');
    await app.close();
    await store.close();
  });
});
