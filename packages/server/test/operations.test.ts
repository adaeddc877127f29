// What an operator reads of a running API: a JSON line per request under its request id, Prometheus
// metrics, and probes of life and readiness. Asked of the shop of the examples, as its clients ask it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createLogger } from '../src/operations/request-log';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';
import { ADDRESS, customerAndProduct } from './support/shop-records';
import { signInAs, TEST_PASSWORD } from './support/sign-in';

const model = exampleModel();
const lines: string[] = [];
const TOKEN = 'a-metrics-token-of-some-length';
let store: Store;
let app: Awaited<ReturnType<typeof buildApp>>;
let owner: { authorization: string };
let orderBody: Record<string, unknown>;

beforeAll(async () => {
  store = await openStore({ model, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  app = await buildApp({
    model,
    store,
    logger: createLogger('info', { write: (line: string) => lines.push(line) }).logger,
    metrics: { token: TOKEN },
  });
  owner = await signInAs(app, store, 'owner');
  const { customer, product } = await customerAndProduct(store, { creditLimit: 1_000_000 });
  orderBody = {
    customer: customer.id,
    shippingAddress: ADDRESS,
    lines: [{ product: product.id, quantity: 1, unitPrice: 5 }],
  };
});
afterAll(async () => {
  await app.close();
  await store.close();
});

const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const metricsText = async () =>
  (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

describe('request ids', () => {
  it('keeps a proxy’s plain id, makes one for a missing or hostile id, and sends it back on every answer', async () => {
    const kept = await app.inject({ url: '/api/orders', headers: { 'x-request-id': 'edge-42.a:b' } });
    expect(kept.headers['x-request-id']).toBe('edge-42.a:b');
    const hostile = await app.inject({
      url: '/api/orders',
      headers: { 'x-request-id': `"},"admin":true,"x":"${'y'.repeat(200)}` },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await app.inject({ url: '/no/such/path' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.headers['x-request-id']).not.toBe(hostile.headers['x-request-id']);
  });
});

describe('the request log', () => {
  it('writes one line per request, with its id, method, route pattern, status and time, and nothing else', async () => {
    lines.length = 0;
    const created = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { authorization: owner.authorization, 'x-request-id': 'write-1' },
      payload: orderBody,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    await app.inject({ url: `/api/orders/${id}`, headers: { authorization: owner.authorization } });
    const entries = logged();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      level: 'info',
      msg: 'request',
      requestId: 'write-1',
      method: 'POST',
      route: '/api/orders',
      status: 201,
    });
    // The pattern, not the path: the key of a record is not the log reader's to see.
    expect(entries[1]).toMatchObject({ method: 'GET', route: '/api/orders/:id', status: 200 });
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(
        ['hostname', 'level', 'method', 'ms', 'msg', 'pid', 'requestId', 'route', 'status', 'time'].sort(),
      );
      expect(entry.ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('never holds a password, a token, a searched text or a value sent', async () => {
    lines.length = 0;
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: 'owner@shop.test', password: TEST_PASSWORD },
    });
    const token = (signIn.json() as { token: string }).token;
    await app.inject({
      url: '/api/customers?q=needle-in-the-haystack',
      headers: { authorization: `Bearer ${token}` },
    });
    await app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Wilhelmina Quarterhouse', email: 'wq@secret.test' },
    });
    await app.inject({ url: '/api/orders', headers: { authorization: 'Bearer not-a-real-token-at-all' } });
    const text = lines.join('');
    expect(lines.length).toBe(4);
    for (const secret of [
      TEST_PASSWORD,
      token,
      token.split('.')[1] ?? token,
      'needle-in-the-haystack',
      'Wilhelmina',
      'wq@secret.test',
      'not-a-real-token-at-all',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(logged().map((entry) => entry.status)).toEqual([200, 200, 201, 401]);
  });

  it('logs a server error with its reference and stack, beside its request', async () => {
    lines.length = 0;
    const broken = await buildApp({
      model,
      store: new Proxy(store, {
        get: (target, property) =>
          property === 'list'
            ? () => Promise.reject(new Error('the disk is on fire'))
            : Reflect.get(target, property, target),
      }),
      logger: createLogger('info', { write: (line: string) => lines.push(line) }).logger,
    });
    const signedIn = await broken.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: 'owner@shop.test', password: TEST_PASSWORD },
    });
    const answer = await broken.inject({
      url: '/api/customers',
      headers: { authorization: `Bearer ${(signedIn.json() as { token: string }).token}` },
    });
    await broken.close();
    expect(answer.statusCode).toBe(500);
    const reference = (answer.json() as { reference: string }).reference;
    const entries = logged();
    const error = entries.find((entry) => entry.msg === 'server error');
    expect(error).toMatchObject({ level: 'error', reference, err: { message: 'the disk is on fire' } });
    expect(String((error?.err as { stack?: string } | undefined)?.stack)).toContain(
      'Error: the disk is on fire',
    );
    expect(entries.at(-1)).toMatchObject({ status: 500, route: '/api/customers' });
  });
});

describe('metrics', () => {
  it('are served only for the token', async () => {
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } })).statusCode,
    ).toBe(401);
    const answer = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/plain');
    expect(answer.body).toContain('process_cpu_seconds_total');
  });

  it('count requests by route pattern and status, each unknown path under one name', async () => {
    const before = await metricsText();
    const count = (text: string, labels: string) =>
      Number(new RegExp(`^ninefold_http_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const listed = 'method="GET",route="/api/orders",status="200"';
    for (let i = 0; i < 3; i++)
      await app.inject({ url: '/api/orders', headers: { authorization: owner.authorization } });
    await app.inject({ url: '/a/path/nobody/knows' });
    await app.inject({ url: '/another/unknown' });
    const after = await metricsText();
    expect(count(after, listed) - count(before, listed)).toBe(3);
    const unmatched = 'method="GET",route="unmatched",status="404"';
    expect(count(after, unmatched) - count(before, unmatched)).toBe(2);
    expect(after).not.toContain('nobody/knows');
    expect(after).toMatch(
      /^ninefold_http_request_duration_seconds_count\{method="GET",route="\/api\/orders"\} \d+$/m,
    );
    expect(after).toMatch(/^ninefold_event_streams 0$/m);
  });

  it('count a retried write answered from its first answer, written once', async () => {
    const replays = (text: string) => Number(/^ninefold_idempotent_replays_total (\d+)$/m.exec(text)?.[1]);
    const before = replays(await metricsText());
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { authorization: owner.authorization, 'idempotency-key': 'metrics-replay-1' },
        payload: orderBody,
      });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(replays(await metricsText()) - before).toBe(1);
  });
});

describe('probes', () => {
  it('say alive, and ready once the tables are migrated and the database answers', async () => {
    expect((await app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
  });

  it('say not ready before the migration, and when the database is gone', async () => {
    const fresh = await openStore({ model, url: 'sqlite::memory:' });
    const early = await buildApp({ model, store: fresh });
    const before = await early.inject({ url: '/readyz' });
    expect(before.statusCode).toBe(503);
    expect(before.json().reason).toContain('not yet migrated');
    expect((await early.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await fresh.migrate({ allowDestructive: false })).ok).toBe(true);
    expect((await early.inject({ url: '/readyz' })).statusCode).toBe(200);
    await fresh.close();
    const gone = await early.inject({ url: '/readyz' });
    expect(gone.statusCode).toBe(503);
    expect(gone.json().reason).toContain('The database does not answer');
    await early.close();
  });
});
