// Live updates (`GET /api/_events`): each stream is told exactly what its role may read, before or after
// each change. Generated writes (created, reassigned, placed, deleted by two people) are checked against
// the API's own answers, read as each role, on SQLite and PostgreSQL.
import { checkAction, type JsonValue } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { dropSchema, exampleModel, testDatabases, uniqueSchema } from './support/databases';
import { ADDRESS } from './support/shop-records';
import { signInAs } from './support/sign-in';

const model = exampleModel();
const databases = await testDatabases();

interface Frame {
  id: number;
  event?: string;
  data?: Record<string, unknown>;
}

/** An events stream read as the client reads it: `fetch`, the token in the Authorization header. */
async function openStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const answer = await fetch(url, { headers, signal: controller.signal });
  expect(answer.status, await (answer.ok ? Promise.resolve('') : answer.text())).toBe(200);
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const frames: Frame[] = [];
  let ended = false;
  void (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) {
        ended = true;
        return;
      }
      text += decoder.decode(chunk.value, { stream: true });
      let end = text.indexOf('\n\n');
      while (end >= 0) {
        const block = text.slice(0, end);
        text = text.slice(end + 2);
        const id = /^id: (\d+)$/m.exec(block)?.[1];
        const event = /^event: (\w+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id !== undefined) {
          frames.push({
            id: Number(id),
            ...(event ? { event } : {}),
            ...(data && event === 'change' ? { data: JSON.parse(data) } : {}),
          });
        }
        end = text.indexOf('\n\n');
      }
    }
  })();
  return {
    frames,
    ended: () => ended,
    /** Waits until a frame with this id (or a later one) arrived. */
    async reach(id: number) {
      for (let waited = 0; waited < 5000; waited += 10) {
        if (frames.some((frame) => frame.id >= id)) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no frame ${id} within 5 s: ${JSON.stringify(frames.slice(-3))}`);
    },
    /** Waits for a frame that matches. */
    async waitFor(match: (frame: Frame) => boolean): Promise<Frame> {
      for (let waited = 0; waited < 5000; waited += 10) {
        const found = frames.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no such frame within 5 s: ${JSON.stringify(frames.slice(-3))}`);
    },
    changes: (id: number) => frames.filter((frame) => frame.id === id && frame.event === 'change'),
    close: () => controller.abort(),
  };
}

type Stream = Awaited<ReturnType<typeof openStream>>;

