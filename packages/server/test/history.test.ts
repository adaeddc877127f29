// The history of transitions (point 4): every transition taken is recorded with who, when, from and to,
// and `GET /api/_history/{Entity}/{id}` answers it, newest first, to whoever may read the record.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const databases = await testDatabases();
const model = exampleModel();
const START = Date.UTC(2026, 5, 1, 12);
const address = { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' };

for (const database of databases) {
  const title = `transition history on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    let clock: number;
    let owner: { authorization: string; userId: string };
    let clerk: { authorization: string; userId: string };
    let customers: StoredRecord[];
    let order: StoredRecord;

    beforeEach(async () => {
      schema = database.postgres ? uniqueSchema('history') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      clock = START;
      app = await buildApp({ model, store, now: () => new Date(clock) });
      owner = await signInAs(app, store, 'owner');
      clerk = await signInAs(app, store, 'clerk');
      customers = [];
      for (const [name, email] of [
        ['Anna Berg', 'anna@example.com'],
        ['Bo Lind', 'bo@example.com'],
      ] as const) {
        const made = await store.create('Customer', {
          name,
          email,
          country: 'SE',
          creditLimit: 9,
          active: true,
        });
        if (!made.ok) throw new Error('no customer');
        customers.push(made.value);
      }
      const product = await store.create('Product', {
        sku: 'RG-1001',
        name: 'Line',
        category: 'rigging',
        price: 5,
        stock: 9,
      });
      if (!product.ok) throw new Error('no product');
      const answer = await send(owner, {
        method: 'POST',
        url: '/api/orders',
        payload: {
          customer: customers[0]?.id,
          shippingAddress: address,
          lines: [{ product: product.value.id, quantity: 1, unitPrice: 5 }],
        },
      });
      expect(answer.statusCode).toBe(201);
      order = answer.json();
    });
    afterEach(async () => {
      await app.close();
      await store.close();
      if (schema) await dropSchema(schema);
    });

    const send = (who: { authorization: string } | undefined, options: InjectOptions) =>
      app.inject({
        ...options,
        headers: { ...(who ? { authorization: who.authorization } : {}), ...options.headers },
      });
    const take = (who: { authorization: string }, transition: string) =>
      send(who, { method: 'POST', url: `/api/orders/${order.id}/${transition}` });
    const historyOf = (who: { authorization: string } | undefined, id = String(order.id)) =>
      send(who, { method: 'GET', url: `/api/_history/Order/${id}` });

    it('records who took each transition, when, from and to, and answers them newest first', async () => {
      expect((await historyOf(owner)).json()).toEqual({ items: [] });
      expect((await take(owner, 'place')).statusCode).toBe(200);
      clock = START + 60_000;
      // Refused transitions leave no trace.
      expect((await take(owner, 'deliver')).statusCode).toBe(409);
      // A clerk may take transitions of orders no longer in draft.
      expect((await take(clerk, 'pay')).statusCode).toBe(200);

      const answer = await historyOf(owner);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({
        items: [
          {
            transition: 'pay',
            from: 'placed',
            to: 'paid',
            by: { id: clerk.userId, email: 'clerk@shop.test' },
            at: '2026-06-01T12:01:00.000Z',
          },
          {
            transition: 'place',
            from: 'draft',
            to: 'placed',
            by: { id: owner.userId, email: 'owner@shop.test' },
            at: '2026-06-01T12:00:00.000Z',
          },
        ],
      });
      // Ties in time keep the order the transitions were taken in.
      expect((await take(owner, 'ship')).statusCode).toBe(200);
      expect((await take(owner, 'deliver')).statusCode).toBe(200);
      const items = (await historyOf(owner)).json().items;
      expect(items.map((item: { transition: string }) => item.transition)).toEqual([
        'deliver',
        'ship',
        'pay',
        'place',
      ]);
    });

    it('answers only whoever may read the record, like reading it', async () => {
      await take(owner, 'place');
      const hers = await signInAs(
        app,
        store,
        'customer',
        { customerId: customers[0]?.id ?? 0 },
        'anna@shop.test',
      );
      const his = await signInAs(
        app,
        store,
        'customer',
        { customerId: customers[1]?.id ?? 0 },
        'bo@shop.test',
      );
      expect((await historyOf(hers)).statusCode).toBe(200);
      expect((await historyOf(hers)).json().items).toHaveLength(1);
      // Answered as a record that does not exist, as reading it is.
      const refused = await historyOf(his);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect(refused.body).not.toContain('placed');
      const anonymous = await historyOf(undefined);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().code).toBe('NOT_SIGNED_IN');
      expect((await historyOf(owner, '999')).statusCode).toBe(404);
      expect((await historyOf(owner, 'nope')).statusCode).toBe(404);
      const product = await send(owner, { method: 'GET', url: '/api/_history/Product/1' });
      expect(product.statusCode).toBe(404);
    });

    it('says where the history is in /spec.json', async () => {
      expect((await send(undefined, { method: 'GET', url: '/spec.json' })).json().api.history).toBe(
        '/_history',
      );
    });

    it('forgets the history of a deleted record', async () => {
      await take(owner, 'place');
      await take(owner, 'cancel');
      expect(await store.history('Order', order.id as number)).toHaveLength(2);
      expect((await send(owner, { method: 'DELETE', url: `/api/orders/${order.id}` })).statusCode).toBe(204);
      expect(await store.history('Order', order.id as number)).toEqual([]);
    });
  });
}

describe('transition history without point 4', () => {
  it('is neither served nor announced', async () => {
    const plain = structuredClone(model);
    plain.states = { shown: false };
    const store = await openStore({ model: plain, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({ model: plain, store });
    try {
      const owner = await signInAs(app, store, 'owner');
      expect((await app.inject({ method: 'GET', url: '/spec.json' })).json().api).not.toHaveProperty(
        'history',
      );
      const answer = await app.inject({
        method: 'GET',
        url: '/api/_history/Order/1',
        headers: { authorization: owner.authorization },
      });
      expect(answer.statusCode).toBe(404);
      expect(answer.json().code).toBe('NO_SUCH_CALL');
    } finally {
      await app.close();
      await store.close();
    }
  });
});
