import { describeApi } from '@ninefold/model';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const databases = await testDatabases();
const model = exampleModel();
const NOW = new Date('2026-06-01T12:00:00Z');

const customer = {
  name: 'Anna Berg',
  email: 'anna@example.com',
  country: 'SE',
  creditLimit: 1000,
  active: true,
};
const product = { sku: 'RG-1001', name: 'Mooring line', category: 'rigging', price: 24.5, stock: 100 };
const address = { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' };

for (const database of databases) {
  const title = `prototype API on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    /** The shop's owner may do everything: these tests are about the API, not about permissions. */
    let owner: { authorization: string };

    beforeEach(async () => {
      schema = database.postgres ? uniqueSchema('app') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store, now: () => NOW });
      owner = await signInAs(app, store, 'owner');
    });
    afterEach(async () => {
      await app.close();
      await store.close();
      if (schema) await dropSchema(schema);
    });

    const send = (options: InjectOptions) =>
      app.inject({ ...options, headers: { authorization: owner.authorization, ...options.headers } });
    const post = (url: string, payload: unknown) => send({ method: 'POST', url, payload: payload as object });
    const patch = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      send({ method: 'PATCH', url, payload: payload as object, headers });
    const get = (url: string) => send({ method: 'GET', url });

    async function setUp() {
      const c = (await post('/api/customers', customer)).json();
      const p = (await post('/api/products', product)).json();
      const order = await post('/api/orders', {
        customer: c.id,
        shippingAddress: address,
        lines: [{ product: p.id, quantity: 2, unitPrice: 24.5 }],
      });
      expect(order.statusCode).toBe(201);
      return { customer: c, product: p, order: order.json() };
    }

    /** Every stored row of every entity, to prove a refused request changed nothing. */
    async function snapshot() {
      const all: Record<string, unknown> = {};
      for (const entity of ['Customer', 'Product', 'Order']) {
        all[entity] = (
          await store.list(entity, { filters: [], sort: [], limit: 10_000, withTotal: true })
        ).items;
      }
      return all;
    }

    it('answers /healthz and serves the model with the calls it implements', async () => {
      expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
      const spec = (await get('/spec.json')).json();
      expect(spec.model.title).toBe('Harbor Supply');
      // The calls are point 7 of the model: they are not sent a second time.
      expect(spec.api).toEqual({
        base: '/api',
        conventional: false,
        auth: {
          session: '/auth/session',
          refresh: '/auth/refresh',
          signOut: '/auth/sign-out',
          passwordReset: '/auth/password-reset',
          password: '/auth/password',
        },
        history: '/_history',
        // Its list calls answer `Accept: text/csv` with the whole list (csv-export.test.ts).
        csv: true,
        import: '/_import',
        // The names behind ids a role sees but may not open (names.test.ts).
        names: '/_names',
        people: '/_people',
        // The dashboard's figures, computed in SQL (figures.test.ts).
        figures: '/_figures',
        events: '/_events',
        // Every write, who made it and through which call, as each reader may see it (audit.test.ts).
        audit: '/_audit',
        // Its owner manages people: who signs in, invited by email (people.test.ts).
        accounts: '/_accounts',
        // Its creates and transitions honour Idempotency-Key, so the client may send them again.
        idempotency: true,
      });
      expect(spec.model.calls.items.map((call: { name: string }) => call.name)).toContain('listOrders');
    });

    it('creates, reads, lists, updates and deletes a record', async () => {
      const created = await post('/api/products', product);
      expect(created.statusCode).toBe(201);
      const body = created.json();
      expect(body).toEqual({ id: 1, ...product });
      expect(created.headers.location).toBe('/api/products/1');
      expect(created.headers.etag).toBe('"1"');

      expect((await get('/api/products/1')).json()).toEqual(body);
      const listed = (await get('/api/products')).json();
      expect(listed).toEqual({ items: [body], total: 1 });

      const updated = await patch('/api/products/1', { price: 30 }, { 'if-match': '"1"' });
      expect(updated.statusCode).toBe(200);
      expect(updated.json().price).toBe(30);
      expect(updated.headers.etag).toBe('"2"');

      expect((await send({ method: 'DELETE', url: '/api/products/1' })).statusCode).toBe(204);
      expect((await get('/api/products/1')).statusCode).toBe(404);
    });

    it('refuses invalid values with field errors as JSON pointers, and stores nothing', async () => {
      const answer = await post('/api/products', { name: 'x'.repeat(121), price: -1, colour: 'red' });
      expect(answer.statusCode).toBe(422);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      const problem = answer.json();
      expect(problem).toMatchObject({
        status: 422,
        code: 'VALIDATION_FAILED',
        type: '/problems/validation-failed',
      });
      expect(problem.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual([
        ['/colour', 'unknown-field'],
        ['/sku', 'required'],
        ['/stock', 'required'],
        ['/name', 'max'],
        ['/price', 'min'],
      ]);
      expect((await get('/api/products')).json().total).toBe(0);
    });

    it('refuses a reference to a record that does not exist, at its field', async () => {
      const answer = await post('/api/orders', {
        customer: 99,
        shippingAddress: address,
        lines: [{ product: 42, quantity: 1, unitPrice: 1 }],
      });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors).toEqual([
        { pointer: '/customer', code: 'rule', detail: 'There is no Customer 99.' },
        { pointer: '/lines/0/product', code: 'rule', detail: 'There is no Product 42.' },
      ]);
      expect((await get('/api/orders')).json().total).toBe(0);
    });

    it('refuses a second record with a unique value already taken', async () => {
      await post('/api/products', product);
      const answer = await post('/api/products', { ...product, name: 'Other' });
      expect(answer.statusCode).toBe(422);
      expect(answer.json().errors).toEqual([
        { pointer: '/sku', code: 'rule', detail: 'Another Product already has this SKU.' },
      ]);
    });

    it('pages, sorts and filters lists as the calls allow, with a total', async () => {
      for (let i = 1; i <= 30; i++) {
        const category = i % 3 === 0 ? 'engine' : 'rigging';
        const created = await post('/api/products', {
          ...product,
          sku: `RG-${1000 + i}`,
          name: `Item ${i}`,
          price: i,
          category,
        });
        expect(created.statusCode).toBe(201);
      }
      const page = (await get('/api/products?page=2&limit=10&sort=-price')).json();
      expect(page.total).toBe(30);
      expect(page.items.map((item: { price: number }) => item.price)).toEqual([
        20, 19, 18, 17, 16, 15, 14, 13, 12, 11,
      ]);
      const engines = (await get('/api/products?category=engine&sort=price&limit=3')).json();
      expect(engines.total).toBe(10);
      expect(engines.items.map((item: { price: number }) => item.price)).toEqual([3, 6, 9]);
      const search = (await get('/api/products?name=item%202&sort=price')).json();
      expect(search.items.map((item: { name: string }) => item.name)).toEqual([
        'Item 2',
        'Item 20',
        'Item 21',
        'Item 22',
        'Item 23',
        'Item 24',
        'Item 25',
        'Item 26',
        'Item 27',
        'Item 28',
        'Item 29',
      ]);
      // The default page size is the list screen's PAGE_SIZE constant.
      expect((await get('/api/products')).json().items).toHaveLength(25);
    });

    it('computes derived fields and stores them, so lists sort on them', async () => {
      const { order, customer: c, product: p } = await setUp();
      expect(order.total).toBe(49);
      expect(order.status).toBe('draft');
      const big = await post('/api/orders', {
        customer: c.id,
        shippingAddress: address,
        lines: [{ product: p.id, quantity: 10, unitPrice: 24.5 }],
      });
      expect(big.json().total).toBe(245);
      await patch(
        `/api/orders/${order.id}`,
        { lines: [{ product: p.id, quantity: 20, unitPrice: 24.5 }] },
        { 'if-match': '"1"' },
      );
      const sorted = (await get('/api/orders?sort=-total')).json();
      expect(sorted.items.map((o: { total: number }) => o.total)).toEqual([490, 245]);
    });

    it('refuses a stale update with 412', async () => {
      await post('/api/products', product);
      await patch('/api/products/1', { stock: 5 }, { 'if-match': '"1"' });
      const stale = await patch('/api/products/1', { stock: 6 }, { 'if-match': '"1"' });
      expect(stale.statusCode).toBe(412);
      expect(stale.json().code).toBe('CHANGED_SINCE_READ');
      expect((await get('/api/products/1')).json().stock).toBe(5);
    });

    it('walks the state machine: allowed transitions, refused ones, guards and effects', async () => {
      const { order } = await setUp();
      const direct = await patch(`/api/orders/${order.id}`, { status: 'paid' }, { 'if-match': '"1"' });
      expect(direct.statusCode).toBe(409);
      expect(direct.json().code).toBe('USE_A_TRANSITION');

      const early = await post(`/api/orders/${order.id}/pay`, {});
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ code: 'ILLEGAL_TRANSITION' });
      expect(early.json().detail).toContain('only from placed');

      const placed = await post(`/api/orders/${order.id}/place`, {});
      expect(placed.statusCode).toBe(200);
      expect(placed.json()).toMatchObject({ status: 'placed', placedOn: '2026-06-01' });
      // Regression: a transition answered no ETag, so the client had no version for its next If-Match.
      const current = await get(`/api/orders/${order.id}`);
      expect(placed.headers.etag).toBe(current.headers.etag);

      const paid = (await post(`/api/orders/${order.id}/pay`, {})).json();
      expect(paid).toMatchObject({ status: 'paid', paidAt: '2026-06-01T12:00:00.000Z' });
      expect((await post(`/api/orders/${order.id}/cancel`, {})).statusCode).toBe(409);
    });

    it('refuses a transition whose guard does not hold, with the guard’s message', async () => {
      const { order } = await setUp();
      await store.update('Order', order.id, { lines: [] });
      const answer = await post(`/api/orders/${order.id}/place`, {});
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toMatchObject({
        code: 'GUARD_FAILED',
        detail: 'Add at least one line before placing the order.',
      });
    });

    it('refuses to delete a record that others still refer to', async () => {
      const { customer: c } = await setUp();
      const answer = await send({ method: 'DELETE', url: `/api/customers/${c.id}` });
      expect(answer.statusCode).toBe(409);
      expect(answer.json().code).toBe('STILL_REFERENCED');
    });

    it('signs in through the call point 7 names, and refuses a wrong password without saying which part', async () => {
      const answer = await post('/api/auth/sign-in', { email: 'owner@shop.test', password: 'x' });
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({
        code: 'SIGN_IN_FAILED',
        detail: 'The email or the password is not right.',
      });
      const unknown = await post('/api/auth/sign-in', { email: 'nobody@shop.test', password: 'x' });
      expect(unknown.json().detail).toBe(answer.json().detail);
    });

    it('stores SQL metacharacters and Unicode in text literally', async () => {
      const tricky = `Robert'); DROP TABLE "Product";-- %_\\ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ עברית \u0000`.replace('\u0000', '');
      const created = await post('/api/customers', { ...customer, name: tricky.slice(0, 120) });
      expect(created.statusCode).toBe(201);
      expect((await get(`/api/customers/${created.json().id}`)).json().name).toBe(tricky.slice(0, 120));
      const found = (await get(`/api/customers?name=${encodeURIComponent("'); DROP")}`)).json();
      expect(found.total).toBe(1);
      const none = (await get(`/api/customers?name=${encodeURIComponent('%')}`)).json();
      expect(none.total).toBe(1);
      expect((await get(`/api/customers?name=${encodeURIComponent('zz%')}`)).json().total).toBe(0);
    });

    it('takes SQL metacharacters and Unicode in every text field of every create call literally, or refuses them with a 4xx', async () => {
      const { customer: c, product: p } = await setUp();
      const tricky = `x'); DROP TABLE "Order";-- %_\\ 𝔘 ✓ עברית`;
      const bases: Record<string, Record<string, unknown>> = {
        Customer: { ...customer, email: 'tricky@example.com' },
        Product: { ...product, sku: 'TR-1234' },
        Order: {
          customer: c.id,
          shippingAddress: address,
          lines: [{ product: p.id, quantity: 1, unitPrice: 1 }],
        },
      };
      let accepted = 0;
      for (const call of describeApi(model).calls.filter((candidate) => candidate.purpose === 'create')) {
        const entity = model.entities.shown
          ? model.entities.items.find((e) => e.name === call.entity)
          : undefined;
        for (const field of entity?.fields ?? []) {
          if (!['text', 'markdown'].includes(field.kind) || field.readOnly || field.derived) continue;
          const base = bases[entity?.name ?? ''] ?? {};
          const answer = await post(`/api${call.path}`, { ...base, [field.name]: tricky });
          const context = `${call.name}.${field.name}: ${answer.statusCode} ${answer.body.slice(0, 160)}`;
          expect(answer.statusCode, context).toBeLessThan(500);
          if (answer.statusCode === 201) {
            accepted++;
            expect(answer.json()[field.name], context).toBe(tricky);
            await send({ method: 'DELETE', url: `/api${call.path}/${answer.json().id}` });
          } else {
            expect([409, 422], context).toContain(answer.statusCode);
          }
        }
      }
      expect(accepted).toBeGreaterThan(3);
    });

    describe('bad input to every call of the rich example', () => {
      const api = describeApi(model);

      /** Each request must be refused with a 4xx problem that says what is wrong, and change nothing. */
      async function expectRefused(request: InjectOptions, label: string) {
        const before = await snapshot();
        const answer: LightMyRequestResponse = await send(request);
        const context = `${label}: ${request.method} ${String(request.url).slice(0, 120)} -> ${answer.statusCode} ${answer.body.slice(0, 200)}`;
        expect(answer.statusCode, context).toBeGreaterThanOrEqual(400);
        expect(answer.statusCode, context).toBeLessThan(500);
        expect(answer.headers['content-type'], context).toContain('application/problem+json');
        const body = answer.json();
        expect(typeof body.detail, context).toBe('string');
        expect(body.detail.length, context).toBeGreaterThan(0);
        expect(answer.body, context).not.toMatch(/\bat .+\.(ts|js):\d+/);
        expect(await snapshot(), context).toEqual(before);
      }

      const badKeys = ['abc', '-1', '99999999', "1' OR '1'='1", '%F0%9D%94%98', 'x'.repeat(3000)];

      it('refuses bad paths, queries and bodies with 4xx problems and no change to stored rows', async () => {
        const { order } = await setUp();
        let sent = 0;
        for (const call of api.calls) {
          const path = (key: string) => `/api${call.path.replace(/\{[^}]+\}/g, key)}`;
          const hasKey = call.path.includes('{');
          if (hasKey) {
            for (const key of badKeys) {
              await expectRefused(
                { method: call.method, url: path(key), payload: {} },
                `${call.name} bad key`,
              );
              sent++;
            }
          }
          const url = hasKey ? path(String(order.id)) : path('');
          switch (call.purpose) {
            case 'list': {
              const queries = [
                'page=-1',
                'page=0',
                'page=abc',
                'limit=0',
                'limit=-5',
                'limit=1000000',
                'limit=1e3',
                'sort=nope',
                'sort=-nope',
                'sort=id;DROP',
                'unknown=1',
                `page=${'9'.repeat(40)}`,
                ...call.filters.flatMap((filter) => {
                  const field = model.entities.shown
                    ? model.entities.items
                        .find((e) => e.name === call.entity)
                        ?.fields.find((f) => f.name === filter.field)
                    : undefined;
                  return field && !['text', 'markdown'].includes(field.kind)
                    ? [
                        `${filter.param}=${encodeURIComponent("' OR 1=1 --")}`,
                        `${filter.param}=${encodeURIComponent('𝔘')}`,
                      ]
                    : [`${filter.param}=${'x'.repeat(1001)}`];
                }),
              ];
              for (const query of queries) {
                await expectRefused({ method: 'GET', url: `${url}?${query}` }, `${call.name} query`);
                sent++;
              }
              break;
            }
            case 'create':
            case 'update': {
              const method = call.method;
              const bodies: Array<{ payload: string; headers?: Record<string, string>; label: string }> = [
                { payload: '{"name": ', label: 'malformed JSON' },
                { payload: '[1, 2]', label: 'an array' },
                { payload: '"text"', label: 'a string' },
                { payload: '{"__proto__": {"admin": true}}', label: 'prototype poisoning' },
                { payload: JSON.stringify({ unknownField: 1 }), label: 'an unknown field' },
                {
                  payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
                  label: 'an oversized body',
                },
                { payload: 'a=1', headers: { 'content-type': 'text/plain' }, label: 'the wrong media type' },
              ];
              const entity = model.entities.shown
                ? model.entities.items.find((e) => e.name === call.entity)
                : undefined;
              for (const field of entity?.fields ?? []) {
                if (field.readOnly || field.derived) {
                  bodies.push({
                    payload: JSON.stringify({ [field.name]: 1 }),
                    label: `read-only ${field.name}`,
                  });
                  continue;
                }
                const wrong = ['text', 'markdown', 'enum', 'date', 'datetime'].includes(field.kind)
                  ? 12345
                  : "'; DROP TABLE x; --";
                bodies.push({
                  payload: JSON.stringify({ [field.name]: wrong }),
                  label: `wrong type for ${field.name}`,
                });
                bodies.push({
                  payload: JSON.stringify({ [field.name]: { nested: ['𝔘'] } }),
                  label: `an object for ${field.name}`,
                });
              }
              if (call.purpose === 'create') bodies.push({ payload: '{}', label: 'missing required fields' });
              for (const body of bodies) {
                await expectRefused(
                  {
                    method,
                    url,
                    payload: body.payload,
                    headers: { 'content-type': 'application/json', ...(body.headers ?? {}) },
                  },
                  `${call.name} ${body.label}`,
                );
                sent++;
              }
              break;
            }
            // Sign-in is not implemented by the prototype API yet (the roles issue); it is not bad input.
            case 'sign-in':
            case 'get':
            case 'delete':
            case 'transition':
            case 'sign-out':
            case 'upload':
            case 'other':
              break;
          }
        }
        // Proves the battery ran: 270 requests for the rich example today.
        expect(sent).toBeGreaterThan(250);
      });
    });
  });
}
