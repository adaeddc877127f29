// Every status and code that docs/prototype-api.md documents, read from its table and asked of the API:
// each code is provoked as a client would meet it, and must answer the status the table gives it. The
// table must also name every code the API has (PROTOTYPE_CODES, itself held to the sources by
// problem-codes.test.ts), so that a new code is documented and provoked here, or this test fails.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec, type Model, PROTOTYPE_CODES } from '@ninefold/model';
import Fastify, { type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsSaid } from '../../../test/support/points-said';
import { buildApp } from '../src/app';
import { registerClient } from '../src/client';
import { parseProxyTarget } from '../src/dev-proxy';
import { type DevServer, LIVE_RELOAD_PATH, startDevServer } from '../src/dev-server';
import { openStore } from '../src/store/open-store';
import { controllableStore } from './support/controllable-store';
import { exampleModel } from './support/databases';
import { ADDRESS, customerAndProduct } from './support/shop-records';
import { signInAs, TEST_PASSWORD } from './support/sign-in';

const DOCUMENT = new URL('../../../docs/prototype-api.md', import.meta.url);

/** The table of docs/prototype-api.md's Errors section: each code with the status written beside it. */
function documentedCodes(): Map<string, number> {
  const text = readFileSync(DOCUMENT, 'utf8');
  const start = text.indexOf('| status | code | when |');
  expect(start, 'the table of codes is in the document').toBeGreaterThan(0);
  const codes = new Map<string, number>();
  for (const line of text.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [status, code] = line
      .split('|')
      .slice(1, 3)
      .map((cell) => cell.trim());
    for (const [, name] of (code ?? '').matchAll(/`([A-Z][A-Z_]+)`/g)) {
      expect(codes.has(name as string), `${name} is in the table once`).toBe(false);
      codes.set(name as string, Number(status));
    }
  }
  return codes;
}

const DOCUMENTED = documentedCodes();

interface Answer {
  status: number;
  code: string | undefined;
}

