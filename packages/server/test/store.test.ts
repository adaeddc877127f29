import type { Entity, JsonValue } from '@ninefold/model';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { encodeCursor, InvalidCursorError } from '../src/store/cursor';
import type { ListQuery, Store, StoredRecord } from '../src/store/store';
import { modelOf } from './store-model';
import { describeOnEveryDatabase } from './store-targets';

const Address: Entity = {
  name: 'Address',
  embedded: true,
  fields: [
    { name: 'street', kind: 'text' },
    { name: 'city', kind: 'text' },
  ],
};
const Customer: Entity = {
  name: 'Customer',
  key: 'id',
  fields: [
    { name: 'id', kind: 'integer' },
    { name: 'name', kind: 'text' },
    { name: 'email', kind: 'text', format: 'email' },
    { name: 'vip', kind: 'boolean' },
    { name: 'balance', kind: 'money', currency: 'EUR' },
    { name: 'score', kind: 'number' },
    { name: 'visits', kind: 'integer' },
    { name: 'born', kind: 'date' },
    { name: 'lastSeen', kind: 'datetime' },
    { name: 'bio', kind: 'markdown' },
    { name: 'tier', kind: 'enum', values: [{ value: 'gold' }, { value: 'silver' }] },
    { name: 'address', kind: 'object', entity: 'Address' },
    { name: 'tags', kind: 'list', of: { kind: 'text' } },
    { name: 'avatar', kind: 'file' },
  ],
};
const OrderLine: Entity = {
  name: 'OrderLine',
  embedded: true,
  fields: [
    { name: 'product', kind: 'text' },
    { name: 'quantity', kind: 'integer' },
  ],
};
// `Order` is an SQL keyword: every name must be quoted.
const Order: Entity = {
  name: 'Order',
  key: 'number',
  fields: [
    { name: 'number', kind: 'text' },
    { name: 'customer', kind: 'reference', entity: 'Customer' },
    { name: 'status', kind: 'enum', values: [{ value: 'open' }, { value: 'paid' }] },
    { name: 'total', kind: 'money' },
    { name: 'placedAt', kind: 'datetime' },
    { name: 'lines', kind: 'list', of: { kind: 'object', entity: 'OrderLine' } },
  ],
};
/** No key: the store keeps a hidden integer `id`. */
const Note: Entity = { name: 'Note', fields: [{ name: 'body', kind: 'text' }] };

const model = modelOf({
  entities: [Address, Customer, OrderLine, Order, Note],
  screens: [
    {
      kind: 'list',
      name: 'customers',
      route: '/customers',
      entity: 'Customer',
      columns: ['name', 'email'],
      filters: ['tier', 'vip'],
      sort: [
        { field: 'name', direction: 'asc' },
        { field: 'visits', direction: 'desc' },
      ],
    },
  ],
  calls: [
    {
      name: 'listOrders',
      method: 'GET',
      path: '/orders',
      purpose: 'list',
      entity: 'Order',
      parameters: [],
      filters: [{ field: 'status', param: 'status', op: 'eq' }],
      sort: { param: 'sort', fields: ['placedAt'], style: 'field,-field' },
    },
  ],
  constraints: [{ entity: 'Customer', field: ['email'], unique: true }],
});

/** Every field kind, with values that need care: quotes, SQL, backslashes, Unicode, zero, false, []. */
const everyKind: StoredRecord = {
  name: `Zoë O'Brien "the 1st"; DROP TABLE "Customer";--`,
  email: 'zoe@example.com',
  vip: false,
  balance: 1234.56,
  score: -0.125,
  visits: 0,
  born: '1990-02-28',
  lastSeen: '2026-05-31T23:59:59.999Z',
  bio: '# Hello\n\n*markdown* with ünïcödé 😀, a \\ backslash and 100% _wild_ cards',
  tier: 'gold',
  address: { street: "1 Rue de l'Église", city: 'Zürich' },
  tags: ['a', '', '日本'],
  avatar: { name: 'me.png', size: 1024, type: 'image/png', nested: { list: [1, 2.5, null, true] } },
};

