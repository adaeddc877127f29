// Lost updates: an update must say which version it changes (If-Match, else 428), and a stale one is a
// 412 carrying the record as it is now (only what the role may read) and its ETag, so that the client can
// show both versions. Transitions take If-Match too, without requiring it.
import type { Model } from '@ninefold/model';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { ADDRESS, customerAndProduct } from './support/shop-records';
import { signInAs } from './support/sign-in';

const databases = await testDatabases();
const NOW = new Date('2026-06-01T12:00:00Z');
const attachment = { id: 'f', url: '/api/_files/f', name: 'po.pdf', type: 'application/pdf', size: 1 };

/** The rich example, with purchase orders hidden from the clerk. */
function clerkWithoutAttachments(): Model {
  const model = structuredClone(exampleModel());
  const grant = model.roles.shown
    ? model.roles.grants.find((g) => g.role === 'clerk' && g.entity === 'Order')
    : undefined;
  if (!grant) throw new Error('the clerk has a grant on orders');
  grant.hidden = ['attachment'];
  return model;
}

for (const database of databases) {
  const title = `lost updates on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    let clerk: { authorization: string };
    let order: StoredRecord;
    /** Run by the store just before the API's next update: someone else's write in between. */
    let beforeNextUpdate: (() => Promise<void>) | undefined;

    beforeEach(async () => {
      const model = clerkWithoutAttachments();
      schema = database.postgres ? uniqueSchema('lost') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      beforeNextUpdate = undefined;
      const racing = new Proxy(store, {
        get(target, property) {
          // A write that checks rules across records runs in a transaction: the meddling comes before it.
          if (property === 'update' || property === 'applyTransition' || property === 'transaction') {
            return async (...args: unknown[]) => {
              const meddle = beforeNextUpdate;
              beforeNextUpdate = undefined;
              await meddle?.();
              return (target[property] as (...args: unknown[]) => Promise<unknown>).apply(target, args);
            };
          }
          const value = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      app = await buildApp({ model, store: racing, now: () => NOW });
      clerk = await signInAs(app, store, 'clerk');
      const { customer, product } = await customerAndProduct(store, { creditLimit: 1000 });
      const answer = await send({
        method: 'POST',
        url: '/api/orders',
        payload: {
          customer: customer.id,
          shippingAddress: ADDRESS,
          lines: [{ product: product.id, quantity: 1, unitPrice: 5 }],
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

    const send = (options: InjectOptions) =>
      app.inject({ ...options, headers: { authorization: clerk.authorization, ...options.headers } });
    const patch = (payload: object, headers: Record<string, string> = {}) =>
      send({ method: 'PATCH', url: `/api/orders/${order.id}`, payload, headers });

    it('requires If-Match on an update: 428 without it, and nothing changes', async () => {
      const answer = await patch({ notes: 'rush' });
      expect(answer.statusCode).toBe(428);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.json()).toMatchObject({
        status: 428,
        code: 'PRECONDITION_REQUIRED',
        type: '/problems/precondition-required',
      });
      expect((await store.get('Order', order.id as number))?.notes).toBeUndefined();
      // A record that does not exist is still a 404, and a malformed ETag a 400.
      const missing = await send({ method: 'PATCH', url: '/api/orders/999', payload: { notes: 'x' } });
      expect(missing.statusCode).toBe(404);
      expect((await patch({ notes: 'x' }, { 'if-match': 'soon' })).json().code).toBe('INVALID_IF_MATCH');
    });

    it('answers a stale update with 412, the record as it is now and its ETag, and takes the change made on it', async () => {
      const first = await patch({ notes: 'first' }, { 'if-match': '"1"' });
      expect(first.statusCode).toBe(200);
      expect(first.headers.etag).toBe('"2"');

      const stale = await patch({ notes: 'second' }, { 'if-match': '"1"' });
      expect(stale.statusCode).toBe(412);
      const now = await send({ method: 'GET', url: `/api/orders/${order.id}` });
      expect(stale.json()).toMatchObject({ status: 412, code: 'CHANGED_SINCE_READ' });
      expect(stale.json().current).toEqual(now.json());
      expect(stale.json().current.notes).toBe('first');
      expect(stale.headers.etag).toBe(now.headers.etag);
      expect((await store.get('Order', order.id as number))?.notes).toBe('first');

      const merged = await patch({ notes: 'second' }, { 'if-match': stale.headers.etag as string });
      expect(merged.statusCode).toBe(200);
      expect(merged.json().notes).toBe('second');
    });

    it('leaves out of the 412 the fields hidden from the role', async () => {
      await store.update('Order', order.id as number, { attachment });
      const stale = await patch({ notes: 'mine' }, { 'if-match': '"1"' });
      expect(stale.statusCode).toBe(412);
      expect(stale.json().current).toMatchObject({ id: order.id, ownerId: order.ownerId, status: 'draft' });
      expect(stale.json().current).not.toHaveProperty('attachment');
      expect(stale.body).not.toContain('po.pdf');
      expect(stale.headers.etag).toBe('"2"');
    });

    it('answers 412 with the record as it is now when it changes between the check and the write', async () => {
      beforeNextUpdate = async () => {
        await store.update('Order', order.id as number, { notes: 'in between' });
      };
      const raced = await patch({ notes: 'mine' }, { 'if-match': '"1"' });
      expect(raced.statusCode).toBe(412);
      expect(raced.json().current.notes).toBe('in between');
      expect(raced.headers.etag).toBe('"2"');
      expect((await store.get('Order', order.id as number))?.notes).toBe('in between');
    });

    it('takes If-Match on a transition without requiring it, and refuses a stale one with the record as it is now', async () => {
      await store.update('Order', order.id as number, { notes: 'changed' });
      const stale = await send({
        method: 'POST',
        url: `/api/orders/${order.id}/place`,
        headers: { 'if-match': '"1"' },
      });
      expect(stale.statusCode).toBe(412);
      expect(stale.json().current).toMatchObject({ status: 'draft', notes: 'changed' });
      expect(stale.headers.etag).toBe('"2"');
      expect(await store.history('Order', order.id as number)).toEqual([]);

      const placed = await send({
        method: 'POST',
        url: `/api/orders/${order.id}/place`,
        headers: { 'if-match': '"2"' },
      });
      expect(placed.statusCode).toBe(200);
      expect(placed.headers.etag).toBe('"3"');
      const paid = await send({ method: 'POST', url: `/api/orders/${order.id}/pay` });
      expect(paid.statusCode).toBe(200);
      expect(paid.json().status).toBe('paid');
    });

    it('answers a stale transition that is no longer possible as illegal (409), not as changed (412)', async () => {
      // Regression: a tab showing a placed order sent "place" again with its old ETag after another tab
      // had placed it, and read "someone else changed this record" on a screen where nothing was edited.
      const first = await send({
        method: 'POST',
        url: `/api/orders/${order.id}/place`,
        headers: { 'if-match': '"1"' },
      });
      expect(first.statusCode).toBe(200);
      const again = await send({
        method: 'POST',
        url: `/api/orders/${order.id}/place`,
        headers: { 'if-match': '"1"' },
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('ILLEGAL_TRANSITION');
      expect(await store.history('Order', order.id as number)).toHaveLength(1);
    });

    it('checks a transition again when the record changes under it, and never takes it twice', async () => {
      // Someone else places the order between this request's checks and its write.
      beforeNextUpdate = async () => {
        await store.update('Order', order.id as number, { status: 'placed' });
      };
      const second = await send({ method: 'POST', url: `/api/orders/${order.id}/place` });
      expect(second.statusCode).toBe(409);
      expect(second.json().code).toBe('ILLEGAL_TRANSITION');
      expect(await store.history('Order', order.id as number)).toEqual([]);

      // An unrelated change in between: the transition is checked on the new version and taken.
      await store.update('Order', order.id as number, { status: 'draft' });
      beforeNextUpdate = async () => {
        await store.update('Order', order.id as number, { notes: 'meanwhile' });
      };
      const placed = await send({ method: 'POST', url: `/api/orders/${order.id}/place` });
      expect(placed.statusCode).toBe(200);
      expect(placed.json()).toMatchObject({ status: 'placed', notes: 'meanwhile' });
      expect(placed.headers.etag).toBe(`"${await store.version('Order', order.id as number)}"`);
      expect(await store.history('Order', order.id as number)).toHaveLength(1);
    });
  });
}
