// GET /openapi.json describes exactly what the prototype API serves: every answer a run of real requests
// gets (status, problem code, body) is one the document says that operation gives, in its shape.
import { gunzipSync } from 'node:zlib';
import { Validator } from '@cfworker/json-schema';
import { prototypeApi } from '@ninefold/model';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { contractDocument } from '../src/contract';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';
import { signInAs } from './support/sign-in';

interface Operation {
  operationId: string;
  responses: Record<
    string,
    { content?: Record<string, { schema?: object; examples?: Record<string, unknown> }> } | undefined
  >;
}
interface Contract {
  paths: Record<string, Record<string, Operation | undefined>>;
  components: object;
}
const model = exampleModel();

describe('GET /openapi.json', () => {
  let app: FastifyInstance;
  let store: Store;
  let document: Contract;
  const seen: string[] = [];

  beforeAll(async () => {
    store = await openStore({ model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    app = await buildApp({ model, store });
    document = (await app.inject({ url: '/openapi.json' })).json();
  });
  afterAll(async () => {
    await app.close();
    await store.close();
  });

  it('is the contract of the API it serves, compressed when asked', async () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(contractDocument(model, prototypeApi(model)))));
    const zipped = await app.inject({ url: '/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(document);
  });

  /** The operation a request reached: its path template matched against the request's path. */
  function operationFor(method: string, url: string): Operation {
    const path = new URL(url, 'http://x').pathname.replace(/^\/api/, '');
    for (const [template, item] of Object.entries(document.paths)) {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      const operation = item[method.toLowerCase()];
      if (pattern.test(path) && operation) return operation;
    }
    throw new Error(`the document has no operation for ${method} ${path}`);
  }

  /** Sends a request and checks its answer against what the document says of the operation. */
  async function documented(options: InjectOptions & { method: string; url: string }) {
    const answer = await app.inject(options);
    const operation = operationFor(options.method, options.url);
    const status = String(answer.statusCode);
    const response = operation.responses[status];
    seen.push(`${operation.operationId} ${status}`);
    expect(response, `${operation.operationId} answered ${status}: ${answer.body}`).toBeDefined();
    const type = String(answer.headers['content-type'] ?? '');
    if (type.startsWith('application/problem+json')) {
      const code = answer.json().code;
      const examples = response?.content?.['application/problem+json']?.examples ?? {};
      expect(Object.keys(examples), `${operation.operationId} ${status}`).toContain(code);
    } else if (type.startsWith('application/json')) {
      const schema = response?.content?.['application/json']?.schema;
      expect(schema, `${operation.operationId} ${status} has a schema`).toBeDefined();
      const validator = new Validator({ ...schema, components: document.components } as never, '2020-12');
      const result = validator.validate(answer.json());
      expect(
        result.errors.map((e) => `${e.instanceLocation} ${e.error}`),
        operation.operationId,
      ).toEqual([]);
    }
    return answer;
  }

  it('documents every answer of a run of real requests, in its shape', async () => {
    const owner = await signInAs(app, store, 'owner');
    const customerRole = await signInAs(app, store, 'customer', { customerId: 1 }, 'cy@shop.test');
    const as = (who: { authorization: string }) => ({ authorization: who.authorization });
    const customer = await documented({
      method: 'POST',
      url: '/api/customers',
      headers: as(owner),
      payload: {
        name: 'Anna Berg',
        email: 'anna@example.com',
        country: 'SE',
        creditLimit: 1000,
        active: true,
      },
    });
    expect(customer.statusCode).toBe(201);
    const id = customer.json().id;
    await documented({
      method: 'POST',
      url: '/api/customers',
      headers: as(owner),
      payload: { email: 'nope' },
    });
    await documented({
      method: 'POST',
      url: '/api/customers',
      headers: { ...as(owner), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    await documented({ method: 'GET', url: '/api/customers?sort=-name', headers: as(owner) });
    await documented({ method: 'GET', url: '/api/customers?bogus=1', headers: as(owner) });
    await documented({ method: 'GET', url: `/api/customers/${id}`, headers: as(owner) });
    await documented({ method: 'GET', url: '/api/customers/999', headers: as(owner) });
    await documented({ method: 'GET', url: '/api/customers' });
    await documented({
      method: 'PATCH',
      url: `/api/customers/${id}`,
      headers: as(owner),
      payload: { name: 'Ann' },
    });
    await documented({
      method: 'PATCH',
      url: `/api/customers/${id}`,
      headers: { ...as(owner), 'if-match': '"7"' },
      payload: { name: 'Ann' },
    });
    await documented({
      method: 'PATCH',
      url: `/api/customers/${id}`,
      headers: { ...as(owner), 'if-match': '"1"' },
      payload: { name: 'Ann' },
    });
    const product = await documented({
      method: 'POST',
      url: '/api/products',
      headers: as(owner),
      payload: { sku: 'RG-1001', name: 'Mooring line', category: 'rigging', price: 24.5, stock: 100 },
    });
    const order = await documented({
      method: 'POST',
      url: '/api/orders',
      headers: { ...as(owner), 'idempotency-key': 'order-1' },
      payload: {
        customer: id,
        shippingAddress: { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' },
        lines: [{ product: product.json().id, quantity: 2, unitPrice: 24.5 }],
      },
    });
    expect(order.statusCode).toBe(201);
    const orderId = order.json().id;
    await documented({ method: 'POST', url: `/api/orders/${orderId}/pay`, headers: as(owner) });
    await documented({
      method: 'PATCH',
      url: `/api/orders/${orderId}`,
      headers: { ...as(owner), 'if-match': '"1"' },
      payload: { status: 'paid' },
    });
    await documented({ method: 'POST', url: `/api/orders/${orderId}/place`, headers: as(owner) });
    await documented({ method: 'GET', url: '/api/orders', headers: as(customerRole) });
    await documented({
      method: 'POST',
      url: '/api/orders',
      headers: as(customerRole),
      payload: { customer: id },
    });
    await documented({ method: 'DELETE', url: `/api/customers/${id}`, headers: as(owner) });
    await documented({ method: 'GET', url: `/api/_history/Order/${orderId}`, headers: as(owner) });
    await documented({ method: 'GET', url: `/api/_names/Customer?id=${id}`, headers: as(owner) });
    // The run reached every kind of answer it set out to: successes, refusals of each point, and 401.
    expect(seen).toEqual(
      expect.arrayContaining([
        'createCustomer 201',
        'createCustomer 422',
        'createCustomer 400',
        'listCustomers 200',
        'listCustomers 400',
        'listCustomers 401',
        'getCustomer 404',
        'updateCustomer 428',
        'updateCustomer 412',
        'updateCustomer 200',
        'payOrder 409',
        'placeOrder 200',
        'updateOrder 409',
        'createOrder 403',
        'deleteCustomer 409',
      ]),
    );
  });
});