/** Names chosen for byte order, LIKE wildcards, case and Unicode; `visits` has ties and gaps. */
const people: Array<{ name: string; visits?: number; tier?: string; vip?: boolean; born?: string }> = [
  { name: 'Anna', visits: 5, tier: 'gold', vip: true, born: '1990-01-01' },
  { name: 'anna', visits: 5, tier: 'silver', vip: false, born: '1985-06-15' },
  { name: 'Bert', visits: 3, tier: 'gold', vip: false, born: '2001-12-31' },
  { name: 'Anna', visits: 2, tier: 'gold', vip: false },
  { name: '100% pure', tier: 'silver' },
  { name: '100 pure', visits: 7, tier: 'gold', vip: true },
  { name: 'a_b', visits: 5 },
  { name: 'axb', visits: 1, tier: 'silver' },
  { name: 'back\\slash', tier: 'gold' },
  { name: 'Zoë 😀', visits: 9, tier: 'silver', vip: true },
  { name: '日本語', visits: 3 },
];

function query(parts: Partial<ListQuery> = {}): ListQuery {
  return { filters: [], sort: [], limit: 100, withTotal: false, ...parts };
}

function names(items: StoredRecord[]): JsonValue[] {
  return items.map((item) => item.name ?? null);
}

describeOnEveryDatabase('store', { label: 'store', sqlite: 'memory' }, (target) => {
  let store: Store;

  beforeEach(async () => {
    await target.fresh();
    store = await target.open(model);
    const migration = await store.migrate({ allowDestructive: false });
    expect(migration.ok).toBe(true);
  });
  afterEach(async () => {
    await store.close();
  });

  async function createPeople(): Promise<number[]> {
    const ids: number[] = [];
    for (const [index, person] of people.entries()) {
      const created = await store.create('Customer', { ...person, email: `p${index}@x.test` });
      if (!created.ok) throw new Error(JSON.stringify(created.failure));
      ids.push(created.value.id as number);
    }
    return ids;
  }

  it('reports its dialect', () => {
    expect(store.dialect).toBe(target.dialect);
  });

  it('stores every field kind and gives it back exactly as JSON', async () => {
    const created = await store.create('Customer', everyKind);
    expect(created).toEqual({ ok: true, value: { id: 1, ...everyKind } });
    expect(await store.get('Customer', 1)).toStrictEqual({ id: 1, ...everyKind });
    expect(await store.get('Customer', '1')).toStrictEqual({ id: 1, ...everyKind });

    const updated = await store.update('Customer', 1, { vip: true, visits: 7, tags: [], bio: null });
    const { bio: _bio, ...rest } = everyKind;
    expect(updated).toEqual({ ok: true, value: { id: 1, ...rest, vip: true, visits: 7, tags: [] } });
    expect(await store.get('Customer', 1)).toStrictEqual({ id: 1, ...rest, vip: true, visits: 7, tags: [] });

    expect(await store.delete('Customer', 1)).toEqual({ ok: true, value: true });
    expect(await store.get('Customer', 1)).toBeUndefined();
  });

  it('leaves absent and NULL fields out of records', async () => {
    const created = await store.create('Customer', { name: 'Only a name', email: null });
    expect(created).toEqual({ ok: true, value: { id: 1, name: 'Only a name' } });
    expect(await store.get('Customer', 1)).toStrictEqual({ id: 1, name: 'Only a name' });
  });

  it('numbers integer keys itself, and moves past a key given explicitly', async () => {
    const first = await store.create('Customer', { name: 'first' });
    const second = await store.create('Customer', { name: 'second' });
    const explicit = await store.create('Customer', { id: 100, name: 'explicit' });
    const after = await store.create('Customer', { name: 'after' });
    expect([first, second, explicit, after].map((result) => result.ok && result.value.id)).toEqual([
      1, 2, 100, 101,
    ]);
  });

  it('generates a UUID for an absent text key and keeps a given one', async () => {
    const customer = await store.create('Customer', { name: 'c' });
    const generated = await store.create('Order', { customer: 1, status: 'open' });
    expect(customer.ok && generated.ok).toBe(true);
    const key = generated.ok ? generated.value.number : undefined;
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const given = await store.create('Order', {
      number: 'A-1',
      customer: 1,
      lines: [{ product: 'rope', quantity: 2 }],
    });
    expect(given).toEqual({
      ok: true,
      value: { number: 'A-1', customer: 1, lines: [{ product: 'rope', quantity: 2 }] },
    });
    expect(await store.get('Order', 'A-1')).toStrictEqual({
      number: 'A-1',
      customer: 1,
      lines: [{ product: 'rope', quantity: 2 }],
    });
  });

  it('gives an entity without a key a hidden integer id, returned as id', async () => {
    expect(await store.create('Note', { body: 'one' })).toEqual({ ok: true, value: { id: 1, body: 'one' } });
    expect(await store.create('Note', { body: 'two' })).toEqual({ ok: true, value: { id: 2, body: 'two' } });
    expect(await store.get('Note', '2')).toStrictEqual({ id: 2, body: 'two' });
    expect((await store.list('Note', query())).items).toEqual([
      { id: 1, body: 'one' },
      { id: 2, body: 'two' },
    ]);
  });

  it('counts versions and refuses an update from a stale version', async () => {
    await store.create('Customer', { name: 'v' });
    expect(await store.version('Customer', 1)).toBe(1);
    expect((await store.update('Customer', 1, { name: 'w' })).ok).toBe(true);
    expect(await store.version('Customer', 1)).toBe(2);
    expect(await store.update('Customer', 1, { name: 'x' }, 1)).toEqual({
      ok: false,
      failure: { kind: 'version-mismatch', entity: 'Customer', current: 2 },
    });
    expect((await store.get('Customer', 1))?.name).toBe('w');
    expect(await store.update('Customer', 1, { name: 'x' }, 2)).toEqual({
      ok: true,
      value: { id: 1, name: 'x' },
    });
    expect(await store.version('Customer', 1)).toBe(3);
    expect(await store.version('Customer', 99)).toBeUndefined();
  });

  it('maps a duplicate unique field or key to a unique failure naming the field', async () => {
    await store.create('Customer', { name: 'a', email: 'same@x.test' });
    await store.create('Customer', { name: 'b', email: 'other@x.test' });
    expect(await store.create('Customer', { name: 'c', email: 'same@x.test' })).toEqual({
      ok: false,
      failure: { kind: 'unique', entity: 'Customer', field: 'email' },
    });
    expect(await store.update('Customer', 2, { email: 'same@x.test' })).toEqual({
      ok: false,
      failure: { kind: 'unique', entity: 'Customer', field: 'email' },
    });
    expect(await store.create('Customer', { id: 1, name: 'again' })).toEqual({
      ok: false,
      failure: { kind: 'unique', entity: 'Customer', field: 'id' },
    });
    await store.create('Order', { number: 'N1' });
    expect(await store.create('Order', { number: 'N1' })).toEqual({
      ok: false,
      failure: { kind: 'unique', entity: 'Order', field: 'number' },
    });
    expect((await store.list('Customer', query({ withTotal: true }))).total).toBe(2);
  });

  it('refuses to delete a referenced record (ON DELETE RESTRICT)', async () => {
    await store.create('Customer', { name: 'buyer' });
    await store.create('Order', { number: 'O1', customer: 1 });
    expect(await store.delete('Customer', 1)).toEqual({
      ok: false,
      failure: { kind: 'referenced', entity: 'Customer', by: 'Order' },
    });
    expect(await store.get('Customer', 1)).toBeDefined();
    expect(await store.delete('Order', 'O1')).toEqual({ ok: true, value: true });
    expect(await store.delete('Customer', 1)).toEqual({ ok: true, value: true });
  });

  it('reports a missing record as not found', async () => {
    const notFound = { ok: false, failure: { kind: 'not-found', entity: 'Customer' } };
    expect(await store.update('Customer', 42, { name: 'x' })).toEqual(notFound);
    expect(await store.update('Customer', 42, { name: 'x' }, 1)).toEqual(notFound);
    expect(await store.delete('Customer', 42)).toEqual(notFound);
    expect(await store.delete('Customer', 'not-a-number')).toEqual(notFound);
    expect(await store.get('Customer', 'not-a-number')).toBeUndefined();
    expect(await store.get('Order', 'missing')).toBeUndefined();
  });

  it('tells which keys exist, in one call', async () => {
    await createPeople();
    expect(await store.existing('Customer', [1, '2', 3, 999, 'x', '3'])).toEqual(new Set(['1', '2', '3']));
    expect(await store.existing('Customer', [])).toEqual(new Set());
  });

  it('throws for the caller’s bugs: unknown entities, fields, values of the wrong type', async () => {
    await expect(store.get('Address', 1)).rejects.toThrow(/not a stored entity/);
    await expect(store.create('Customer', { nickname: 'x' })).rejects.toThrow(/no field "nickname"/);
    await expect(store.create('Customer', { visits: 'many' })).rejects.toThrow(TypeError);
    await expect(
      store.list('Customer', query({ sort: [{ field: 'nope', direction: 'asc' }] })),
    ).rejects.toThrow(/no such field/);
    await expect(
      store.list('Customer', query({ filters: [{ field: 'nope', op: 'eq', value: 1 }] })),
    ).rejects.toThrow(/no such field/);
    await expect(
      store.list('Customer', query({ filters: [{ field: 'tags', op: 'eq', value: 'a' }] })),
    ).rejects.toThrow(/has no order/);
  });

  it('filters with eq, including NULL, booleans and values full of SQL and Unicode', async () => {
    await createPeople();
    await store.create('Customer', everyKind);
    const list = async (filters: ListQuery['filters']) =>
      names((await store.list('Customer', query({ filters }))).items);
    expect(await list([{ field: 'name', op: 'eq', value: 'Zoë 😀' }])).toEqual(['Zoë 😀']);
    expect(await list([{ field: 'name', op: 'eq', value: everyKind.name as string }])).toEqual([
      everyKind.name,
    ]);
    expect(await list([{ field: 'name', op: 'eq', value: '日本語' }])).toEqual(['日本語']);
    expect(await list([{ field: 'vip', op: 'eq', value: true }])).toEqual(['Anna', '100 pure', 'Zoë 😀']);
    expect(await list([{ field: 'vip', op: 'eq', value: 'true' }])).toEqual(['Anna', '100 pure', 'Zoë 😀']);
    expect(await list([{ field: 'visits', op: 'eq', value: null }])).toEqual(['100% pure', 'back\\slash']);
    expect(
      await list([
        { field: 'tier', op: 'eq', value: 'gold' },
        { field: 'visits', op: 'eq', value: '5' },
      ]),
    ).toEqual(['Anna']);
  });

  it('searches with contains: case-insensitive, with LIKE wildcards and backslashes taken literally', async () => {
    await createPeople();
    const list = async (value: string) =>
      names(
        (await store.list('Customer', query({ filters: [{ field: 'name', op: 'contains', value }] }))).items,
      );
    expect(await list('%')).toEqual(['100% pure']);
    expect(await list('_')).toEqual(['a_b']);
    expect(await list('\\')).toEqual(['back\\slash']);
    expect(await list('0 p')).toEqual(['100 pure']);
    expect(await list('ANNA')).toEqual(['Anna', 'anna', 'Anna']);
    expect(await list('oë 😀')).toEqual(['Zoë 😀']);
    expect(await list('本')).toEqual(['日本語']);
    expect(await list("'; --")).toEqual([]);
  });

  it('filters with gte, lte and in', async () => {
    await createPeople();
    const list = async (filters: ListQuery['filters']) =>
      names((await store.list('Customer', query({ filters }))).items);
    expect(
      await list([
        { field: 'visits', op: 'gte', value: 3 },
        { field: 'visits', op: 'lte', value: 5 },
      ]),
    ).toEqual(['Anna', 'anna', 'Bert', 'a_b', '日本語']);
    expect(await list([{ field: 'born', op: 'gte', value: '1990-01-01' }])).toEqual(['Anna', 'Bert']);
    expect(await list([{ field: 'born', op: 'lte', value: '1990-01-01' }])).toEqual(['Anna', 'anna']);
    expect(await list([{ field: 'visits', op: 'in', value: [2, 7] }])).toEqual(['Anna', '100 pure']);
    expect(await list([{ field: 'tier', op: 'in', value: ['silver', null] }])).toEqual([
      'anna',
      '100% pure',
      'a_b',
      'axb',
      'Zoë 😀',
      '日本語',
    ]);
    expect(await list([{ field: 'tier', op: 'in', value: [] }])).toEqual([]);
  });

  it('sorts by the given fields, then by the key, in byte order with NULL as the smallest value', async () => {
    await createPeople();
    const sorted = await store.list('Customer', query({ sort: [{ field: 'name', direction: 'asc' }] }));
    expect(sorted.items.map((item) => [item.name, item.id])).toEqual([
      ['100 pure', 6],
      ['100% pure', 5],
      ['Anna', 1],
      ['Anna', 4],
      ['Bert', 3],
      ['Zoë 😀', 10],
      ['a_b', 7],
      ['anna', 2],
      ['axb', 8],
      ['back\\slash', 9],
      ['日本語', 11],
    ]);
    const byVisits = await store.list('Customer', query({ sort: [{ field: 'visits', direction: 'desc' }] }));
    expect(byVisits.items.map((item) => item.id)).toEqual([10, 6, 7, 2, 1, 11, 3, 4, 8, 9, 5]);
    const byVisitsUp = await store.list('Customer', query({ sort: [{ field: 'visits', direction: 'asc' }] }));
    expect(byVisitsUp.items.map((item) => item.id)).toEqual([5, 9, 8, 4, 3, 11, 1, 2, 7, 6, 10]);
  });

  it('pages with limit and offset, and counts the total with the same filters', async () => {
    await createPeople();
    const sort = [{ field: 'name', direction: 'asc' as const }];
    const page = await store.list('Customer', query({ sort, limit: 3, offset: 3, withTotal: true }));
    expect(names(page.items)).toEqual(['Anna', 'Bert', 'Zoë 😀']);
    expect(page.total).toBe(11);
    const filtered = await store.list(
      'Customer',
      query({ sort, limit: 2, withTotal: true, filters: [{ field: 'tier', op: 'eq', value: 'gold' }] }),
    );
    expect(names(filtered.items)).toEqual(['100 pure', 'Anna']);
    expect(filtered.total).toBe(5);
    const past = await store.list('Customer', query({ sort, limit: 5, offset: 50, withTotal: true }));
    expect(past).toEqual({ items: [], total: 11 });
    expect((await store.list('Customer', query())).total).toBeUndefined();
  });

  it.each([
    ['visits descending (NULLs last)', [{ field: 'visits', direction: 'desc' as const }]],
    ['visits ascending (NULLs first)', [{ field: 'visits', direction: 'asc' as const }]],
    [
      'tier then name',
      [
        { field: 'tier', direction: 'asc' as const },
        { field: 'name', direction: 'desc' as const },
      ],
    ],
    ['the key', [{ field: 'id', direction: 'desc' as const }]],
  ])('pages with a cursor over 3 pages without duplicates or gaps, sorted by %s', async (_title, sort) => {
    await createPeople();
    const all = (await store.list('Customer', query({ sort }))).items;
    expect(all).toHaveLength(11);
    const pages: StoredRecord[][] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list('Customer', query({ sort, limit: 4, ...(cursor ? { cursor } : {}) }));
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor !== undefined && pages.length < 10);
    expect(pages.map((page) => page.length)).toEqual([4, 4, 3]);
    expect(pages.flat()).toEqual(all);
  });

  it('pages with a cursor inside a filter', async () => {
    await createPeople();
    const filters = [{ field: 'tier', op: 'eq' as const, value: 'gold' }];
    const sort = [{ field: 'visits', direction: 'desc' as const }];
    const first = await store.list('Customer', query({ filters, sort, limit: 2, withTotal: true }));
    expect(first.items.map((item) => item.id)).toEqual([6, 1]);
    expect(first.total).toBe(5);
    const second = await store.list('Customer', query({ filters, sort, limit: 2, cursor: first.nextCursor }));
    expect(second.items.map((item) => item.id)).toEqual([3, 4]);
    const third = await store.list('Customer', query({ filters, sort, limit: 2, cursor: second.nextCursor }));
    expect(third.items.map((item) => item.id)).toEqual([9]);
    expect(third.nextCursor).toBeUndefined();
  });

  it('refuses a malformed cursor, or one made for another sort, with InvalidCursorError', async () => {
    await createPeople();
    const sort = [{ field: 'name', direction: 'asc' as const }];
    const first = await store.list('Customer', query({ sort, limit: 2 }));
    expect(first.nextCursor).toBeDefined();
    const forged = Buffer.from(JSON.stringify({ o: 1, v: ['x', 1] })).toString('base64url');
    // Right order, wrong types: a number where the name (text) goes.
    const tampered = encodeCursor('Customer:name asc,id asc', [5, 1]);
    const bad = ['', 'not a cursor!', 'e30', forged, tampered, String(first.nextCursor).slice(0, -2)];
    for (const cursor of bad) {
      await expect(store.list('Customer', query({ sort, cursor }))).rejects.toBeInstanceOf(
        InvalidCursorError,
      );
    }
    await expect(
      store.list(
        'Customer',
        query({ sort: [{ field: 'name', direction: 'desc' }], cursor: first.nextCursor }),
      ),
    ).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('commits a transaction, and rolls it back when the work throws', async () => {
    await store.transaction(async (trx) => {
      await trx.create('Customer', { name: 'kept' });
      await trx.create('Note', { body: 'kept too' });
    });
    await expect(
      store.transaction(async (trx) => {
        await trx.create('Customer', { name: 'rolled back' });
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(names((await store.list('Customer', query())).items)).toEqual(['kept']);
    expect((await store.list('Note', query())).items).toEqual([{ id: 1, body: 'kept too' }]);
  });

  it('keeps a transaction usable after a write fails with a constraint', async () => {
    const result = await store.transaction(async (trx) => {
      await trx.create('Customer', { name: 'a', email: 'a@x.test' });
      await trx.create('Order', { number: 'O1', customer: 1 });
      const duplicate = await trx.create('Customer', { name: 'b', email: 'a@x.test' });
      // PostgreSQL spends an identity number on the failed insert; SQLite does not: use the returned key.
      const created = await trx.create('Customer', { name: 'c', email: 'c@x.test' });
      const key = created.ok ? (created.value.id as number) : -1;
      const clash = await trx.update('Customer', key, { email: 'a@x.test' });
      const referenced = await trx.delete('Customer', 1);
      expect((await trx.update('Customer', key, { name: 'c2' })).ok).toBe(true);
      return { duplicate, clash, referenced };
    });
    expect(result.duplicate).toEqual({
      ok: false,
      failure: { kind: 'unique', entity: 'Customer', field: 'email' },
    });
    expect(result.clash).toEqual({
      ok: false,
      failure: { kind: 'unique', entity: 'Customer', field: 'email' },
    });
    expect(result.referenced).toEqual({
      ok: false,
      failure: { kind: 'referenced', entity: 'Customer', by: 'Order' },
    });
    expect(names((await store.list('Customer', query())).items)).toEqual(['a', 'c2']);
  });

  it('creates the planned indexes, with the composite (filter, sort, key) ones', async () => {
    expect(await target.indexes(store, 'Customer')).toEqual(
      expect.arrayContaining([
        'ux_Customer_email',
        'ix_Customer_tier',
        'ix_Customer_name',
        'ix_Customer_tier_name',
        'ix_Customer_tier_visits',
        'ix_Customer_vip_visits',
      ]),
    );
    expect(await target.indexes(store, 'Order')).toEqual(
      expect.arrayContaining(['ix_Order_customer', 'ix_Order_status_placedAt']),
    );
  });
});