/** A small deterministic generator, so that a failure can be run again as it was. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe.each(databases)('live updates on $name', ({ url, postgres, skip }) => {
  const schema = uniqueSchema('live');
  let store: Store;
  let app: FastifyInstance;
  let base: string;
  const people: Record<string, { authorization: string; userId: string }> = {};
  const customers: Record<string, StoredRecord> = {};
  let product: StoredRecord;

  beforeAll(async () => {
    if (skip) return;
    store = await openStore({ model, url, ...(postgres ? { schema } : {}) });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    app = await buildApp({ model, store });
    for (const name of ['A', 'B']) {
      const made = await store.create('Customer', {
        name: `Customer ${name}`,
        email: `${name.toLowerCase()}@customers.test`,
        creditLimit: 1_000_000,
        active: true,
      });
      if (!made.ok) throw new Error('set-up failed');
      customers[name] = made.value;
    }
    const made = await store.create('Product', {
      sku: 'RG-1001',
      name: 'Line',
      category: 'rigging',
      price: 5,
      stock: 1000,
    });
    if (!made.ok) throw new Error('set-up failed');
    product = made.value;
    people.owner = await signInAs(app, store, 'owner');
    people.clerk1 = await signInAs(app, store, 'clerk', {}, 'clerk1@shop.test');
    people.clerk2 = await signInAs(app, store, 'clerk', {}, 'clerk2@shop.test');
    people.warehouse = await signInAs(app, store, 'warehouse');
    people.customerA = await signInAs(
      app,
      store,
      'customer',
      { customerId: customers.A?.id as number },
      'a@shop.test',
    );
    people.customerB = await signInAs(
      app,
      store,
      'customer',
      { customerId: customers.B?.id as number },
      'b@shop.test',
    );
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    if (skip) return;
    await app?.close();
    await store?.close();
    if (postgres) await dropSchema(schema);
  });

  const as = async (
    who: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const answer = await fetch(`${base}/api${path}`, {
      method,
      headers: {
        authorization: people[who]?.authorization ?? '',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return {
      status: answer.status,
      etag: answer.headers.get('etag'),
      body: text ? JSON.parse(text) : undefined,
    };
  };

  it.skipIf(skip !== undefined)(
    `tells each role exactly what it may read of 24 generated changes, before or after each${skip ? ` — skipped: ${skip}` : ''}`,
    async () => {
      const roles = Object.keys(people);
      const streams: Record<string, Stream> = Object.fromEntries(
        await Promise.all(
          roles.map(async (role) => [
            role,
            await openStream(`${base}/api/_events`, { authorization: people[role]?.authorization ?? '' }),
          ]),
        ),
      );
      const next = random(7);
      const orders: number[] = [];
      const kinds = new Map<string, number>();
      let seenUpTo = 0;
      const editorsTold = new Set<string>();
      const roleOf: Record<string, string> = {
        owner: 'owner',
        clerk1: 'clerk',
        clerk2: 'clerk',
        warehouse: 'warehouse',
        customerA: 'customer',
        customerB: 'customer',
      };
      for (let step = 0; step < 24; step++) {
        const writer = next() < 0.5 ? 'owner' : 'clerk1';
        const choice = orders.length === 0 ? 0 : Math.floor(next() * 4);
        const id = orders[Math.floor(next() * orders.length)];
        const seen = async (order: number | undefined) =>
          Object.fromEntries(
            await Promise.all(
              roles.map(async (role) => [
                role,
                order === undefined ? undefined : await as(role, 'GET', `/orders/${order}`),
              ]),
            ),
          );
        const before = await seen(choice === 0 ? undefined : id);
        let written: number | undefined;
        if (choice === 0) {
          const customer = next() < 0.5 ? customers.A : customers.B;
          const made = await as(writer, 'POST', '/orders', {
            customer: customer?.id,
            shippingAddress: ADDRESS,
            lines: [{ product: product.id, quantity: 1, unitPrice: 5 }],
          });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          written = made.body.id;
          orders.push(made.body.id);
        } else if (choice === 1) {
          const current = await as('owner', 'GET', `/orders/${id}`);
          const other = current.body.customer === customers.A?.id ? customers.B : customers.A;
          const changed = await as(
            'owner',
            'PATCH',
            `/orders/${id}`,
            { customer: other?.id },
            { 'if-match': current.etag ?? '' },
          );
          if (changed.status !== 200) continue;
          written = id;
        } else if (choice === 2) {
          const placed = await as(writer, 'POST', `/orders/${id}/place`);
          if (placed.status !== 200) continue;
          written = id;
        } else {
          const gone = await as('owner', 'DELETE', `/orders/${id}`);
          if (gone.status !== 204) continue;
          orders.splice(orders.indexOf(id as number), 1);
          written = id;
        }
        const after = await seen(written);
        // The owner reads every order: the owner's stream tells the id of the event this write made.
        const ownerEvent = await streams.owner?.waitFor(
          (frame) =>
            frame.id > seenUpTo && frame.data?.entity === 'Order' && frame.data?.key === String(written),
        );
        const eventId = ownerEvent?.id as number;
        seenUpTo = eventId;
        for (const role of roles) {
          const stream = streams[role];
          await stream?.reach(eventId);
          const told = stream?.changes(eventId) ?? [];
          const could = before[role]?.status === 200;
          const can = after[role]?.status === 200;
          const where = `step ${step} (${['create', 'reassign', 'place', 'delete'][choice]}) as ${role}`;
          if (!could && !can) {
            expect(told, where).toEqual([]);
            continue;
          }
          expect(told, where).toHaveLength(1);
          const data = told[0]?.data ?? {};
          kinds.set(String(data.kind), (kinds.get(String(data.kind)) ?? 0) + 1);
          expect(data.entity, where).toBe('Order');
          expect(data.key, where).toBe(String(written));
          if (can) {
            // What the stream shows is what the API shows this role: hidden fields left out alike.
            expect(data.record, where).toEqual(after[role]?.body);
            expect(data.kind, where).toBe(could ? 'updated' : 'created');
          } else {
            expect(data.record, where).toBeUndefined();
            expect(data.kind, where).toBe(choice === 3 ? 'deleted' : 'hidden');
          }
          // Who made it is told to those who may change the record too, never to a role that only reads.
          const record = (can ? after[role]?.body : before[role]?.body) as Record<string, JsonValue>;
          const principal = { role: roleOf[role] as string, user: { id: people[role]?.userId as string } };
          if (checkAction(model, principal, 'Order', 'update', record).allowed) {
            const by = people[choice === 0 || choice === 2 ? writer : 'owner']?.userId;
            expect((data.by as { id: string } | undefined)?.id, where).toBe(by);
            editorsTold.add(role);
          } else {
            expect(data.by, where).toBeUndefined();
          }
        }
      }
      // Editors were told who, and readers (the warehouse, the customers) were told something but not who.
      expect([...editorsTold].sort()).toEqual(['clerk1', 'clerk2', 'owner']);
      // The walk met every kind a role can be told.
      expect([...kinds.keys()].sort()).toEqual(['created', 'deleted', 'hidden', 'updated']);
      for (const stream of Object.values(streams)) stream.close();
    },
    60_000,
  );

  it.skipIf(skip !== undefined)(
    'resumes after a drop from Last-Event-ID, and says reset when it cannot',
    async () => {
      const owner = { authorization: people.owner?.authorization ?? '' };
      const first = await openStream(`${base}/api/_events`, owner);
      const made = await as('owner', 'POST', '/customers', {
        name: 'Dropped Traders',
        email: 'd@t.test',
        active: true,
      });
      expect(made.status).toBe(201);
      const dropped = await first.waitFor(
        (frame) => (frame.data?.record as { name?: string } | undefined)?.name === 'Dropped Traders',
      );
      const last = dropped.id;
      first.close();
      // While nobody listens, two changes are made.
      await as('owner', 'POST', '/customers', { name: 'Missed One', email: 'm1@t.test', active: true });
      await as('owner', 'POST', '/customers', { name: 'Missed Two', email: 'm2@t.test', active: true });
      const resumed = await openStream(`${base}/api/_events`, { ...owner, 'last-event-id': String(last) });
      await resumed.reach(last + 2);
      const names = resumed.frames
        .filter((frame) => frame.event === 'change')
        .map((frame) => (frame.data?.record as { name?: string } | undefined)?.name);
      expect(names).toEqual(['Missed One', 'Missed Two']);
      resumed.close();
      // From an id this database never gave: what was missed cannot be told, so the client reads again.
      const lost = await openStream(`${base}/api/_events`, { ...owner, 'last-event-id': '999999999' });
      for (let waited = 0; waited < 2000 && lost.frames.length === 0; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(lost.frames[0]?.event).toBe('reset');
      lost.close();
    },
  );

  it.skipIf(skip !== undefined)('opens with a one-use ticket, and never for nobody', async () => {
    expect((await fetch(`${base}/api/_events`)).status).toBe(401);
    const ticket = await as('customerA', 'POST', '/_events/tickets');
    expect(ticket.status).toBe(200);
    expect(ticket.body.ticket).not.toBe(people.customerA?.authorization.slice('Bearer '.length));
    const opened = await fetch(`${base}/api/_events?ticket=${encodeURIComponent(ticket.body.ticket)}`);
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const again = await fetch(`${base}/api/_events?ticket=${encodeURIComponent(ticket.body.ticket)}`);
    expect(again.status).toBe(401);
    // A session token is no ticket, and a ticket no session token.
    const token = people.customerA?.authorization.slice('Bearer '.length) ?? '';
    expect((await fetch(`${base}/api/_events?ticket=${token}`)).status).toBe(401);
    const another = await as('customerA', 'POST', '/_events/tickets');
    const asToken = await fetch(`${base}/api/orders`, {
      headers: { authorization: `Bearer ${another.body.ticket}` },
    });
    expect(asToken.status).toBe(401);
  });

  it.skipIf(skip !== undefined)('ends the stream of a session signed out', async () => {
    const clerk = await signInAs(app, store, 'clerk', {}, `leaving-${Date.now()}@shop.test`);
    const stream = await openStream(`${base}/api/_events`, { authorization: clerk.authorization });
    await fetch(`${base}/api/auth/sign-out`, {
      method: 'POST',
      headers: { authorization: clerk.authorization },
    });
    await as('owner', 'POST', '/customers', { name: 'After Sign-out', email: 's@t.test', active: true });
    for (let waited = 0; waited < 3000 && !stream.ended(); waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stream.ended()).toBe(true);
    expect(stream.frames.filter((frame) => frame.event === 'change')).toEqual([]);
  });
});

describe('allowed origins', () => {
  it('let the pages of a named origin call the API and follow its changes, and no other', async () => {
    const store = await openStore({ model: { ...model, roles: { shown: false } }, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const app = await buildApp({
      model: { ...model, roles: { shown: false } },
      store,
      allowedOrigins: ['https://admin.example.com'],
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const preflight = await fetch(`${base}/api/customers`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://admin.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, idempotency-key',
        },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const stream = await fetch(`${base}/api/_events`, { headers: { origin: 'https://admin.example.com' } });
      expect(stream.status).toBe(200);
      expect(stream.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
      await stream.body?.cancel();
      const other = await fetch(`${base}/api/customers`, { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('live updates turned off', () => {
  it('name no stream in /spec.json, and answer none', async () => {
    const store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    const off = await buildApp({ model, store, liveUpdates: false });
    const on = await buildApp({ model, store });
    try {
      expect((await off.inject({ url: '/spec.json' })).json().api.events).toBeUndefined();
      expect((await on.inject({ url: '/spec.json' })).json().api.events).toBe('/_events');
      expect((await off.inject({ url: '/api/_events' })).statusCode).toBe(404);
    } finally {
      await off.close();
      await on.close();
      await store.close();
    }
  });
});