/** The shop of the examples on SQLite in memory, signed in as its owner. */
async function shop() {
  const model = exampleModel();
  const inner = await openStore({ model, url: 'sqlite::memory:' });
  expect((await inner.migrate({ allowDestructive: false })).ok).toBe(true);
  const control = controllableStore(inner);
  const app = await buildApp({ model, store: control.store, onServerError: () => undefined });
  const owner = await signInAs(app, inner, 'owner');
  const warehouse = await signInAs(app, inner, 'warehouse');
  // A credit limit no order of these tests reaches: the rules of point 5 are not what is provoked here.
  const { customer, product } = await customerAndProduct(inner, { creditLimit: 1_000_000 });
  const as = (who: { authorization: string } | undefined, options: InjectOptions) =>
    app.inject({
      ...options,
      headers: { ...(who ? { authorization: who.authorization } : {}), ...options.headers },
    });
  const send = (options: InjectOptions) => as(owner, options);
  const newOrder = async (quantity = 1) => {
    const answer = await send({
      method: 'POST',
      url: '/api/orders',
      payload: {
        customer: customer.id,
        shippingAddress: ADDRESS,
        lines: [{ product: product.id, quantity, unitPrice: 5 }],
      },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: number };
  };
  return { model, inner, control, app, owner, warehouse, customer, product, as, send, newOrder };
}

/** The tool library of test/fixtures: a domain of our own, with what the shop does not have. */
async function toolLibrary() {
  const text = readFileSync(new URL('./fixtures/tool-library.yaml', import.meta.url), 'utf8');
  const loaded = loadSpec(pointsSaid(text), { file: 'tool-library.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  const model: Model = loaded.model;
  const store = await openStore({ model, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model, store });
  const librarian = await signInAs(app, store, 'librarian');
  const member = await signInAs(app, store, 'member');
  const tool = await store.create('Tool', { name: 'Ladder' });
  if (!tool.ok) throw new Error('set-up failed: the tool was not made');
  const loan = await store.create('Loan', {
    tool: tool.value.id as number,
    days: 7,
    note: 'a week more',
    status: 'out',
  });
  if (!loan.ok) throw new Error('set-up failed: the loan was not made');
  return { model, store, app, librarian, member, loan: loan.value as { id: number; tool: number } };
}

/** `ninefold dev` against an API that does not answer (a port that was free a moment ago). */
async function devServer(model: Model): Promise<DevServer> {
  const probe = Fastify();
  const address = await probe.listen({ host: '127.0.0.1', port: 0 });
  await probe.close();
  const target = parseProxyTarget(`${address}/v1`);
  if (!target.ok) throw new Error(target.message);
  const clientDir = mkdtempSync(join(tmpdir(), 'ninefold-codes-'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>client</title>');
  const started = await startDevServer({
    model,
    issues: [],
    clientDir,
    api: { kind: 'proxy', target: target.target },
    port: 0,
    log: () => undefined,
  });
  if (!started.ok) throw new Error(started.message);
  return started.server;
}

let s: Awaited<ReturnType<typeof shop>>;
let library: Awaited<ReturnType<typeof toolLibrary>>;

/** The choir of test/fixtures, whose director manages people; its mail server refuses everything. */
async function choir() {
  const text = readFileSync(new URL('./fixtures/choir.yaml', import.meta.url), 'utf8');
  const loaded = loadSpec(text, { file: 'choir.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  const store = await openStore({ model: loaded.model, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const mailer = { send: () => Promise.reject(new Error('550 relaying denied')), close: () => undefined };
  const app = await buildApp({ model: loaded.model, store, people: { mailer } });
  const director = await signInAs(app, store, 'director', {}, 'dana@choir.test');
  const singer = await signInAs(app, store, 'singer', {}, 'sam@choir.test');
  closing.push(
    () => app.close(),
    () => store.close(),
  );
  return {
    app,
    director: { authorization: director.authorization },
    directorId: director.userId,
    singerId: singer.userId,
  };
}
let choirApp: ReturnType<typeof choir> | undefined;
/** The choir, made by the first code that needs it. */
const theChoir = () => {
  choirApp ??= choir();
  return choirApp;
};
const choirSend = async (options: InjectOptions) => {
  const { app, director } = await theChoir();
  return app.inject({ ...options, headers: { ...director, ...options.headers } });
};
let dev: DevServer;
const closing: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  s = await shop();
  library = await toolLibrary();
  dev = await devServer(s.model);
  closing.push(
    () => s.app.close(),
    () => s.inner.close(),
    () => library.app.close(),
    () => library.store.close(),
    () => dev.close(),
  );
});
afterAll(async () => {
  for (const close of closing) await close();
});

const json = { 'content-type': 'application/json' };
const csv = { 'content-type': 'text/csv' };
const problemOf = (answer: { statusCode: number; json(): unknown }): Answer => ({
  status: answer.statusCode,
  code: (answer.json() as { code?: string }).code,
});
const multipart = (boundary: string, parts: Array<[string, string]>) =>
  `${parts.map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')}--${boundary}--\r\n`;
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

/** For each documented code, a request that meets it, as a client would. */
const PROVOKE: Record<string, () => Promise<Answer>> = {
  MALFORMED_JSON: async () =>
    problemOf(await s.send({ method: 'POST', url: '/api/customers', headers: json, payload: '{"name": ' })),
  BODY_NOT_AN_OBJECT: async () =>
    problemOf(await s.send({ method: 'POST', url: '/api/customers', headers: json, payload: '[1, 2]' })),
  MALFORMED_MULTIPART: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/orders',
        headers: { 'content-type': 'multipart/form-data; boundary=edge' },
        payload: '--edge\r\nthis is no part\r\n',
      }),
    ),
  DUPLICATE_FIELD: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/orders',
        headers: { 'content-type': 'multipart/form-data; boundary=edge' },
        payload: multipart('edge', [
          ['notes', 'one'],
          ['notes', 'two'],
        ]),
      }),
    ),
  INVALID_QUERY: async () => problemOf(await s.send({ url: '/api/orders?limit=many' })),
  EMPTY_FILE: async () =>
    problemOf(await s.send({ method: 'POST', url: '/api/_import/Customer', headers: csv, payload: '' })),
  BAD_CSV: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/_import/Customer',
        headers: csv,
        payload: 'name,email\n"Anna,x',
      }),
    ),
  BAD_ENCODING: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/_import/Customer',
        headers: { 'content-type': 'text/csv; charset=utf-8' },
        payload: Buffer.from('name\nJ\xfcrgen', 'latin1'),
      }),
    ),
  NOT_TEXT: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/_import/Customer',
        headers: csv,
        payload: Buffer.from('name\nA\u0000B', 'latin1'),
      }),
    ),
  UNKNOWN_CHARSET: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/_import/Customer',
        headers: { 'content-type': 'text/csv; charset=ebcdic-nonsense' },
        payload: Buffer.from('name\nJ\xfcrgen', 'latin1'),
      }),
    ),
  AMBIGUOUS_FORMAT: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/_import/Customer',
        headers: csv,
        payload: 'name;email;creditLimit\nAnna;anna@x.test;36.500',
      }),
    ),
  MISSING_COLUMNS: async () =>
    problemOf(
      await s.send({ method: 'POST', url: '/api/_import/Customer', headers: csv, payload: 'name\nAnna' }),
    ),
  TOO_MANY_ROWS: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/_import/Customer',
        headers: csv,
        payload: `name,email\n${'A,a@x.test\n'.repeat(100_001)}`,
      }),
    ),
  INVALID_CURSOR: async () =>
    problemOf(await library.app.inject({ url: '/api/tools?after=not-a-cursor', headers: library.librarian })),
  INVALID_IF_MATCH: async () =>
    problemOf(
      await s.send({
        method: 'PATCH',
        url: `/api/customers/${s.customer.id}`,
        headers: { ...json, 'if-match': 'soon' },
        payload: { name: 'Renamed' },
      }),
    ),
  INVALID_IDEMPOTENCY_KEY: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/customers',
        headers: { ...json, 'idempotency-key': 'x'.repeat(1000) },
        payload: { name: 'Keyed' },
      }),
    ),
  BODY_TOO_DEEP: async () =>
    problemOf(
      await s.send({ method: 'POST', url: '/api/customers', headers: json, payload: nested(40) as object }),
    ),
  BAD_REQUEST: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/customers',
        headers: json,
        payload: '{"name": "x", "__proto__": {"admin": true}}',
      }),
    ),
  INVALID_SIGN_IN: async () =>
    problemOf(
      await s.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: 'owner@shop.test', password: TEST_PASSWORD, role: 'owner' },
      }),
    ),
  NOT_SIGNED_IN: async () => problemOf(await s.as(undefined, { url: '/api/orders' })),
  SESSION_EXPIRED: async () => {
    const clerk = await signInAs(s.app, s.inner, 'clerk', {}, 'leaving@shop.test');
    expect((await s.as(clerk, { method: 'POST', url: '/api/auth/sign-out' })).statusCode).toBe(204);
    return problemOf(await s.as(clerk, { url: '/api/orders' }));
  },
  INVALID_TOKEN: async () =>
    problemOf(await s.as({ authorization: 'Bearer not-a-token' }, { url: '/api/orders' })),
  SIGN_IN_FAILED: async () =>
    problemOf(
      await s.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { email: 'owner@shop.test', password: 'not the password' },
      }),
    ),
  TOO_MANY_ATTEMPTS: async () => {
    let last: Answer = { status: 0, code: undefined };
    for (let attempt = 0; attempt < 4; attempt++) {
      last = problemOf(
        await s.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          payload: { email: 'guesser@shop.test', password: `guess ${attempt}` },
        }),
      );
    }
    return last;
  },
  FORBIDDEN: async () =>
    problemOf(await s.as(s.warehouse, { method: 'DELETE', url: `/api/products/${s.product.id}` })),
  FORBIDDEN_FIELDS: async () =>
    problemOf(
      await library.app.inject({
        method: 'POST',
        url: '/api/loans',
        headers: library.member,
        payload: { tool: library.loan.tool, days: 3, fee: 0 },
      }),
    ),
  NOT_FOUND: async () => problemOf(await s.send({ url: '/api/customers/987654' })),
  NO_SUCH_CALL: async () => problemOf(await s.send({ url: '/api/warehouses' })),
  NO_SUCH_FIGURE: async () => problemOf(await s.send({ url: '/api/_figures/dashboard/profitByMoon' })),
  INVALID_PERIOD: async () =>
    problemOf(await s.send({ url: '/api/_figures/dashboard/revenueByMonth?per=fortnight' })),
  METHOD_NOT_ALLOWED: async () => {
    const answer = await fetch(new URL(LIVE_RELOAD_PATH, dev.url), { method: 'POST' });
    return { status: answer.status, code: ((await answer.json()) as { code?: string }).code };
  },
  USE_A_TRANSITION: async () => {
    const order = await s.newOrder();
    return problemOf(
      await s.send({
        method: 'PATCH',
        url: `/api/orders/${order.id}`,
        headers: { ...json, 'if-match': '"1"' },
        payload: { status: 'paid' },
      }),
    );
  },
  ILLEGAL_TRANSITION: async () => {
    const order = await s.newOrder();
    return problemOf(await s.send({ method: 'POST', url: `/api/orders/${order.id}/ship` }));
  },
  GUARD_FAILED: async () => {
    const order = await s.newOrder();
    for (const step of ['place', 'pay'])
      expect((await s.send({ method: 'POST', url: `/api/orders/${order.id}/${step}` })).statusCode).toBe(200);
    await s.inner.update('Order', order.id, { shippingAddress: null });
    return problemOf(await s.send({ method: 'POST', url: `/api/orders/${order.id}/ship` }));
  },
  STILL_REFERENCED: async () => {
    await s.newOrder();
    return problemOf(await s.send({ method: 'DELETE', url: `/api/customers/${s.customer.id}` }));
  },
  UPDATE_REFUSED: async () => {
    const order = await s.newOrder(2);
    // The stock went down after the order was drafted: placing it would take the stock below zero.
    const stock = (await s.inner.get('Product', s.product.id as number))?.stock as number;
    await s.inner.change('Product', s.product.id as number, 'stock', '-=', stock - 1);
    const answer = problemOf(await s.send({ method: 'POST', url: `/api/orders/${order.id}/place` }));
    await s.inner.change('Product', s.product.id as number, 'stock', '+=', stock - 1);
    return answer;
  },
  IDEMPOTENCY_IN_PROGRESS: async () => {
    const keyed = () =>
      s.send({
        method: 'POST',
        url: '/api/customers',
        headers: { ...json, 'idempotency-key': 'slow-one' },
        payload: { name: 'Slow', email: 'slow@shop.test' },
      });
    const reached = s.control.holdNextCreate();
    const first = keyed();
    const release = await reached;
    const meanwhile = problemOf(await keyed());
    release();
    expect((await first).statusCode).toBe(201);
    return meanwhile;
  },
  CHANGED_SINCE_READ: async () => {
    const made = await s.send({
      method: 'POST',
      url: '/api/customers',
      headers: json,
      payload: { name: 'Read once', email: 'read@shop.test' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const patch = (name: string) =>
      s.send({
        method: 'PATCH',
        url: `/api/customers/${made.json().id}`,
        headers: { ...json, 'if-match': String(made.headers.etag) },
        payload: { name },
      });
    expect((await patch('Read twice')).statusCode).toBe(200);
    // The same version again: someone (this test) changed the record since it was read.
    return problemOf(await patch('Read thrice'));
  },
  BODY_TOO_LARGE: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/customers',
        headers: json,
        payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
      }),
    ),
  TOO_MANY_PARTS: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/orders',
        headers: { 'content-type': 'multipart/form-data; boundary=edge' },
        payload: multipart(
          'edge',
          Array.from({ length: 500 }, (_, index) => [`field${index}`, 'x']),
        ),
      }),
    ),
  URI_TOO_LONG: async () => problemOf(await s.send({ url: `/api/customers/${'7'.repeat(2000)}` })),
  UNSUPPORTED_MEDIA_TYPE: async () =>
    problemOf(
      await s.send({
        method: 'POST',
        url: '/api/customers',
        headers: { 'content-type': 'text/plain' },
        payload: 'name=x',
      }),
    ),
  VALIDATION_FAILED: async () =>
    problemOf(await s.send({ method: 'POST', url: '/api/customers', headers: json, payload: {} })),
  IDEMPOTENCY_KEY_REUSED: async () => {
    const keyed = (name: string) =>
      s.send({
        method: 'POST',
        url: '/api/customers',
        headers: { ...json, 'idempotency-key': 'reused' },
        payload: { name, email: `${name.toLowerCase()}@shop.test` },
      });
    expect((await keyed('First')).statusCode).toBe(201);
    return problemOf(await keyed('Second'));
  },
  PRECONDITION_REQUIRED: async () =>
    problemOf(
      await s.send({
        method: 'PATCH',
        url: `/api/customers/${s.customer.id}`,
        headers: json,
        payload: { name: 'Unversioned' },
      }),
    ),
  SERVER_ERROR: async () => {
    s.control.failNextCreate();
    return problemOf(
      await s.send({
        method: 'POST',
        url: '/api/customers',
        headers: json,
        payload: { name: 'Lost', email: 'lost@shop.test' },
      }),
    );
  },
  EFFECT_FAILED: async () =>
    problemOf(
      await library.app.inject({
        method: 'POST',
        url: `/api/loans/${library.loan.id}/renew`,
        headers: library.librarian,
      }),
    ),
  EVALUATION_FAILED: async () => {
    // The return's guard compares a number with a text: no record can make it true or false.
    const model = structuredClone(library.model);
    const machine = model.states.shown ? model.states.machines[0] : undefined;
    const step = machine?.transitions.find((transition) => transition.name === 'return');
    if (!step) throw new Error('the tool library returns loans');
    step.guard = 'record.days > record.note';
    const app = await buildApp({ model, store: library.store, onServerError: () => undefined });
    try {
      const librarian = await signInAs(app, library.store, 'librarian', {}, 'evaluator@shop.test');
      return problemOf(
        await app.inject({
          method: 'POST',
          url: `/api/loans/${library.loan.id}/return`,
          headers: librarian,
        }),
      );
    } finally {
      await app.close();
    }
  },
  NOT_IMPLEMENTED: async () =>
    problemOf(
      await library.app.inject({ method: 'POST', url: '/api/loans/remind', headers: library.librarian }),
    ),
  BAD_GATEWAY: async () => {
    const answer = await fetch(new URL('api/orders', dev.url));
    return { status: answer.status, code: ((await answer.json()) as { code?: string }).code };
  },
  SIGN_IN_UNAVAILABLE: async () => {
    const text = readFileSync(new URL('../../../e2e/fixtures/oidc-shop.yaml', import.meta.url), 'utf8');
    const loaded = loadSpec(text, { file: 'oidc-shop.yaml' });
    if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
    const store = await openStore({ model: loaded.model, url: 'sqlite::memory:' });
    expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
    // The provider cannot be asked: its keys and userinfo do not answer.
    const app = await buildApp({
      model: loaded.model,
      store,
      auth: { oidc: { verify: () => Promise.reject(new Error('connect ECONNREFUSED')) } },
    });
    closing.push(
      () => app.close(),
      () => store.close(),
    );
    return problemOf(await app.inject({ url: '/api/notes', headers: { authorization: 'Bearer token' } }));
  },
  ALREADY_EXISTS: async () =>
    problemOf(
      await choirSend({
        method: 'POST',
        url: '/api/_accounts',
        payload: { email: 'sam@choir.test', role: 'singer' },
      }),
    ),
  OWN_ACCOUNT: async () => {
    const { directorId } = await theChoir();
    return problemOf(
      await choirSend({ method: 'PATCH', url: `/api/_accounts/${directorId}`, payload: { active: false } }),
    );
  },
  NOT_INVITED: async () => {
    const { singerId } = await theChoir();
    return problemOf(await choirSend({ method: 'POST', url: `/api/_accounts/${singerId}/invitation` }));
  },
  MAIL_NOT_SENT: async () =>
    problemOf(
      await choirSend({
        method: 'POST',
        url: '/api/_accounts',
        payload: { email: 'ada@choir.test', role: 'singer' },
      }),
    ),
  LINK_NOT_VALID: async () =>
    problemOf(
      await choirSend({
        method: 'POST',
        url: '/api/auth/password',
        payload: { token: 'never-sent', password: 'a long enough password' },
      }),
    ),
  CLIENT_NOT_BUILT: async () => {
    const app = Fastify();
    closing.push(() => app.close());
    registerClient(app, { dir: mkdtempSync(join(tmpdir(), 'ninefold-unbuilt-')) });
    return problemOf(await app.inject({ url: '/orders', headers: { accept: 'text/html' } }));
  },
};

describe('the codes docs/prototype-api.md documents', () => {
  it('are every code the prototype API answers with, each in the table once', () => {
    expect([...DOCUMENTED.keys()].sort()).toEqual([...PROTOTYPE_CODES].sort());
  });

  it.each([...DOCUMENTED])('%s is answered with %i, as documented', async (code, status) => {
    const provoke = PROVOKE[code];
    expect(provoke, `a request that meets ${code} is in PROVOKE`).toBeDefined();
    expect(await provoke?.()).toEqual({ status, code });
  });
});
