import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const api = apiOf(shop);
const anna = { id: 1, name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000 };

/** The in-memory fake answers repeats and stale writes as the prototype API does, for component tests. */
describe('the memory data provider, as a retry meets it', () => {
  it('creates once per idempotency key and answers the repeat with the first answer', async () => {
    const data = createMemoryDataProvider(shop, api);
    const values = { name: 'Bo Ek', email: 'bo@example.com' };
    const [first, second] = await Promise.all([
      data.create({ entity: 'Customer', values, idempotencyKey: 'k-1' }),
      data.create({ entity: 'Customer', values, idempotencyKey: 'k-1' }),
    ]);
    expect(second).toEqual(first);
    expect(data.records('Customer')).toHaveLength(1);
    await data.create({ entity: 'Customer', values });
    expect(data.records('Customer')).toHaveLength(2);
  });

  it('refuses a key used again for other values', async () => {
    const data = createMemoryDataProvider(shop, api);
    await data.create({ entity: 'Customer', values: { name: 'Bo Ek' }, idempotencyKey: 'k-1' });
    await expect(
      data.create({ entity: 'Customer', values: { name: 'Cleo Dahl' }, idempotencyKey: 'k-1' }),
    ).rejects.toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(data.records('Customer')).toHaveLength(1);
  });

  it('repeats a refusal under the same key, and runs again after a server error', async () => {
    const data = createMemoryDataProvider(shop, api, {}, { validate: true });
    const invalid = { name: '' };
    const refused = await data
      .create({ entity: 'Customer', values: invalid, idempotencyKey: 'k-2' })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 422 });
    await expect(data.create({ entity: 'Customer', values: invalid, idempotencyKey: 'k-2' })).rejects.toBe(
      refused,
    );

    data.failNext('create', new ApiError(503, 'Unavailable', undefined, undefined, undefined, [], undefined));
    const values = { name: 'Dan Falk', email: 'dan@example.com' };
    await expect(data.create({ entity: 'Customer', values, idempotencyKey: 'k-3' })).rejects.toMatchObject({
      status: 503,
    });
    await data.create({ entity: 'Customer', values, idempotencyKey: 'k-3' });
    expect(data.records('Customer')).toHaveLength(1);
  });

  it('takes a transition once per idempotency key', async () => {
    const order = {
      id: 1,
      number: 'SO-1',
      status: 'draft',
      lines: [{ product: 1, quantity: 1, unitPrice: 5 }],
    };
    const data = createMemoryDataProvider(shop, api, { Order: [order] });
    const first = await data.transition({
      entity: 'Order',
      id: '1',
      transition: 'place',
      idempotencyKey: 't-1',
    });
    const again = await data.transition({
      entity: 'Order',
      id: '1',
      transition: 'place',
      idempotencyKey: 't-1',
    });
    expect(again).toEqual(first);
    await expect(data.transition({ entity: 'Order', id: '1', transition: 'place' })).rejects.toMatchObject({
      status: 409,
    });
  });

  it('refuses a stale update with the record as it is now and its version', async () => {
    const data = createMemoryDataProvider(shop, api, { Customer: [anna] });
    const read = await data.get({ entity: 'Customer', id: '1' });
    await data.update({ entity: 'Customer', id: '1', values: { country: 'FI' }, version: read.version });
    const stale = await data
      .update({ entity: 'Customer', id: '1', values: { country: 'DE' }, version: read.version })
      .catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale).toMatchObject({ status: 412, current: { ...anna, country: 'FI' }, currentVersion: '"2"' });
  });

  it('tells reachability as the HTTP provider does', async () => {
    const data = createMemoryDataProvider(shop, api, { Customer: [anna] });
    data.failNext('get', new NetworkError('offline'));
    await expect(data.get({ entity: 'Customer', id: '1' })).rejects.toBeInstanceOf(NetworkError);
    expect(data.network.getSnapshot().reachable).toBe(false);
    await data.get({ entity: 'Customer', id: '1' });
    expect(data.network.getSnapshot().reachable).toBe(true);
  });
});
