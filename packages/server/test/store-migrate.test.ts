import type { Entity, Field, ListScreen } from '@ninefold/model';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { MigrationResult, MigrationStep, Store } from '../src/store/store';
import { modelOf } from './store-model';
import { describeOnEveryDatabase } from './store-targets';

const customerFields: Field[] = [
  { name: 'id', kind: 'integer' },
  { name: 'name', kind: 'text' },
  { name: 'code', kind: 'text' },
  { name: 'address', kind: 'text' },
  { name: 'nickname', kind: 'text' },
];
const Customer: Entity = { name: 'Customer', key: 'id', fields: customerFields };
const Legacy: Entity = {
  name: 'Legacy',
  key: 'id',
  fields: [
    { name: 'id', kind: 'integer' },
    { name: 'label', kind: 'text' },
  ],
};
const Note: Entity = {
  name: 'Note',
  fields: [
    { name: 'slug', kind: 'text' },
    { name: 'body', kind: 'text' },
  ],
};
const Address: Entity = { name: 'Address', embedded: true, fields: [{ name: 'city', kind: 'text' }] };
const customers: ListScreen = {
  kind: 'list',
  name: 'customers',
  route: '/customers',
  entity: 'Customer',
  columns: ['name'],
  filters: ['nickname'],
  sort: [{ field: 'name', direction: 'asc' }],
};

/** The first model: Customer (with a screen filtering on nickname), Legacy and Note. */
const v1 = modelOf({ entities: [Customer, Legacy, Note], screens: [customers] });

function steps(
  result: MigrationResult,
): Array<Pick<MigrationStep, 'kind' | 'entity' | 'field' | 'destructive'>> {
  const list = result.ok ? result.applied : result.refused;
  return list.map(({ kind, entity, field, destructive }) => ({ kind, entity, field, destructive }));
}

