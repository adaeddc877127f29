import type { ApiDescription } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../src/data/data-provider';
import { entityCalls, MissingCallError } from '../src/data/entity-calls';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api: ApiDescription = apiOf(model);
const NOW = new Date('2026-06-01T12:00:00Z');

const customers = [
  { name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000, active: true },
  { name: 'Bo Ek', email: 'bo@example.com', country: 'DK', creditLimit: 500, active: false },
  { name: 'Cleo Dahl', email: 'cleo@example.com', country: 'SE', creditLimit: 2500, active: true },
  { name: 'Dan Falk', email: 'dan@example.com', country: 'NO', creditLimit: 0, active: true },
];

const provider = () =>
  createMemoryDataProvider(model, api, { Customer: customers }, { now: () => NOW, validate: true });

describe('memory data provider', () => {
  it('assigns numeric keys to seeded and created records and returns versions', async () => {
    const data = provider();
    expect(data.records('Customer').map((c) => c.id)).toEqual([1, 2, 3, 4]);
    const created = await data.create({
      entity: 'Customer',
      values: { name: 'Eva', email: 'eva@example.com' },
    });
    expect(created.record).toMatchObject({ id: 5, name: 'Eva', active: true });
    expect(created.version).toBe('"1"');
    const read = await data.get({ entity: 'Customer', id: '5' });
    expect(read).toEqual(created);
  });

  it('searches as the prototype API does: every word, as the start of a word, in the searched fields', async () => {
    const data = provider();
    const found = async (search: string) =>
      (
        await data.list({
          entity: 'Customer',
          page: { style: 'page', page: 1, size: 10 },
          sort: [],
          filters: [],
          search,
        })
      ).items.map((item) => item.name);
    expect(await found('ber')).toEqual(['Anna Berg']);
    expect(await found('EXAMPLE da')).toEqual(['Cleo Dahl', 'Dan Falk']);
    expect(await found('anna bo')).toEqual([]);
    // No word at all does not narrow the list.
    expect(await found('--')).toHaveLength(customers.length);
  });

  it('sorts, filters and pages', async () => {
    const data = provider();
    const page = await data.list({
      entity: 'Customer',
      page: { style: 'page', page: 1, size: 2 },
      sort: [{ field: 'creditLimit', direction: 'desc' }],
      filters: [{ field: 'active', op: 'eq', value: 'true' }],
    });
    expect(page.items.map((c) => c.name)).toEqual(['Cleo Dahl', 'Anna Berg']);
    expect(page.total).toBe(3);
    expect(page.hasNext).toBe(true);

    const second = await data.list({
      entity: 'Customer',
      page: { style: 'offset', offset: 2, limit: 2 },
      sort: [{ field: 'creditLimit', direction: 'desc' }],
      filters: [{ field: 'active', op: 'eq', value: 'true' }],
    });
    expect(second.items.map((c) => c.name)).toEqual(['Dan Falk']);
    expect(second.hasNext).toBe(false);

    const byName = await data.list({
      entity: 'Customer',
      page: { style: 'none' },
      sort: [{ field: 'name', direction: 'asc' }],
      filters: [
        { field: 'name', op: 'contains', value: 'a' },
        { field: 'country', op: 'in', value: ['SE', 'NO'] },
        { field: 'creditLimit', op: 'gte', value: '500' },
        { field: 'creditLimit', op: 'lte', value: '1000' },
      ],
    });
    expect(byName.items.map((c) => c.name)).toEqual(['Anna Berg']);
  });

  it('walks a cursor to the end', async () => {
    const data = provider();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 5; round++) {
      const page = await data.list({
        entity: 'Customer',
        page: { style: 'cursor', size: 3, ...(cursor === undefined ? {} : { cursor }) },
        sort: [{ field: 'name', direction: 'asc' }],
        filters: [],
      });
      seen.push(...page.items.map((c) => String(c.name)));
      if (!page.next) break;
      cursor = page.next;
    }
    expect(seen).toEqual(['Anna Berg', 'Bo Ek', 'Cleo Dahl', 'Dan Falk']);
  });

  it('refuses a stale version with a 412 and a missing record with a 404', async () => {
    const data = provider();
    const { version } = await data.get({ entity: 'Customer', id: '1' });
    const updated = await data.update({ entity: 'Customer', id: '1', values: { country: 'FI' }, version });
    expect(updated.version).toBe('"2"');
    await expect(
      data.update({ entity: 'Customer', id: '1', values: { country: 'DE' }, version }),
    ).rejects.toMatchObject({ name: 'ApiError', status: 412 });
    expect(data.records('Customer')[0]?.country).toBe('FI');
    await expect(data.get({ entity: 'Customer', id: '99' })).rejects.toMatchObject({ status: 404 });
    await data.delete({ entity: 'Customer', id: '2' });
    expect(data.records('Customer').map((c) => c.id)).toEqual([1, 3, 4]);
  });

  it('answers validation failures with field pointers when asked to validate', async () => {
    const data = provider();
    const error = await data.create({ entity: 'Customer', values: { name: '' } }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.fieldErrors.map((f: { pointer: string }) => f.pointer)).toContain('/email');
  });

  it('refuses a state set by hand as the prototype API does, when asked to validate', async () => {
    const data = createMemoryDataProvider(
      model,
      api,
      // The product the line names exists: the plan checks references, as the API does.
      { Customer: customers, Product: [{ id: 1, name: 'Mooring line' }] },
      { now: () => NOW, validate: true },
    );
    const values = { customer: 1, lines: [{ product: 1, quantity: 1, unitPrice: 10 }] };
    const created = await data
      .create({ entity: 'Order', values: { ...values, status: 'paid' } })
      .catch((e) => e);
    expect(created).toBeInstanceOf(ApiError);
    expect(created.status).toBe(422);
    expect(created.fieldErrors).toEqual([
      {
        pointer: '/status',
        code: 'rule',
        message: 'A new Order starts as draft; use a transition to change it.',
      },
    ]);
    expect(data.records('Order')).toEqual([]);
    const order = await data.create({ entity: 'Order', values });
    const changed = await data
      .update({
        entity: 'Order',
        id: String(order.record.id),
        values: { status: 'paid' },
        version: order.version,
      })
      .catch((e) => e);
    expect(changed).toMatchObject({ status: 409, code: 'USE_A_TRANSITION' });
    expect(data.records('Order')[0]).toMatchObject({ status: 'draft' });
  });

  it('takes transitions with the shared rules', async () => {
    const data = createMemoryDataProvider(model, api, {}, { now: () => NOW });
    const order = await data.create({
      entity: 'Order',
      values: { customer: 1, lines: [{ product: 1, quantity: 2, unitPrice: 10 }] },
    });
    expect(order.record).toMatchObject({ status: 'draft', total: 20 });
    const id = String(order.record.id);
    const placed = await data.transition({
      entity: 'Order',
      id,
      transition: 'place',
      version: order.version,
    });
    expect(placed.record).toMatchObject({ status: 'placed', placedOn: '2026-06-01' });
    await expect(data.transition({ entity: 'Order', id, transition: 'ship' })).rejects.toMatchObject({
      status: 409,
      code: 'ILLEGAL_TRANSITION',
    });
  });

  it('stores a file value as a descriptor', async () => {
    const data = createMemoryDataProvider(model, api);
    const file = new File(['%PDF-1.4'], 'po.pdf', { type: 'application/pdf' });
    const order = await data.create({
      entity: 'Order',
      values: { customer: 1, lines: [], attachment: file },
    });
    expect(order.record.attachment).toMatchObject({ name: 'po.pdf', type: 'application/pdf', size: 8 });
  });

  it('logs every call and fails the next one when told', async () => {
    const data = provider();
    data.failNext('get', new NetworkError('offline'));
    await expect(data.get({ entity: 'Customer', id: '1' })).rejects.toBeInstanceOf(NetworkError);
    await expect(data.get({ entity: 'Customer', id: '1' })).resolves.toMatchObject({ record: { id: 1 } });
    expect(data.log).toEqual([
      { method: 'get', params: { entity: 'Customer', id: '1' } },
      { method: 'get', params: { entity: 'Customer', id: '1' } },
    ]);
  });

  it('rejects an aborted list with the abort reason', async () => {
    const data = provider();
    const controller = new AbortController();
    controller.abort();
    await expect(
      data.list({
        entity: 'Customer',
        page: { style: 'none' },
        sort: [],
        filters: [],
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('offers the same calls as the specification names, and refuses the others', async () => {
    const data = provider();
    const calls = data.calls('Order');
    expect(calls).toEqual(entityCalls(api, model, 'Order'));
    expect(calls.list?.name).toBe('listOrders');
    expect(Object.keys(calls.transitions)).toEqual(['place', 'pay', 'ship', 'deliver', 'cancel']);
    // OrderLine is embedded: no call exists, so nothing is invented.
    expect(data.calls('OrderLine')).toEqual({ transitions: {}, lists: [], all: [] });
    await expect(data.get({ entity: 'OrderLine', id: '1' })).rejects.toBeInstanceOf(MissingCallError);
  });
});
