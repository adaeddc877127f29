import { loadSpec, type Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { pointsSaid } from '../../../test/support/points-said';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';

const ENTITIES = `
entities:
  Note:
    key: id
    display: title
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
      rank: { kind: integer }
`;

function model(yaml: string): Model {
  const result = loadSpec(pointsSaid(yaml), { file: 'styles.yaml' });
  if (!result.model || !result.ok) throw new Error(JSON.stringify(result.issues));
  return result.model;
}

const opened: Array<{ app: FastifyInstance; store: Store }> = [];
afterEach(async () => {
  for (const { app, store } of opened.splice(0)) {
    await app.close();
    await store.close();
  }
});

async function serveNotes(yaml: string, count: number) {
  const m = model(yaml);
  const store = await openStore({ model: m, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  for (let rank = 1; rank <= count; rank++) await store.create('Note', { title: `Note ${rank}`, rank });
  const app = await buildApp({ model: m, store });
  opened.push({ app, store });
  return app;
}

describe('the calls the API serves when point 7 is not shown', () => {
  it('are conventional REST calls, and /spec.json says they are conventional', async () => {
    const app = await serveNotes(`title: Notes\n${ENTITIES}`, 30);
    const spec = (await app.inject({ url: '/spec.json' })).json();
    expect(spec.model.calls).toEqual({ shown: false });
    expect(spec.api.conventional).toBe(true);
    expect(
      spec.api.calls.map((call: { method: string; path: string }) => `${call.method} ${call.path}`),
    ).toEqual(['GET /notes', 'GET /notes/{id}', 'POST /notes', 'PATCH /notes/{id}', 'DELETE /notes/{id}']);
    const page = (await app.inject({ url: '/api/notes?page=3&limit=10&sort=-rank' })).json();
    expect(page.total).toBe(30);
    expect(page.items.map((note: { rank: number }) => note.rank)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    const created = await app.inject({
      method: 'POST',
      url: '/api/notes',
      payload: { title: 'New', rank: 31 },
    });
    expect(created.statusCode).toBe(201);
  });
});

describe('a nested collection', () => {
  const nested = `
calls:
  operations:
    notesOfRank:
      method: GET
      path: /ranks/{rank}/notes
      purpose: list
      entity: Note
      response: { shape: envelope, items: items, total: total }
      pagination: page
`;

  it('filters by the field its path parameter names', async () => {
    const app = await serveNotes(`title: Notes\n${ENTITIES}${nested}`, 5);
    const page = (await app.inject({ url: '/api/ranks/3/notes' })).json();
    expect(page.items.map((note: { rank: number }) => note.rank)).toEqual([3]);
  });

  // Regression: a path value of the wrong type used to reach the database as NaN instead of a 400.
  it('refuses a path value of the wrong type with a 400 that names it', async () => {
    const app = await serveNotes(`title: Notes\n${ENTITIES}${nested}`, 5);
    const answer = await app.inject({ url: '/api/ranks/abc/notes' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      code: 'INVALID_QUERY',
      detail: 'Filter "rank" must be a whole number, not "abc".',
    });
  });
});

describe('pagination styles named by the calls', () => {
  const calls = (pagination: string, response = '{ shape: envelope, items: items, total: total }') => `
calls:
  operations:
    listNotes:
      method: GET
      path: /notes
      purpose: list
      entity: Note
      response: ${response}
      pagination: ${pagination}
      sort: { fields: [rank] }
`;

  it('cursor: walks every record once, then a null cursor; a forged cursor is a 400', async () => {
    const app = await serveNotes(
      `title: Notes\n${ENTITIES}${calls('{ style: cursor, cursorParam: after, sizeParam: first, nextField: next }', '{ shape: envelope, items: items }')}`,
      25,
    );
    const seen: number[] = [];
    let cursor: string | null = null;
    for (let round = 0; round < 5; round++) {
      const query: string = cursor ? `&after=${encodeURIComponent(cursor)}` : '';
      const page = (await app.inject({ url: `/api/notes?first=10&sort=-rank${query}` })).json();
      seen.push(...page.items.map((note: { rank: number }) => note.rank));
      cursor = page.next;
      if (cursor === null) break;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    const forged = await app.inject({ url: '/api/notes?after=not-a-cursor' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('INVALID_CURSOR');
  });

  it('cursor with a total in its answer: each page says how many there are, as the call says', async () => {
    const app = await serveNotes(
      `title: Notes\n${ENTITIES}${calls('{ style: cursor, cursorParam: after, sizeParam: first, nextField: next }', '{ shape: envelope, items: items, total: total }')}`,
      12,
    );
    const first = (await app.inject({ url: '/api/notes?first=5&sort=rank' })).json();
    expect(first).toMatchObject({ total: 12 });
    const second = (
      await app.inject({ url: `/api/notes?first=5&sort=rank&after=${encodeURIComponent(first.next)}` })
    ).json();
    expect(second).toMatchObject({ total: 12 });
    // Without a total in its answer, a cursor page counts nothing.
    const plain = await serveNotes(
      `title: Notes\n${ENTITIES}${calls('{ style: cursor, cursorParam: after, sizeParam: first, nextField: next }', '{ shape: envelope, items: items }')}`,
      3,
    );
    expect((await plain.inject({ url: '/api/notes?first=2' })).json()).not.toHaveProperty('total');
  });

  it('offset: offset and limit, with a total', async () => {
    const app = await serveNotes(`title: Notes\n${ENTITIES}${calls('offset')}`, 12);
    const page = (await app.inject({ url: '/api/notes?offset=10&limit=5&sort=rank' })).json();
    expect(page).toMatchObject({ total: 12 });
    expect(page.items.map((note: { rank: number }) => note.rank)).toEqual([11, 12]);
  });

  it('link-header: a bare array with Link and X-Total-Count headers', async () => {
    const app = await serveNotes(
      `title: Notes\n${ENTITIES}${calls('{ style: link-header, sizeParam: per_page }', '{ shape: array }')}`,
      12,
    );
    const answer = await app.inject({ url: '/api/notes?page=2&per_page=5&sort=rank' });
    expect(answer.json().map((note: { rank: number }) => note.rank)).toEqual([6, 7, 8, 9, 10]);
    expect(answer.headers['x-total-count']).toBe('12');
    expect(answer.headers.link).toBe(
      '</api/notes?page=1&per_page=5&sort=rank>; rel="prev", </api/notes?page=3&per_page=5&sort=rank>; rel="next"',
    );
  });

  it('none: every record, and no paging parameters accepted', async () => {
    const app = await serveNotes(`title: Notes\n${ENTITIES}${calls('none', '{ shape: array }')}`, 7);
    expect((await app.inject({ url: '/api/notes' })).json()).toHaveLength(7);
    expect((await app.inject({ url: '/api/notes?page=2' })).statusCode).toBe(400);
  });
});

// Issue 39: the conventions of a real server the specification describes (Platformatic's), which the
// prototype API then serves the same way: a sort parameter per field, and a LIKE whose value sits
// between `%` wildcards. Written and read by the same functions of the core as the client's.
describe('a sort parameter per field and a filter value in a pattern', () => {
  const calls = `
calls:
  operations:
    listNotes:
      method: GET
      path: /notes/
      purpose: list
      entity: Note
      response: { shape: array }
      pagination: { style: offset, offsetParam: offset, limitParam: limit }
      sort: { param: "orderby.{field}", fields: [rank, title], style: param-per-field }
      filters:
        - { field: title, param: where.title.like, op: contains, pattern: "%{value}%" }
`;

  it('sorts by orderby.<field> and filters by the value inside the pattern', async () => {
    const app = await serveNotes(`title: Notes\n${ENTITIES}${calls}`, 12);
    const page = (await app.inject({ url: '/api/notes/?orderby.rank=desc&where.title.like=%251%25' })).json();
    expect(page.map((note: { rank: number }) => note.rank)).toEqual([12, 11, 10, 1]);
  });

  it('refuses a value outside its pattern and a direction that is neither asc nor desc, naming each', async () => {
    const app = await serveNotes(`title: Notes\n${ENTITIES}${calls}`, 3);
    const outside = await app.inject({ url: '/api/notes/?where.title.like=Note' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().detail).toContain('Filter "where.title.like" must be written as %{value}%');
    const sideways = await app.inject({ url: '/api/notes/?orderby.rank=up' });
    expect(sideways.statusCode).toBe(400);
    expect(sideways.json().detail).toContain('"orderby.rank" must be asc or desc, not "up".');
  });
});
