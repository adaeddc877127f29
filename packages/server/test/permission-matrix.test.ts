// The client and the prototype API must agree on point 6. The client decides what to show with the
// shared rules of packages/model (checkScreen, checkAction, fieldAccess, transitionAccess with
// checkTransition); this test asks the API the same questions for every role of the rich example, every
// screen, every action on records in every state and of every owner, every field and every transition,
// and expects it to allow exactly what those rules allow. The cases are computed from the specification,
// never written by hand.
import {
  type Call,
  checkAction,
  checkScreen,
  checkTransition,
  describeApi,
  fieldAccess,
  type JsonValue,
  type Model,
  type Principal,
  type Screen,
  type StateMachine,
  transitionAccess,
} from '@ninefold/model';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store, StoredRecord } from '../src/store/store';
import { exampleModel } from './support/databases';
import { signInAs } from './support/sign-in';

const shop: Model = exampleModel('shop.md');
const model = shop;
const NOW = new Date('2026-06-01T12:00:00Z');
if (!model.roles.shown || !model.states.shown || !model.screens.shown || !model.entities.shown) {
  throw new Error('the rich example shows points 2, 3, 4 and 6');
}
const roles = model.roles.roles.map((role) => role.name);
const machine = model.states.machines.find((m) => m.entity === 'Order') as StateMachine;
const calls = describeApi(model).calls;

interface Signed {
  principal: Principal;
  authorization: string;
}

/** Numbers for the unique values of new records (emails, SKUs). */
let made = 0;

/**
 * The rich example, and a variant whose clerk may not see purchase orders nor change notes, so that the
 * field part of the matrix meets refusals as well as permissions.
 */
const variants: Array<{ name: string; model: Model }> = [
  { name: 'the rich example', model: shop },
  { name: 'the rich example with fields hidden and read-only for the clerk', model: restrictedClerk(shop) },
];

