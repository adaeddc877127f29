// Attacks on point 6 of the prototype API that must fail: another user's record by id, tampered,
// expired, unsigned and revoked tokens, writes of read-only, forbidden and role fields, and brute force
// on sign-in. Each expects the refusal the client can read (401 or 403 problems, 422 for fields no one
// may write, 429 with Retry-After).
import { randomBytes } from 'node:crypto';
import type { Call, Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { addUser } from '../src/auth/users';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { exampleModel } from './support/databases';
import { signInAs, TEST_PASSWORD } from './support/sign-in';
import { everyFieldWritable } from './support/variants';

const shop = exampleModel('shop.md');
const address = { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' };

describe('attacks on the prototype API’s permissions', () => {
  let app: FastifyInstance;
  let store: Store;
  let clock: number;
  let customers: StoredRecord[];
  let product: StoredRecord;

  async function start(model: Model = shop) {
    store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    clock = Date.UTC(2026, 5, 1, 12);
    app = await buildApp({
      model,
      store,
      now: () => new Date(clock),
      auth: { secret: randomBytes(32), tokenSeconds: 600, now: () => clock },
    });
    customers = [];
    for (const [name, email] of [
      ['Anna Berg', 'anna@example.com'],
      ['Bo Lind', 'bo@example.com'],
    ] as const) {
      const made = await store.create('Customer', {
        name,
        email,
        country: 'SE',
        creditLimit: 5000,
        active: true,
      });
      if (made.ok) customers.push(made.value);
    }
    const made = await store.create('Product', {
      sku: 'RG-1001',
      name: 'Line',
      category: 'rigging',
      price: 5,
      stock: 9,
    });
    if (!made.ok) throw new Error('no product');
    product = made.value;
  }
  afterEach(async () => {
    await app.close();
    await store.close();
  });

  const call = async (authorization: string | undefined, method: string, url: string, payload?: object) => {
    // Updates need the order's ETag; these attacks are on permissions, so they send the current one.
    const order = method === 'PATCH' ? /^\/api\/orders\/(\d+)$/.exec(url)?.[1] : undefined;
    const version = order === undefined ? undefined : await store.version('Order', Number(order));
    return app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
  };
  const newOrder = (customer: StoredRecord | undefined) => ({
    customer: customer?.id,
    shippingAddress: address,
    lines: [{ product: product.id, quantity: 1, unitPrice: 5 }],
  });

  describe('with the rich example', () => {
    beforeEach(() => start());

    it('refuses reading or changing another customer’s order by its id, and never lists it', async () => {
      const anna = await signInAs(
        app,
        store,
        'customer',
        { customerId: customers[0]?.id ?? 0 },
        'anna@shop.test',
      );
      const owner = await signInAs(app, store, 'owner');
      const hers = (await call(owner.authorization, 'POST', '/api/orders', newOrder(customers[0]))).json();
      const his = (await call(owner.authorization, 'POST', '/api/orders', newOrder(customers[1]))).json();
      expect((await call(anna.authorization, 'GET', `/api/orders/${hers.id}`)).statusCode).toBe(200);
      // Another customer's order is answered as one that does not exist: its ids cannot be counted.
      const read = await call(anna.authorization, 'GET', `/api/orders/${his.id}`);
      const missing = await call(anna.authorization, 'GET', '/api/orders/999999');
      expect(read.statusCode).toBe(404);
      expect(read.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(Object.keys(read.json()).sort()).toEqual(Object.keys(missing.json()).sort());
      expect(read.body).not.toContain('Bo Lind');
      // Customers may change no order at all: refused before any record is read, which tells nothing.
      expect(
        (await call(anna.authorization, 'PATCH', `/api/orders/${his.id}`, { notes: 'mine now' })).statusCode,
      ).toBe(403);
      expect((await call(anna.authorization, 'DELETE', `/api/orders/${his.id}`)).statusCode).toBe(403);
      const listed = (await call(anna.authorization, 'GET', '/api/orders')).json();
      expect(listed.items.map((order: StoredRecord) => order.id)).toEqual([hers.id]);
      expect(listed.total).toBe(1);
      // Asking for the other customer's orders by filter finds none of them either.
      const filtered = (
        await call(anna.authorization, 'GET', `/api/orders?customer=${customers[1]?.id}`)
      ).json();
      expect(filtered).toEqual({ items: [], total: 0 });
      // Nor can a filter on a field hidden from the role probe its values.
      const probe = await call(anna.authorization, 'GET', '/api/orders?sort=ownerId');
      expect(probe.statusCode).toBe(400);
    });

    it('refuses a clerk changing a draft another clerk entered, and moving an order out of reach', async () => {
      const ann = await signInAs(app, store, 'clerk', {}, 'ann@shop.test');
      const bob = await signInAs(app, store, 'clerk', {}, 'bob@shop.test');
      const draft = (await call(ann.authorization, 'POST', '/api/orders', newOrder(customers[0]))).json();
      expect(draft.ownerId).toBe(ann.userId);
      expect(
        (await call(ann.authorization, 'PATCH', `/api/orders/${draft.id}`, { notes: 'ok' })).statusCode,
      ).toBe(200);
      // A draft another clerk entered is out of bob's reach: answered as missing, to every call.
      expect((await call(bob.authorization, 'GET', `/api/orders/${draft.id}`)).statusCode).toBe(404);
      expect(
        (await call(bob.authorization, 'PATCH', `/api/orders/${draft.id}`, { notes: 'x' })).statusCode,
      ).toBe(404);
      expect((await call(bob.authorization, 'POST', `/api/orders/${draft.id}/place`)).statusCode).toBe(404);
      expect((await store.get('Order', draft.id as number))?.notes).toBe('ok');
    });

    it('refuses a tampered token, a token of another secret, one signed with none, and an expired one', async () => {
      const clerk = await signInAs(app, store, 'clerk');
      const token = clerk.authorization.slice('Bearer '.length);
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, role: 'owner' })).toString('base64url');
      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      for (const bad of [
        `${header}.${forged}.${signature}`,
        `${none}.${forged}.`,
        `${none}.${payload}.`,
        `${header}.${payload}.${Buffer.from(randomBytes(32)).toString('base64url')}`,
        'not-a-token',
      ]) {
        const answer = await call(`Bearer ${bad}`, 'DELETE', `/api/customers/${customers[0]?.id}`);
        expect(answer.statusCode, bad).toBe(401);
        expect(answer.json().code).toBe('INVALID_TOKEN');
        expect(answer.headers['www-authenticate']).toContain('Bearer');
      }
      expect(await store.get('Customer', customers[0]?.id as number)).toBeDefined();
      expect((await call(clerk.authorization, 'GET', '/api/customers')).statusCode).toBe(200);
      clock += 601_000;
      const expired = await call(clerk.authorization, 'GET', '/api/customers');
      expect(expired.statusCode).toBe(401);
      expect(expired.json().code).toBe('SESSION_EXPIRED');
    });

    it('refuses a token after sign-out, and the old token after a refresh', async () => {
      const clerk = await signInAs(app, store, 'clerk');
      const refreshed = await call(clerk.authorization, 'POST', '/api/auth/refresh');
      expect(refreshed.statusCode).toBe(200);
      expect(refreshed.headers['cache-control']).toBe('no-store');
      const fresh = `Bearer ${refreshed.json().token}`;
      expect((await call(clerk.authorization, 'GET', '/api/customers')).json().code).toBe('SESSION_EXPIRED');
      expect((await call(fresh, 'GET', '/api/auth/session')).json().user).toMatchObject({ role: 'clerk' });
      expect((await call(fresh, 'POST', '/api/auth/sign-out')).statusCode).toBe(204);
      expect((await call(fresh, 'GET', '/api/customers')).statusCode).toBe(401);
    });

    it('answers a refresh call the specification names as its own, and refuses one without a session', async () => {
      if (!shop.calls.shown) throw new Error('the example shows point 7');
      const renew: Call = {
        name: 'renew',
        method: 'POST',
        path: '/session/renew',
        purpose: 'refresh',
        parameters: [],
        filters: [],
      };
      await app.close();
      await store.close();
      await start({ ...shop, calls: { ...shop.calls, items: [...shop.calls.items, renew] } });
      const clerk = await signInAs(app, store, 'clerk');
      expect((await call(undefined, 'POST', '/api/session/renew')).json().code).toBe('NOT_SIGNED_IN');
      const renewed = await call(clerk.authorization, 'POST', '/api/session/renew', {
        refresh_token: 'ignored',
      });
      expect(renewed.statusCode).toBe(200);
      const fresh = `Bearer ${renewed.json().token}`;
      expect((await call(clerk.authorization, 'GET', '/api/customers')).json().code).toBe('SESSION_EXPIRED');
      expect((await call(fresh, 'GET', '/api/auth/session')).json().user).toMatchObject({ role: 'clerk' });
    });

    it('refuses nobody signed in, with a problem the client can act on', async () => {
      const answer = await call(undefined, 'GET', '/api/orders');
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 'NOT_SIGNED_IN' });
      expect((await call(undefined, 'POST', '/api/customers', { name: 'x' })).statusCode).toBe(401);
      expect(await store.countUsers()).toBe(0);
    });

    it('refuses writing read-only fields and a role that is not a field, and keeps the stored record', async () => {
      const clerk = await signInAs(app, store, 'clerk');
      const created = await call(clerk.authorization, 'POST', '/api/orders', {
        ...newOrder(customers[0]),
        ownerId: 'someone-else',
      });
      expect(created.statusCode).toBe(422);
      expect(created.json().errors).toEqual([
        expect.objectContaining({ pointer: '/ownerId', code: 'read-only' }),
      ]);
      const order = (await call(clerk.authorization, 'POST', '/api/orders', newOrder(customers[0]))).json();
      for (const change of [{ ownerId: 'x' }, { status: 'paid' }, { total: 1 }, { number: 'A-1' }]) {
        const answer = await call(clerk.authorization, 'PATCH', `/api/orders/${order.id}`, change);
        expect(answer.statusCode, JSON.stringify(change)).toBeGreaterThanOrEqual(400);
        expect(answer.statusCode).toBeLessThan(500);
      }
      for (const body of [
        { name: 'Eve', email: 'eve@example.com', role: 'owner' },
        { name: 'Eve', email: 'eve@example.com', isAdmin: true },
      ]) {
        const answer = await call(clerk.authorization, 'POST', '/api/customers', body);
        expect(answer.statusCode).toBe(422);
        expect(answer.json().errors[0].code).toBe('unknown-field');
      }
      const signIn = await call(undefined, 'POST', '/api/auth/sign-in', {
        email: 'clerk@shop.test',
        password: TEST_PASSWORD,
        role: 'owner',
      });
      expect(signIn.statusCode).toBe(400);
      expect(signIn.json().code).toBe('INVALID_SIGN_IN');
      const stored = await store.get('Order', order.id as number);
      expect(stored).toMatchObject({ ownerId: clerk.userId, status: 'draft' });
    });

    it('slows down brute force on sign-in, even for the right password, and says how long to wait', async () => {
      await addUser(
        store,
        { email: 'owner@shop.test', role: 'owner', attributes: {} },
        { password: TEST_PASSWORD },
      );
      const attempt = (password: string) =>
        call(undefined, 'POST', '/api/auth/sign-in', { email: 'owner@shop.test', password });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await attempt(`guess-${i}`)).statusCode);
      // Three failures, and the next attempt waits (docs/prototype-api.md).
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429]);
      const blocked = await attempt(TEST_PASSWORD);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('TOO_MANY_ATTEMPTS');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      clock += Number(blocked.headers['retry-after']) * 1000;
      expect((await attempt(TEST_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('with grants that hide fields from a role that may write', () => {
    beforeEach(() => {
      // The rich example's clerk, made to lose sight of the attachment and the right to change notes.
      const model = structuredClone(shop);
      if (!model.roles.shown) throw new Error('point 6 is shown in the rich example');
      const grant = model.roles.grants.find((g) => g.role === 'clerk' && g.entity === 'Order');
      if (!grant) throw new Error('the clerk has a grant on orders');
      grant.hidden = ['attachment', 'placedOn'];
      grant.readOnly = ['notes'];
      return start(model);
    });

    it('refuses writing, filtering or sorting on a field hidden from the role, or writing one read-only for it, and never sends it', async () => {
      const clerk = await signInAs(app, store, 'clerk');
      const refused = await call(clerk.authorization, 'POST', '/api/orders', {
        ...newOrder(customers[0]),
        notes: 'rush',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'FORBIDDEN_FIELDS',
        errors: [{ pointer: '/notes', code: 'forbidden' }],
      });
      const order = (await call(clerk.authorization, 'POST', '/api/orders', newOrder(customers[0]))).json();
      const hidden = await call(clerk.authorization, 'PATCH', `/api/orders/${order.id}`, {
        attachment: null,
      });
      expect(hidden.json()).toMatchObject({ code: 'FORBIDDEN_FIELDS', errors: [{ pointer: '/attachment' }] });
      await store.update('Order', order.id as number, {
        attachment: { id: 'f', url: '/api/_files/f', name: 'po.pdf', type: 'application/pdf', size: 1 },
      });
      const read = (await call(clerk.authorization, 'GET', `/api/orders/${order.id}`)).json();
      expect(read).not.toHaveProperty('attachment');
      expect(read.ownerId).toBe(clerk.userId);
      // A hidden field cannot be probed by filtering or sorting on it either.
      for (const query of ['placedOn=2026-06-01', 'sort=-placedOn']) {
        const probe = await call(clerk.authorization, 'GET', `/api/orders?${query}`);
        expect(probe.statusCode, query).toBe(403);
        expect(probe.json()).toMatchObject({ code: 'FORBIDDEN_FIELDS', errors: [{ pointer: '/placedOn' }] });
      }
    });
  });

  describe('with a helpdesk whose every field is writable (a domain the rules were not shaped around)', () => {
    const helpdesk = everyFieldWritable(exampleModel('helpdesk.md'));
    beforeEach(async () => {
      store = await openStore({ model: helpdesk, url: 'sqlite::memory:' });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model: helpdesk, store });
      for (const name of ['Plumbing', 'Electrics'])
        await store.create('Team', { name, email: `${name}@club.test` });
    });
    const ticket = (team: number, requesterId: string) => ({ title: 'Leaking tap', team, requesterId });
    const send = (
      authorization: string,
      method: 'POST' | 'PATCH',
      url: string,
      payload: object,
      version?: number,
    ) =>
      app.inject({
        method,
        url,
        headers: { authorization, ...(version === undefined ? {} : { 'if-match': `"${version}"` }) },
        payload,
      });

    it('refuses a member creating a ticket in another member’s name, which the other would then see', async () => {
      const mia = await signInAs(app, store, 'member', {}, 'mia@club.test');
      const noor = await signInAs(app, store, 'member', {}, 'noor@club.test');
      const forged = await send(mia.authorization, 'POST', '/api/tickets', ticket(1, noor.userId));
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toMatchObject({ code: 'FORBIDDEN' });
      const seenByNoor = await app.inject({
        url: '/api/tickets',
        headers: { authorization: noor.authorization },
      });
      expect(seenByNoor.json()).toMatchObject({ items: [], total: 0 });
      const own = await send(mia.authorization, 'POST', '/api/tickets', ticket(1, mia.userId));
      expect(own.statusCode).toBe(201);
    });

    it('refuses moving a record out of reach: a member giving a ticket away, an agent sending it to another team', async () => {
      const mia = await signInAs(app, store, 'member', {}, 'mia@club.test');
      const noor = await signInAs(app, store, 'member', {}, 'noor@club.test');
      const agent = await signInAs(app, store, 'agent', { teamId: 1 }, 'agent@club.test');
      const made = (await send(mia.authorization, 'POST', '/api/tickets', ticket(1, mia.userId))).json();
      const given = await send(
        mia.authorization,
        'PATCH',
        `/api/tickets/${made.id}`,
        { requesterId: noor.userId },
        1,
      );
      expect(given.statusCode).toBe(403);
      const moved = await send(agent.authorization, 'PATCH', `/api/tickets/${made.id}`, { team: 2 }, 1);
      expect(moved.statusCode).toBe(403);
      const kept = await send(
        agent.authorization,
        'PATCH',
        `/api/tickets/${made.id}`,
        { priority: 'urgent', details: 'Water all over the floor of the hall.' },
        1,
      );
      expect(kept.statusCode).toBe(200);
      expect((await store.get('Ticket', made.id))?.team).toBe(1);
    });
  });
});