describeOnEveryDatabase('store migrations', { label: 'migrate', sqlite: 'file' }, (target) => {
  const open: Store[] = [];
  const reopen = async (model: typeof v1) => {
    const store = await target.open(model);
    open.push(store);
    return store;
  };

  beforeEach(async () => {
    await target.fresh();
  });
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  it('creates everything on an empty database; a second run, even from a new process, is a no-op', async () => {
    const store = await reopen(v1);
    const first = await store.migrate({ allowDestructive: false });
    expect(first.ok).toBe(true);
    expect(steps(first).filter((step) => step.kind === 'create-table')).toEqual([
      { kind: 'create-table', entity: 'Customer', field: undefined, destructive: false },
      { kind: 'create-table', entity: 'Legacy', field: undefined, destructive: false },
      { kind: 'create-table', entity: 'Note', field: undefined, destructive: false },
    ]);
    expect(steps(first).filter((step) => step.kind === 'add-index')).toHaveLength(3);
    expect(await store.migrate({ allowDestructive: false })).toEqual({ ok: true, applied: [] });
    const again = await reopen(v1);
    expect(await again.migrate({ allowDestructive: true })).toEqual({ ok: true, applied: [] });
    expect(await target.columns(store, 'Note')).toEqual([
      'id',
      'slug',
      'body',
      '_version',
      '_created_at',
      '_updated_at',
    ]);
  });

  it('adds tables, columns and indexes and keeps the rows it has', async () => {
    const before = await reopen(v1);
    await before.migrate({ allowDestructive: false });
    await before.create('Customer', { name: 'Old', code: 'C1', nickname: 'oldie' });

    const Order: Entity = {
      name: 'Order',
      key: 'id',
      fields: [
        { name: 'id', kind: 'integer' },
        { name: 'customer', kind: 'reference', entity: 'Customer' },
      ],
    };
    const v2 = modelOf({
      entities: [
        { ...Customer, fields: [...customerFields, { name: 'phone', kind: 'text' }] },
        Legacy,
        Note,
        Order,
      ],
      screens: [{ ...customers, filters: ['nickname', 'phone'] }],
      constraints: [{ entity: 'Customer', field: ['code'], unique: true }],
    });
    const after = await reopen(v2);
    const result = await after.migrate({ allowDestructive: false });
    expect(result.ok).toBe(true);
    expect(steps(result)).toEqual([
      { kind: 'add-column', entity: 'Customer', field: 'phone', destructive: false },
      { kind: 'add-index', entity: 'Customer', field: undefined, destructive: false },
      { kind: 'add-index', entity: 'Customer', field: undefined, destructive: false },
      { kind: 'add-index', entity: 'Customer', field: undefined, destructive: false },
      { kind: 'create-table', entity: 'Order', field: undefined, destructive: false },
      { kind: 'add-index', entity: 'Order', field: undefined, destructive: false },
    ]);
    expect(result.ok && result.applied.map((step) => step.description)).toContain(
      'add column "phone" (text) to "Customer"',
    );
    expect(await target.columns(after, 'Customer')).toContain('phone');
    expect(await target.indexes(after, 'Customer')).toEqual(
      expect.arrayContaining(['ix_Customer_phone', 'ix_Customer_phone_name', 'ux_Customer_code']),
    );
    expect(await after.get('Customer', 1)).toStrictEqual({
      id: 1,
      name: 'Old',
      code: 'C1',
      nickname: 'oldie',
    });
    expect(await after.version('Customer', 1)).toBe(1);
    expect(await after.update('Customer', 1, { phone: '+44 1' })).toEqual({
      ok: true,
      value: { id: 1, name: 'Old', code: 'C1', nickname: 'oldie', phone: '+44 1' },
    });
    // The new table's foreign key and the new unique index are enforced.
    expect((await after.create('Order', { customer: 1 })).ok).toBe(true);
    expect(await after.delete('Customer', 1)).toEqual({
      ok: false,
      failure: { kind: 'referenced', entity: 'Customer', by: 'Order' },
    });
    await after.create('Customer', { name: 'New', code: 'C2' });
    expect(await after.update('Customer', 2, { code: 'C1' })).toEqual({
      ok: false,
      failure: { kind: 'unique', entity: 'Customer', field: 'code' },
    });
    expect(await after.migrate({ allowDestructive: false })).toEqual({ ok: true, applied: [] });
  });

  it('refuses destructive changes and changes nothing, then applies them with consent', async () => {
    const before = await reopen(v1);
    await before.migrate({ allowDestructive: false });
    await before.create('Customer', { name: 'Keep', code: 'C1', address: 'Main St', nickname: 'k' });
    await before.create('Legacy', { label: 'old' });
    await before.create('Note', { slug: 'n', body: 'note' });

    // Drops a column (and with it a screen's filter), a table; `code` becomes an integer, `address` an
    // embedded object (JSON), Note gets a key of its own; `phone` is new (additive, but held back too).
    const v2 = modelOf({
      entities: [
        {
          ...Customer,
          fields: [
            { name: 'id', kind: 'integer' },
            { name: 'name', kind: 'text' },
            { name: 'code', kind: 'integer' },
            { name: 'address', kind: 'object', entity: 'Address' },
            { name: 'phone', kind: 'text' },
          ],
        },
        Address,
        { ...Note, key: 'slug' },
      ],
    });
    const after = await reopen(v2);
    const refused = await after.migrate({ allowDestructive: false });
    expect(refused.ok).toBe(false);
    expect(steps(refused)).toEqual([
      { kind: 'drop-column', entity: 'Customer', field: 'nickname', destructive: true },
      { kind: 'change-column', entity: 'Customer', field: 'code', destructive: true },
      { kind: 'change-column', entity: 'Customer', field: 'address', destructive: true },
      { kind: 'change-column', entity: 'Note', field: 'slug', destructive: true },
      { kind: 'drop-table', entity: 'Legacy', field: undefined, destructive: true },
    ]);
    expect(!refused.ok && refused.refused.map((step) => step.description)).toEqual([
      'drop column "nickname" (text) from "Customer": its values are lost',
      'change column "code" of "Customer" from text to integer: its values are lost',
      'change column "address" of "Customer" from text to object: its values are lost',
      'change the key of "Note" from "id" (hidden id) to "slug" (text): the table is created again and its rows are lost',
      'drop table "Legacy": all its rows are lost',
    ]);

    // Nothing changed: the old model still matches the database exactly, with its rows.
    expect(await target.columns(after, 'Customer')).toEqual([
      'id',
      'name',
      'code',
      'address',
      'nickname',
      '_version',
      '_created_at',
      '_updated_at',
    ]);
    expect(await target.columns(after, 'Legacy')).toEqual([
      'id',
      'label',
      '_version',
      '_created_at',
      '_updated_at',
    ]);
    const old = await reopen(v1);
    expect(await old.migrate({ allowDestructive: false })).toEqual({ ok: true, applied: [] });
    expect(await old.get('Customer', 1)).toStrictEqual({
      id: 1,
      name: 'Keep',
      code: 'C1',
      address: 'Main St',
      nickname: 'k',
    });
    expect(await old.get('Note', 1)).toStrictEqual({ id: 1, slug: 'n', body: 'note' });

    const applied = await after.migrate({ allowDestructive: true });
    expect(applied.ok).toBe(true);
    expect(steps(applied)).toEqual(
      expect.arrayContaining([
        { kind: 'drop-column', entity: 'Customer', field: 'nickname', destructive: true },
        { kind: 'add-column', entity: 'Customer', field: 'phone', destructive: false },
        { kind: 'drop-table', entity: 'Legacy', field: undefined, destructive: true },
      ]),
    );
    expect(await target.columns(after, 'Customer')).toEqual(
      expect.arrayContaining(['id', 'name', 'code', 'address', 'phone']),
    );
    expect(await target.columns(after, 'Customer')).not.toContain('nickname');
    expect(await target.columns(after, 'Legacy')).toEqual([]);
    expect(await target.indexes(after, 'Customer')).not.toContain('ix_Customer_nickname_name');
    // The unchanged columns keep their values and the record its version; the changed ones start empty.
    expect(await after.get('Customer', 1)).toStrictEqual({ id: 1, name: 'Keep' });
    expect(await after.version('Customer', 1)).toBe(1);
    expect(await after.update('Customer', 1, { code: 7, address: { city: 'Oslo' } })).toEqual({
      ok: true,
      value: { id: 1, name: 'Keep', code: 7, address: { city: 'Oslo' } },
    });
    expect(await after.create('Customer', { name: 'Next' })).toEqual({
      ok: true,
      value: { id: 2, name: 'Next' },
    });
    expect(await after.create('Note', { slug: 'a', body: 'b' })).toEqual({
      ok: true,
      value: { slug: 'a', body: 'b' },
    });
    expect(await after.migrate({ allowDestructive: false })).toEqual({ ok: true, applied: [] });
  });

  it('keeps foreign keys working after a table with references is rebuilt', async () => {
    const Order: Entity = {
      name: 'Order',
      key: 'id',
      fields: [
        { name: 'id', kind: 'integer' },
        { name: 'customer', kind: 'reference', entity: 'Customer' },
        { name: 'memo', kind: 'text' },
      ],
    };
    const before = await reopen(modelOf({ entities: [Customer, Order] }));
    await before.migrate({ allowDestructive: false });
    await before.create('Customer', { name: 'Buyer', nickname: 'b' });
    await before.create('Order', { customer: 1, memo: 'first' });

    const after = await reopen(
      modelOf({
        entities: [
          { ...Customer, fields: customerFields.filter((field) => field.name !== 'nickname') },
          {
            ...Order,
            fields: Order.fields.filter((field) => field.name !== 'memo'),
          },
        ],
      }),
    );
    expect((await after.migrate({ allowDestructive: true })).ok).toBe(true);
    expect(await after.get('Order', 1)).toStrictEqual({ id: 1, customer: 1 });
    expect(await after.delete('Customer', 1)).toEqual({
      ok: false,
      failure: { kind: 'referenced', entity: 'Customer', by: 'Order' },
    });
    expect((await after.create('Order', { customer: 1 })).ok).toBe(true);
  });
});