for (const variant of variants)
  describe(`the permission matrix of ${variant.name}: the API allows exactly what the client shows`, () => {
    const model = variant.model;
    /** How many cases each part of the matrix asked; reported by the last test. */
    const asked = { screens: 0, actions: 0, fields: 0, transitions: 0, lists: 0 };
    let app: FastifyInstance;
    let store: Store;
    const signed = new Map<string, Signed>();
    /** Orders in every state, entered by the owner and by the clerk, for either customer. */
    const orders: StoredRecord[] = [];
    let customers: StoredRecord[] = [];
    let product: StoredRecord;

    beforeAll(async () => {
      store = await openStore({ model, url: 'sqlite::memory:' });
      expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
      app = await buildApp({ model, store, now: () => NOW });
      customers = [
        await created(store, 'Customer', customerValues('Anna Berg', 'anna@example.com')),
        await created(store, 'Customer', customerValues('Bo Lind', 'bo@example.com')),
      ];
      product = await created(store, 'Product', {
        sku: 'RG-1001',
        name: 'Mooring line',
        category: 'rigging',
        price: 24.5,
        stock: 10,
      });
      for (const role of roles) {
        // The customer's user is the first customer, so that "their own orders" are some, not all.
        const attributes: Record<string, JsonValue> =
          role === 'customer' ? { customerId: customers[0]?.id ?? 0 } : {};
        const { authorization, userId } = await signInAs(app, store, role, attributes);
        signed.set(role, {
          authorization,
          principal: { role, user: { id: userId, email: `${role}@shop.test`, role, ...attributes } },
        });
      }
      const owners = [signed.get('owner'), signed.get('clerk')].map((s) => String(s?.principal.user?.id));
      for (const state of machine.states) {
        for (const ownerId of owners) {
          for (const customer of customers) {
            orders.push(await created(store, 'Order', orderValues(customer, state.name, ownerId)));
          }
        }
      }
    });
    afterAll(async () => {
      await app.close();
      await store.close();
    });

    const as = (role: string) => {
      const found = signed.get(role);
      if (!found) throw new Error(`no user for ${role}`);
      return found;
    };
    const send = async (role: string, method: string, url: string, payload?: object) => {
      // Updates need the record's ETag; the matrix compares permissions, so it sends the current one.
      const target = method === 'PATCH' ? /^\/api\/([a-z]+)s\/(\d+)$/.exec(url) : null;
      const entity = ['Order', 'Customer', 'Product'].find((name) => name.toLowerCase() === target?.[1]);
      const version = entity ? await store.version(entity, Number(target?.[2])) : undefined;
      return app.inject({
        method: method as 'GET',
        url,
        headers: {
          authorization: as(role).authorization,
          ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
        },
        ...(payload === undefined ? {} : { payload }),
      });
    };
    const allowedBy = (answer: LightMyRequestResponse) => answer.statusCode < 400;
    const refusedAs = (answer: LightMyRequestResponse) =>
      answer.statusCode === 403 ? 'refused' : `answered ${answer.statusCode} ${answer.body.slice(0, 200)}`;

    it('screens: a role sees a screen exactly when the API answers its data', async () => {
      for (const role of roles) {
        for (const screen of model.screens.shown ? model.screens.items : []) {
          const probe = screenProbe(screen);
          if (!probe) continue;
          const shown = checkScreen(model, as(role).principal, screen).allowed;
          const answer = await send(role, probe.method, probe.url, probe.payload);
          asked.screens += 1;
          expect(
            { role, screen: screen.name, allowed: allowedBy(answer) },
            `${role} on ${screen.name}: ${refusedAs(answer)}`,
          ).toEqual({ role, screen: screen.name, allowed: shown });
        }
      }
    });

    it('actions: read, update and delete of every order, and create, as checkAction says', async () => {
      for (const role of roles) {
        const principal = as(role).principal;
        for (const order of orders) {
          for (const action of ['read', 'update'] as const) {
            const shown = checkAction(model, principal, 'Order', action, order).allowed;
            const answer =
              action === 'read'
                ? await send(role, 'GET', `/api/orders/${order.id}`)
                : await send(role, 'PATCH', `/api/orders/${order.id}`, {});
            asked.actions += 1;
            expect(
              allowedBy(answer),
              `${role} ${action} order ${order.id} (${order.status}): ${refusedAs(answer)}`,
            ).toBe(shown);
          }
        }
        for (const entity of ['Order', 'Customer', 'Product']) {
          const shown = checkAction(model, principal, entity, 'create').allowed;
          const answer = await send(role, 'POST', collectionOf(entity), newValues(entity, role));
          asked.actions += 1;
          expect(allowedBy(answer), `${role} create ${entity}: ${refusedAs(answer)}`).toBe(shown);
        }
      }
    });

    it('delete: a role deletes exactly the records checkAction lets it', async () => {
      for (const role of roles) {
        const principal = as(role).principal;
        for (const order of orders) {
          // A fresh copy for each role: a delete that works removes it.
          const copy = await created(store, 'Order', { ...withoutKey(order) });
          const shown = checkAction(model, principal, 'Order', 'delete', copy).allowed;
          const answer = await send(role, 'DELETE', `/api/orders/${copy.id}`);
          asked.actions += 1;
          expect(
            allowedBy(answer),
            `${role} delete order (${copy.status}, ${copy.ownerId}): ${refusedAs(answer)}`,
          ).toBe(shown);
        }
      }
    });

    it('fields: a field hidden from a role is in no answer to it, and every other field is', async () => {
      for (const role of roles) {
        const principal = as(role).principal;
        const { hidden } = fieldAccess(model, principal, 'Order');
        const readable = orders.filter(
          (order) => checkAction(model, principal, 'Order', 'read', order).allowed,
        );
        const list = await send(role, 'GET', '/api/orders?limit=100');
        expect(list.statusCode).toBe(200);
        const items = list.json().items as StoredRecord[];
        for (const order of readable) {
          const one = (await send(role, 'GET', `/api/orders/${order.id}`)).json() as StoredRecord;
          const inList = items.find((item) => item.id === order.id);
          for (const field of entityFields('Order')) {
            if (order[field] === undefined || order[field] === null) continue;
            asked.fields += 1;
            const expected = !hidden.has(field);
            expect(field in one, `${role} reads Order.${field}`).toBe(expected);
            expect(inList !== undefined && field in inList, `${role} lists Order.${field}`).toBe(expected);
          }
        }
      }
    });

    it('field writes: a role is refused exactly the fields its grant hides from it or makes read-only', async () => {
      const records: Record<string, StoredRecord | undefined> = {
        Order: orders.find((order) => order.status === 'draft'),
        Customer: customers[0],
        Product: product,
      };
      for (const role of roles) {
        const principal = as(role).principal;
        for (const [entity, record] of Object.entries(records)) {
          if (!record || !checkAction(model, principal, entity, 'update', record).allowed) continue;
          const { hidden, readOnly } = fieldAccess(model, principal, entity);
          for (const field of writableFields(entity)) {
            const value = record[field] ?? null;
            const answer = await send(role, 'PATCH', `${collectionOf(entity)}/${record.id}`, {
              [field]: value,
            });
            asked.fields += 1;
            const refused = answer.statusCode === 403 && answer.json().code === 'FORBIDDEN_FIELDS';
            expect(refused, `${role} writes ${entity}.${field}: ${refusedAs(answer)}`).toBe(
              hidden.has(field) || readOnly.has(field),
            );
          }
        }
      }
    });

    it('lists: each role is sent exactly the orders it may read, with a total that counts only those', async () => {
      for (const role of roles) {
        const principal = as(role).principal;
        if (!checkAction(model, principal, 'Order', 'read').allowed) continue;
        const current = (
          await store.list('Order', { filters: [], sort: [], limit: 10_000, withTotal: false })
        ).items;
        const expected = current
          .filter((order) => checkAction(model, principal, 'Order', 'read', order).allowed)
          .map((order) => order.id)
          .sort(byNumber);
        // Pages of 3, so that paging over a condition is tested, not only the first page.
        const seen: unknown[] = [];
        let total: number | undefined;
        for (let page = 1; page <= 50; page += 1) {
          const answer = (await send(role, 'GET', `/api/orders?page=${page}&limit=3`)).json();
          total = answer.total;
          seen.push(...(answer.items as StoredRecord[]).map((item) => item.id));
          if (answer.items.length < 3) break;
        }
        asked.lists += 1;
        expect({ role, ids: [...seen].sort(byNumber), total }).toEqual({
          role,
          ids: expected,
          total: expected.length,
        });
      }
    });

    it('transitions: a role takes a transition of an order exactly when the client offers it enabled', async () => {
      for (const role of roles) {
        const principal = as(role).principal;
        for (const step of machine.transitions) {
          for (const order of orders) {
            const copy = await created(store, 'Order', { ...withoutKey(order) });
            const access = transitionAccess(model, principal, machine, step, copy);
            const shown =
              access.allowed &&
              checkTransition(model, machine, step, copy, {
                now: NOW,
                ...(principal.role ? { role: principal.role } : {}),
                ...(principal.user ? { user: principal.user } : {}),
              }).allowed;
            const call = calls.find((c) => c.name === step.call) as Call;
            const answer = await send(role, call.method, `/api${call.path.replace('{id}', String(copy.id))}`);
            asked.transitions += 1;
            expect(
              allowedBy(answer),
              `${role} ${step.name} on ${copy.status} order: ${refusedAs(answer)}`,
            ).toBe(shown);
            // A record the role may read others of, but not this one, is answered as missing.
            const hidden =
              transitionAccess(model, principal, machine, step).allowed &&
              checkAction(model, principal, 'Order', 'read').allowed &&
              !checkAction(model, principal, 'Order', 'read', copy).allowed;
            if (!shown && !access.allowed) expect(answer.statusCode).toBe(hidden ? 404 : 403);
          }
        }
      }
    });

    it('asked every part of the matrix', () => {
      // 4 roles: screens with a data call, every order × read/update/delete, creates, fields, transitions.
      const probed = model.screens.shown ? model.screens.items.filter((screen) => screenProbe(screen)) : [];
      expect(asked.screens).toBe(roles.length * probed.length);
      expect(asked.actions).toBe(roles.length * (orders.length * 3 + 3));
      expect(asked.transitions).toBe(roles.length * machine.transitions.length * orders.length);
      expect(asked.fields).toBeGreaterThan(0);
      expect(asked.lists).toBe(roles.length);
      console.info(`permission matrix of ${variant.name}: ${JSON.stringify(asked)}`);
    });

    /** The call a screen makes first, as the client would make it, or none for screens without data. */
    function screenProbe(screen: Screen): { method: string; url: string; payload?: object } | undefined {
      const order = orders.find(
        (o) => o.status === 'draft' && o.ownerId === String(as('clerk').principal.user?.id),
      );
      switch (screen.kind) {
        case 'list':
          return { method: 'GET', url: `${collectionOf(screen.entity)}?limit=1` };
        case 'detail':
          return { method: 'GET', url: `${collectionOf(screen.entity)}/${idOf(screen.entity, order)}` };
        case 'create':
          return {
            method: 'POST',
            url: collectionOf(screen.entity),
            payload: newValues(screen.entity, 'owner'),
          };
        case 'edit':
          return {
            method: 'PATCH',
            url: `${collectionOf(screen.entity)}/${idOf(screen.entity, order)}`,
            payload: {},
          };
        case 'dashboard':
        case 'sign-in':
        case 'custom':
          return undefined;
      }
    }

    function idOf(entity: string, order: StoredRecord | undefined): unknown {
      switch (entity) {
        case 'Order':
          // A draft the clerk entered: the one record every role with a screen of orders may reach.
          return order?.id;
        case 'Customer':
          return customers[0]?.id;
        default:
          return product.id;
      }
    }

    function newValues(entity: string, role: string): object {
      switch (entity) {
        case 'Order':
          return {
            customer: customers[0]?.id,
            shippingAddress: { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' },
            lines: [{ product: product.id, quantity: 1, unitPrice: 24.5 }],
          };
        case 'Customer':
          return customerValues(`New ${role}`, `new-${role}-${++made}@example.com`);
        default:
          return {
            sku: `NW-${String(++made).padStart(6, '0')}`,
            name: 'Fender',
            category: 'safety',
            price: 12,
            stock: 3,
          };
      }
    }

    function orderValues(customer: StoredRecord | undefined, status: string, ownerId: string): StoredRecord {
      return {
        customer: customer?.id ?? null,
        status,
        ownerId,
        shippingAddress: { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' },
        lines: [{ product: product.id ?? null, quantity: 2, unitPrice: 24.5 }],
        attachment: {
          id: '00000000-0000-0000-0000-000000000001',
          url: '/api/_files/00000000-0000-0000-0000-000000000001',
          name: 'po.pdf',
          type: 'application/pdf',
          size: 10,
        },
        notes: 'Leave at the gate.',
      };
    }
  });

function restrictedClerk(base: Model): Model {
  const changed = structuredClone(base);
  const grant = changed.roles.shown
    ? changed.roles.grants.find((g) => g.role === 'clerk' && g.entity === 'Order')
    : undefined;
  if (!grant) throw new Error('the clerk has a grant on orders');
  grant.hidden = ['attachment'];
  grant.readOnly = ['notes'];
  return changed;
}

function customerValues(name: string, email: string): StoredRecord {
  return { name, email, country: 'SE', creditLimit: 1000, active: true };
}

async function created(store: Store, entity: string, values: StoredRecord): Promise<StoredRecord> {
  const result = await store.create(entity, values);
  if (!result.ok) throw new Error(`${entity}: ${JSON.stringify(result.failure)}`);
  return result.value;
}

function withoutKey(record: StoredRecord): StoredRecord {
  const { id: _id, ...rest } = record;
  return rest;
}

function collectionOf(entity: string): string {
  return `/api/${entity.toLowerCase()}s`;
}

function entityFields(entity: string): string[] {
  const found = model.entities.shown ? model.entities.items.find((e) => e.name === entity) : undefined;
  return (found?.fields ?? []).map((field) => field.name);
}

/** Fields a client may send at all (not read-only or derived for everyone). */
function writableFields(entity: string): string[] {
  const found = model.entities.shown ? model.entities.items.find((e) => e.name === entity) : undefined;
  return (found?.fields ?? [])
    .filter((field) => !field.readOnly && field.derived === undefined)
    .map((field) => field.name);
}

function byNumber(a: unknown, b: unknown): number {
  return Number(a) - Number(b);
}
