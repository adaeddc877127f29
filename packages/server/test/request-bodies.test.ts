// What the prototype API answers for bodies it cannot take, as docs/prototype-api.md documents them:
// a JSON body that does not parse, an empty one, one in a media type the call does not take, and a
// transition sent with a JSON content type and nothing in it (no body: it runs).
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';
import { ADDRESS, customerAndProduct } from './support/shop-records';
import { signInAs } from './support/sign-in';

const model = exampleModel();
let app: FastifyInstance;
let store: Store;
let owner: { authorization: string };
let orderId: string;

beforeAll(async () => {
  store = await openStore({ model, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  app = await buildApp({ model, store });
  owner = await signInAs(app, store, 'owner');
  const { customer, product } = await customerAndProduct(store);
  const order = await send({
    method: 'POST',
    url: '/api/orders',
    payload: {
      customer: customer.id,
      shippingAddress: ADDRESS,
      lines: [{ product: product.id, quantity: 1, unitPrice: 5 }],
    },
  });
  expect(order.statusCode).toBe(201);
  orderId = String(order.json().id);
});
afterAll(async () => {
  await app?.close();
  await store?.close();
});

function send(options: InjectOptions) {
  return app.inject({ ...options, headers: { authorization: owner.authorization, ...options.headers } });
}

const json = { 'content-type': 'application/json' };

describe('bodies the API cannot take', () => {
  it.each([
    ['JSON that does not parse', { headers: json, payload: '{"name": ' }, 400, 'MALFORMED_JSON'],
    ['an empty body with a JSON content type', { headers: json, payload: '' }, 400, 'BODY_NOT_AN_OBJECT'],
    ['no body at all', {}, 400, 'BODY_NOT_AN_OBJECT'],
    ['JSON that is not an object', { headers: json, payload: '[1, 2]' }, 400, 'BODY_NOT_AN_OBJECT'],
    ['text', { headers: { 'content-type': 'text/plain' }, payload: 'name=x' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ] as const)('answers %s with its documented status and code', async (_label, body, status, code) => {
    const answer = await send({ method: 'POST', url: '/api/customers', ...body });
    expect(answer.statusCode).toBe(status);
    expect(answer.json().code).toBe(code);
  });

  it('takes a transition sent with a JSON content type and an empty body, as one with no body', async () => {
    const answer = await send({
      method: 'POST',
      url: `/api/orders/${orderId}/place`,
      headers: json,
      payload: '',
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().status).toBe('placed');
  });
});
