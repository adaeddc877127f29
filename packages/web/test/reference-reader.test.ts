import type { Call, Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { ApiError, type ListParams, NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { createReferenceReader } from '../src/data/reference-reader';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.md');
const customers = [1, 2, 3, 4, 5].map((id) => ({ id, name: `Customer ${id}` }));

/** The shop with its customers list call changed by `change`. */
function withCustomerList(change: (call: Call) => Call): Model {
  if (!shop.calls.shown) throw new Error('the shop shows point 7');
  return {
    ...shop,
    calls: {
      ...shop.calls,
      items: shop.calls.items.map((call) => (call.name === 'listCustomers' ? change(call) : call)),
    },
  };
}

function setUp(model: Model = shop) {
  const data = createMemoryDataProvider(model, apiOf(model), { Customer: customers });
  // Batches leave when the test says so, not on a timer.
  let flushes: Array<() => void> = [];
  const reader = createReferenceReader(data, model, (run) => {
    flushes.push(run);
  });
  const flush = () => {
    const now = flushes;
    flushes = [];
    for (const run of now) run();
  };
  const calls = (method: string) => data.log.filter((call) => call.method === method);
  return { data, reader, flush, calls };
}

const names = (records: Array<Record<string, unknown>>) => records.map((record) => record.name);

describe('reading the records that references point at', () => {
  it('reads the ids asked for in one turn with one list call of each distinct id', async () => {
    const { reader, flush, calls } = setUp();
    const asked = ['3', '1', '3', '5'].map((id) => reader.read('Customer', id));
    flush();
    expect(names(await Promise.all(asked))).toEqual(['Customer 3', 'Customer 1', 'Customer 3', 'Customer 5']);
    expect(calls('get')).toEqual([]);
    const lists = calls('list').map((call) => call.params as ListParams);
    expect(lists).toHaveLength(1);
    expect(lists[0]?.filters).toEqual([{ field: 'id', op: 'in', value: ['3', '1', '5'] }]);
    expect(lists[0]?.page).toEqual({ style: 'page', page: 1, size: 3 });
  });

  it('splits the ids by the list call’s maximum page size', async () => {
    const model = withCustomerList((call) => ({
      ...call,
      pagination: {
        style: 'page',
        pageParam: 'page',
        sizeParam: 'limit',
        maxSize: { kind: 'number', value: 2 },
      },
    }));
    const { reader, flush, calls } = setUp(model);
    const asked = ['1', '2', '3', '4', '5'].map((id) => reader.read('Customer', id));
    flush();
    expect(names(await Promise.all(asked))).toEqual(customers.map((customer) => customer.name));
    const sizes = calls('list').map((call) => (call.params as ListParams).filters[0]?.value.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('asks the get call for an id the list call does not answer, and gives its refusal', async () => {
    const { reader, flush, calls } = setUp();
    const found = reader.read('Customer', '2');
    const missing = reader.read('Customer', '99');
    flush();
    expect((await found).name).toBe('Customer 2');
    const error = await missing.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect(calls('get').map((call) => (call.params as { id: string }).id)).toEqual(['99']);
  });

  it('reads every id with the get call when the list call fails', async () => {
    const { data, reader, flush, calls } = setUp();
    data.failNext('list', new NetworkError('fetch failed'));
    const asked = ['1', '4'].map((id) => reader.read('Customer', id));
    flush();
    expect(names(await Promise.all(asked))).toEqual(['Customer 1', 'Customer 4']);
    expect(calls('get')).toHaveLength(2);
  });

  it('reads each id with the get call where no list call filters the key with `in`', async () => {
    const model = withCustomerList((call) => ({
      ...call,
      filters: call.filters.filter((filter) => filter.op !== 'in'),
    }));
    const { reader, flush, calls } = setUp(model);
    const asked = ['1', '2'].map((id) => reader.read('Customer', id));
    flush();
    expect(names(await Promise.all(asked))).toEqual(['Customer 1', 'Customer 2']);
    expect(calls('list')).toEqual([]);
    expect(calls('get')).toHaveLength(2);
  });

  it('makes a new batch of what is asked in a later turn', async () => {
    const { reader, flush, calls } = setUp();
    const customer = reader.read('Customer', '1');
    const again = reader.read('Customer', '2');
    flush();
    await Promise.all([customer, again]);
    // A later turn makes a batch of its own.
    const later = reader.read('Customer', '3');
    flush();
    expect((await later).name).toBe('Customer 3');
    expect(calls('list')).toHaveLength(2);
  });
});
