// Rules across records (point 5), guards over other records (point 4) and numbering (point 3), on the
// helpdesk specification: a domain written for these tests, not the demo. Every check runs on SQLite and
// PostgreSQL, including the concurrency the issue names: 20 creates racing a limit of 3 leave 3.
import { readFileSync } from 'node:fs';
import { aggregateRecords, loadSpec, type Model, type RecordCondition } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { seedHistories } from '../src/seed/seed-history';
import { seed } from '../src/seed/seed-store';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { signInAs } from './support/sign-in';

const databases = await testDatabases();
const NOW = new Date('2026-11-24T23:30:00Z'); // 00:30 on the 25th in Amsterdam (UTC+1)

function helpdesk(): Model {
  const file = new URL('../../model/test/fixtures/helpdesk.md', import.meta.url);
  const result = loadSpec(readFileSync(file, 'utf8'), { file: 'helpdesk.md' });
  if (!result.ok || !result.model) throw new Error(`helpdesk.md must load: ${JSON.stringify(result.issues)}`);
  return result.model;
}

interface Problem {
  code: string;
  errors?: Array<{ pointer: string; code: string; detail: string }>;
  detail: string;
}

for (const database of databases) {
  const title = `rules across records on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    let free: StoredRecord;
    let pro: StoredRecord;

    beforeEach(async () => {
      const model = helpdesk();
      schema = database.postgres ? uniqueSchema('rules') : undefined;
      store = await openStore({ model, url: database.url, ...(schema ? { schema } : {}) });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store, now: () => NOW });
      free = await made(store.create('Customer', { name: 'Free', plan: 'free' }));
      pro = await made(store.create('Customer', { name: 'Pro', plan: 'pro' }));
    });
    afterEach(async () => {
      await app.close();
      await store.close();
      if (schema) await dropSchema(schema);
    });

    async function post(url: string, payload: object = {}) {
      const answer = await app.inject({ method: 'POST', url: `/api${url}`, payload });
      return { status: answer.statusCode, body: answer.json() as StoredRecord & Problem };
    }

    const ticket = (customer: StoredRecord, extra: object = {}) =>
      post('/tickets', { customer: customer.id, subject: 'Pump leaks', ...extra });

    it('20 creates racing a limit of 3 open tickets leave exactly 3, and the others hear why', async () => {
      const answers = await Promise.all(Array.from({ length: 20 }, () => ticket(pro)));
      const created = answers.filter((answer) => answer.status === 201);
      const refused = answers.filter((answer) => answer.status === 422);
      expect(created).toHaveLength(3);
      expect(refused).toHaveLength(17);
      // Set on create from a count in the same transaction: the customer's 1st, 2nd and 3rd ticket.
      expect(created.map((answer) => answer.body.position).sort()).toEqual([1, 2, 3]);
      expect(refused[0]?.body.code).toBe('TOO_MANY_OPEN');
      expect(refused[0]?.body.errors).toEqual([
        {
          pointer: '/customer',
          code: 'TOO_MANY_OPEN',
          detail: 'A customer has at most 3 open tickets, and this one has 3.',
        },
      ]);
      expect((await store.list('Ticket', { filters: [], sort: [], limit: 50, withTotal: true })).total).toBe(
        3,
      );
      // Closed tickets do not count: closing one makes room for one more.
      const first = created[0]?.body as StoredRecord;
      expect((await post(`/tickets/${first.id}/close`)).status).toBe(200);
      expect((await ticket(pro)).status).toBe(201);
      expect((await ticket(pro)).status).toBe(422);
    });

    it('numbers 20 racing creates without repeats or gaps, and a refused create gives its number back', async () => {
      const customers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          made(store.create('Customer', { name: `C${index}`, plan: 'pro' })),
        ),
      );
      const answers = await Promise.all(
        customers.flatMap((customer) => [ticket(customer), ticket(customer)]),
      );
      expect(answers.every((answer) => answer.status === 201)).toBe(true);
      const numbers = answers.map((answer) => answer.body.number).sort();
      expect(numbers).toEqual(
        Array.from({ length: 20 }, (_, index) => `HD-${String(index + 1).padStart(5, '0')}`),
      );
      // Refused by a rule inside the same transaction: number 21 is not used up.
      expect((await ticket(free, { hours: 11 })).status).toBe(422);
      expect((await ticket(pro)).body.number).toBe('HD-00021');
    });

    it('sums hours across a free customer’s tickets and looks up the plan; a pro customer is not limited', async () => {
      expect((await ticket(free, { hours: 6 })).status).toBe(201);
      const over = await ticket(free, { hours: 5 });
      expect(over.status).toBe(422);
      expect(over.body.errors).toEqual([
        { pointer: '/hours', code: 'HOURS_USED', detail: 'A free customer gets 10 hours of help in all.' },
      ]);
      expect((await ticket(free, { hours: 4 })).status).toBe(201);
      expect((await ticket(pro, { hours: 500 })).status).toBe(201);
    });

    it('today starts in the product’s time zone: the 24th is already past in Amsterdam', async () => {
      const late = await ticket(pro, { dueOn: '2026-11-24' });
      expect(late.status).toBe(422);
      expect(late.body.errors?.[0]?.pointer).toBe('/dueOn');
      expect((await ticket(pro, { dueOn: '2026-11-25' })).status).toBe(201);
    });

    it('a guard over other records: at most 2 tickets of a customer on hold, with the constant in the message', async () => {
      const ids: unknown[] = [];
      for (let index = 0; index < 3; index++) ids.push((await ticket(pro)).body.id);
      expect((await post(`/tickets/${ids[0]}/hold`)).status).toBe(200);
      expect((await post(`/tickets/${ids[1]}/hold`)).status).toBe(200);
      const third = await post(`/tickets/${ids[2]}/hold`);
      expect(third.status).toBe(409);
      expect(third.body.code).toBe('GUARD_FAILED');
      expect(third.body.detail).toBe('This customer already has 2 tickets on hold.');
    });

    it('keeps an email unique per customer (unique together), and says so on the email', async () => {
      expect((await post('/contacts', { customer: free.id, email: 'ops@quay.test' })).status).toBe(201);
      // The same address at another customer is fine.
      expect((await post('/contacts', { customer: pro.id, email: 'ops@quay.test' })).status).toBe(201);
      const twice = await post('/contacts', { customer: free.id, email: 'ops@quay.test' });
      expect(twice.status).toBe(422);
      expect(twice.body.errors).toEqual([
        {
          pointer: '/email',
          code: 'rule',
          detail: 'Another Contact of this Customer already has this Email.',
        },
      ]);
    });

    it('answers every condition as an in-memory store would, met and broken (generated variants)', async () => {
      const rows: StoredRecord[] = [];
      const statuses = ['open', 'held', 'closed'];
      for (let index = 0; index < 24; index++) {
        const values: StoredRecord = {
          customer: (index % 3 === 0 ? free.id : pro.id) ?? null,
          subject: `T${index}`,
          status: statuses[index % 3] as string,
          number: `HD-${index}`,
        };
        if (index % 4 !== 0) values.hours = (index * 7) % 11;
        if (index % 5 !== 0) values.dueOn = `2026-11-${String(10 + (index % 20)).padStart(2, '0')}`;
        rows.push(await made(store.create('Ticket', values)));
      }
      for (const where of conditions(free.id, pro.id)) {
        for (const fn of ['count', 'exists', 'sum', 'min', 'max'] as const) {
          const query = {
            entity: 'Ticket',
            fn,
            where,
            ...(fn === 'count' || fn === 'exists' ? {} : { field: 'hours' }),
          };
          expect([JSON.stringify(where), fn, await store.aggregate(query)]).toEqual([
            JSON.stringify(where),
            fn,
            aggregateRecords(rows, query),
          ]);
        }
      }
    });
  });
}

async function made(result: Promise<{ ok: boolean; value?: StoredRecord }>): Promise<StoredRecord> {
  const done = await result;
  if (!done.ok || !done.value) throw new Error('set-up write failed');
  return done.value;
}

/** Conditions of every shape, each met by some rows and broken by others, with empty fields among them. */
function conditions(free: unknown, pro: unknown): RecordCondition[] {
  const customer = (id: unknown): RecordCondition => ({
    kind: 'compare',
    field: 'customer',
    op: '==',
    value: id as number,
  });
  const leaves: RecordCondition[] = [
    customer(free),
    { kind: 'compare', field: 'status', op: '!=', value: 'open' },
    { kind: 'compare', field: 'hours', op: '>=', value: 5 },
    { kind: 'compare', field: 'hours', op: '<', value: 3 },
    { kind: 'compare', field: 'dueOn', op: '<=', value: '2026-11-20T00:00:00.000Z' },
    { kind: 'compare', field: 'hours', op: '==', value: null },
    { kind: 'in', field: 'status', values: ['held', 'closed'] },
    { kind: 'in', field: 'hours', values: [0, 7, null] },
    { kind: 'has', field: 'dueOn' },
    { kind: 'compare', field: 'hours', op: '==', value: 'not a number' },
  ];
  const out: RecordCondition[] = [
    ...leaves,
    { kind: 'constant', value: true },
    { kind: 'constant', value: false },
  ];
  for (const leaf of leaves) {
    out.push({ kind: 'not', of: leaf });
    out.push({ kind: 'all', of: [customer(pro), leaf] });
    out.push({ kind: 'any', of: [leaf, { kind: 'compare', field: 'status', op: '==', value: 'held' }] });
  }
  return out;
}

for (const database of databases) {
  const title = `transitions that change other records on ${database.name}${database.skip ? ` — skipped: ${database.skip}` : ''}`;
  describe.skipIf(database.skip !== undefined)(title, () => {
    let app: FastifyInstance;
    let store: Store;
    let schema: string | undefined;
    let owner: { authorization: string };

    beforeEach(async () => {
      const model = exampleModel();
      schema = database.postgres ? uniqueSchema('updates') : undefined;
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

    async function send(method: 'POST' | 'PATCH', url: string, payload: object = {}) {
      const answer = await app.inject({ method, url: `/api${url}`, payload, headers: owner });
      return { status: answer.statusCode, body: answer.json() as StoredRecord & Problem };
    }

    it('seeds orders numbered in order, each in a later state with the history that leads there, and says which rules it could not meet', async () => {
      const lines: string[] = [];
      await seed(store, exampleModel(), 20, (line) => lines.push(line));
      await seedHistories(store, exampleModel(), []);
      const orders = (
        await store.list('Order', {
          filters: [],
          sort: [{ field: 'id', direction: 'asc' }],
          limit: 50,
          withTotal: false,
        })
      ).items;
      expect(orders.map((order) => order.number)).toEqual(
        orders.map((_, index) => `ORD-${String(index + 1).padStart(6, '0')}`),
      );
      for (const order of orders) {
        const history = (await store.history('Order', order.id as number)).reverse();
        if (order.status === 'draft') {
          expect(history).toEqual([]);
          continue;
        }
        // From draft, each step from where the last one ended, to the state the order is in, in time order.
        expect(history[0]?.from).toBe('draft');
        expect(history.at(-1)?.to).toBe(order.status);
        for (let index = 1; index < history.length; index++) {
          expect(history[index]?.from).toBe(history[index - 1]?.to);
          expect(String(history[index]?.at) > String(history[index - 1]?.at)).toBe(true);
        }
      }
      // Nothing points at orders, so an order that would break a rule is left out, and said; none stays.
      expect(
        lines.filter(
          (line) => line.startsWith('  Order:') && line.includes('break a rule the seed could not meet'),
        ),
      ).toEqual([]);
      const leftOut = lines
        .map(
          (line) =>
            /^ {2}Order: left out (\d+) generated records? that would break a rule: .+/.exec(line)?.[1],
        )
        .filter((count) => count !== undefined)
        .reduce((sum, count) => sum + Number(count), 0);
      expect(orders.length + leftOut).toBe(20);
      expect(lines).toContain(`  Order: seeded ${orders.length} records`);
      // The next order made through the API continues the numbers.
      const customer = orders[0]?.customer;
      const next = await send('POST', '/orders', {
        customer,
        shippingAddress: { street: '1 Quay', postcode: 'PO1 3LJ' },
        lines: [
          {
            product: orders[0]?.lines && (orders[0].lines as Array<{ product: number }>)[0]?.product,
            quantity: 1,
            unitPrice: 1,
          },
        ],
      });
      if (next.status === 201)
        expect(next.body.number).toBe(`ORD-${String(orders.length + 1).padStart(6, '0')}`);
      else expect(next.body.code).toMatch(/OUT_OF_STOCK|CREDIT_LIMIT/);
    });

    it('placing takes the stock, cancelling gives it back, and an order that would overdraw it is refused whole', async () => {
      const customer = await made(
        store.create('Customer', { name: 'Anna', email: 'anna@example.com', active: true }),
      );
      const product = await made(
        store.create('Product', { sku: 'RG-1001', name: 'Line', category: 'rigging', price: 5, stock: 9 }),
      );
      const order = (quantity: number) =>
        send('POST', '/orders', {
          customer: customer.id,
          shippingAddress: { street: '1 Quay', postcode: 'PO1 3LJ' },
          lines: [{ product: product.id, quantity, unitPrice: 5 }],
        });
      const stock = async () => (await store.get('Product', product.id as number))?.stock;

      const first = await order(6);
      expect(first.status).toBe(201);
      expect(first.body.number).toBe('ORD-000001');
      expect((await send('POST', `/orders/${first.body.id}/place`)).status).toBe(200);
      expect(await stock()).toBe(3);

      // Within the stock when drafted (3 of 9 were free then), over it when placed: refused, nothing changes.
      const second = await order(5);
      expect(second.status).toBe(422);
      expect(second.body.code).toBe('OUT_OF_STOCK');
      expect(second.body.errors?.[0]?.pointer).toBe('/lines/0/quantity');
      const third = await order(3);
      expect(third.status).toBe(201);
      await store.change('Product', product.id as number, 'stock', '-=', 1);
      const overdrawn = await send('POST', `/orders/${third.body.id}/place`);
      expect(overdrawn.status).toBe(409);
      expect(overdrawn.body.code).toBe('UPDATE_REFUSED');
      expect(overdrawn.body.detail).toBe(
        '"Place order" would leave Product "Line" invalid: Stock must be at least 0.',
      );
      expect(await stock()).toBe(2);
      expect((await store.get('Order', third.body.id as number))?.status).toBe('draft');

      // Cancelling the placed order gives its 6 back; cancelling a draft gives nothing.
      expect((await send('POST', `/orders/${first.body.id}/cancel`)).status).toBe(200);
      expect(await stock()).toBe(8);
      expect((await send('POST', `/orders/${third.body.id}/cancel`)).status).toBe(200);
      expect(await stock()).toBe(8);
    });
  });
}

describe('a Base URL that is a path', () => {
  it('is where the prototype API serves its calls, its sign-in and its files', async () => {
    const model = exampleModel();
    if (!model.calls.shown) throw new Error('the shop shows its calls');
    model.calls.baseUrl = '/api/v1/';
    const store = await openStore({ model, url: 'sqlite::memory:' });
    try {
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      const app = await buildApp({ model, store, now: () => NOW });
      const spec = (await app.inject({ method: 'GET', url: '/spec.json' })).json() as {
        api: { base: string };
      };
      expect(spec.api.base).toBe('/api/v1');
      const owner = await signInAs(app, store, 'owner', {}, 'owner@shop.test', '/api/v1');
      const listed = await app.inject({ method: 'GET', url: '/api/v1/products', headers: owner });
      expect(listed.statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/products', headers: owner })).statusCode).toBe(
        404,
      );
      await app.close();
    } finally {
      await store.close();
    }
  });
});
