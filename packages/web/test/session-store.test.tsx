import type { ApiDescription, Call, Model, SignIn } from '@ninefold/model';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/data/data-provider';
import { safeReturnPath, signInAddress } from '../src/session/return-path';
import {
  createSessionStore,
  type OidcFlows,
  type SessionStore,
  type SessionStoreOptions,
  SignInError,
} from '../src/session/session-store';
import { loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const AUTH = { session: '/auth/session', refresh: '/auth/refresh', signOut: '/auth/sign-out' };
const prototypeApi: ApiDescription = {
  base: '/api',
  conventional: false,
  calls: shop.calls.shown ? shop.calls.items : [],
  auth: AUTH,
};
const NOW = Date.parse('2026-06-01T12:00:00Z');
const OWNER = { id: 7, email: 'olga@example.com', role: 'owner', customerId: 3 };

function withSignIn(model: Model, signIn: SignIn): Model {
  if (!model.roles.shown) throw new Error('the example shows point 6');
  return { ...model, roles: { ...model.roles, signIn } };
}

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

type Route = (sent: Sent) => Response | undefined;

/** A fetch answering by method and path below `/api`, recording what it was sent. */
function fakeFetch(routes: Record<string, Route>) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const path = String(input).replace(/^\/api/, '');
    const request: Sent = {
      method: init.method ?? 'GET',
      path,
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const answer = routes[`${request.method} ${path}`]?.(request);
    return answer ?? problem(404, 'NOT_FOUND', 'Nothing here.');
  };
  return { sent, fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const problem = (status: number, code: string, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ title: 'Refused', status, code, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

const signInAnswer = (token: string, expiresAt = new Date(NOW + 15 * 60_000).toISOString()) =>
  json(200, { token, tokenType: 'Bearer', expiresAt, user: OWNER });

/** A storage that keeps its items in a map, to see what the session writes. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const stores: SessionStore[] = [];
function storeFor(model: Model, api: ApiDescription, options: SessionStoreOptions) {
  const store = createSessionStore(model, api, { now: () => Date.now(), ...options });
  stores.push(store);
  return store;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

describe('password sign-in', () => {
  it('signs in through the named sign-in call and holds the token in memory only', async () => {
    const logs = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {}),
    );
    const { sent, fetch } = fakeFetch({ 'POST /auth/sign-in': () => signInAnswer('tok-1') });
    // The rich example allows the tab's storage; this specification keeps the session in memory.
    const inMemory = withSignIn(shop, { kind: 'password', call: 'signIn', session: 'memory' });
    const store = storeFor(inMemory, prototypeApi, { fetch });
    expect(store.getSnapshot().state).toEqual({ status: 'signed-out', expired: false });
    expect(store.authHeaders()).toEqual({});

    await store.signInWithPassword('olga@example.com', 'correct horse');

    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/auth/sign-in',
        headers: { accept: 'application/json, application/problem+json', 'content-type': 'application/json' },
        body: { email: 'olga@example.com', password: 'correct horse' },
      },
    ]);
    expect(store.authHeaders()).toEqual({ authorization: 'Bearer tok-1' });
    const { state, principal } = store.getSnapshot();
    expect(state).toEqual({
      status: 'signed-in',
      user: { id: '7', email: 'olga@example.com', role: 'owner', attributes: { customerId: 3 } },
      expiresAt: NOW + 15 * 60_000,
    });
    // The id keeps its type for conditions such as `record.ownerId == user.id`.
    expect(principal).toEqual({ role: 'owner', user: OWNER });
    // A `memory` session touches no storage, and nothing is logged.
    expect(window.sessionStorage.length).toBe(0);
    expect(window.localStorage.length).toBe(0);
    for (const log of logs) expect(log).not.toHaveBeenCalled();
  });

  it('keeps a `session` session in the tab’s session storage, and a new page picks it up', async () => {
    const model = withSignIn(shop, { kind: 'password', call: 'signIn', session: 'session' });
    const storage = memoryStorage();
    const { fetch } = fakeFetch({ 'POST /auth/sign-in': () => signInAnswer('tok-2') });
    await storeFor(model, prototypeApi, { fetch, storage }).signInWithPassword('olga@example.com', 'pw');
    expect([...storage.items.keys()]).toEqual(['ninefold.session:/api']);
    expect(storage.items.get('ninefold.session:/api')).not.toContain('pw');

    const reopened = storeFor(model, prototypeApi, { fetch, storage });
    expect(reopened.authHeaders()).toEqual({ authorization: 'Bearer tok-2' });
    expect(reopened.getSnapshot().principal.role).toBe('owner');
    expect(window.localStorage.length).toBe(0);

    await reopened.signOut();
    expect(storage.items.size).toBe(0);
  });

  it('does not pick up a stored session that has expired', async () => {
    const model = withSignIn(shop, { kind: 'password', call: 'signIn', session: 'session' });
    const storage = memoryStorage();
    const { fetch } = fakeFetch({ 'POST /auth/sign-in': () => signInAnswer('tok-3') });
    await storeFor(model, prototypeApi, { fetch, storage }).signInWithPassword('olga@example.com', 'pw');
    vi.setSystemTime(NOW + 16 * 60_000);
    const reopened = storeFor(model, prototypeApi, { fetch, storage });
    expect(reopened.getSnapshot().state).toEqual({ status: 'signed-out', expired: false });
    expect(storage.items.size).toBe(0);
  });

  it('signs in with no known role when a real API answers only a token', async () => {
    const realApi: ApiDescription = { ...prototypeApi, auth: undefined };
    const { fetch } = fakeFetch({ 'POST /auth/sign-in': () => json(200, { token: 'bare' }) });
    const store = storeFor(shop, realApi, { fetch });
    await store.signInWithPassword(' ada@example.com ', 'pw');
    expect(store.getSnapshot().state).toEqual({
      status: 'signed-in',
      user: { email: 'ada@example.com', attributes: {} },
    });
    expect(store.getSnapshot().principal).toEqual({ user: { email: 'ada@example.com' } });
  });

  it('reads a token wrapped with the person, as Conduit answers', async () => {
    const realApi: ApiDescription = { ...prototypeApi, auth: undefined };
    const { fetch } = fakeFetch({
      'POST /auth/sign-in': () =>
        json(200, { user: { email: 'jake@jake.jake', username: 'jake', token: 'jwt' } }),
    });
    const store = storeFor(shop, realApi, { fetch });
    await store.signInWithPassword('jake@jake.jake', 'pw');
    expect(store.authHeaders()).toEqual({ authorization: 'Bearer jwt' });
    expect(store.getSnapshot().principal).toEqual({ user: { email: 'jake@jake.jake', username: 'jake' } });
  });

  it('gives the server’s own message when it refuses, and how long to wait after too many tries', async () => {
    let attempts = 0;
    const { fetch } = fakeFetch({
      'POST /auth/sign-in': () =>
        ++attempts === 1
          ? problem(401, 'SIGN_IN_FAILED', 'That email and password do not match.')
          : problem(429, 'TOO_MANY_ATTEMPTS', 'Too many failed sign-ins.', { 'retry-after': '30' }),
    });
    const store = storeFor(shop, prototypeApi, { fetch });
    const first = await store.signInWithPassword('a@example.com', 'x').catch((error: unknown) => error);
    expect(first).toBeInstanceOf(SignInError);
    expect(first).toMatchObject({ reason: 'rejected', detail: 'That email and password do not match.' });
    const second = await store.signInWithPassword('a@example.com', 'x').catch((error: unknown) => error);
    expect(second).toMatchObject({ reason: 'too-many', retryAfter: 30 });
    expect(store.getSnapshot().state.status).toBe('signed-out');
  });

  it('says it cannot sign in when the specification names no sign-in call', async () => {
    const noCalls: ApiDescription = { ...prototypeApi, calls: [] };
    const { sent, fetch } = fakeFetch({});
    const failed = await storeFor(shop, noCalls, { fetch })
      .signInWithPassword('a@example.com', 'x')
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ reason: 'unavailable', unavailable: 'no-sign-in-call' });
    expect(sent).toEqual([]);
  });
});

describe('basic and API key sign-in', () => {
  it('sends basic credentials as UTF-8 base64 and learns the person from the session call', async () => {
    const model = withSignIn(shop, { kind: 'basic', session: 'memory' });
    const { sent, fetch } = fakeFetch({ 'GET /auth/session': () => json(200, { user: OWNER }) });
    const store = storeFor(model, prototypeApi, { fetch });
    await store.signInWithBasic('zoë', 'pässword');
    const expected = `Basic ${Buffer.from('zoë:pässword', 'utf8').toString('base64')}`;
    expect(sent[0]?.headers.authorization).toBe(expected);
    expect(store.authHeaders()).toEqual({ authorization: expected });
    expect(store.getSnapshot().principal.role).toBe('owner');
  });

  it('sends an API key in the header the specification names', async () => {
    const model = withSignIn(shop, { kind: 'api-key', in: 'header', name: 'X-Api-Key', session: 'memory' });
    const { sent, fetch } = fakeFetch({ 'GET /auth/session': () => json(200, { user: OWNER }) });
    const store = storeFor(model, prototypeApi, { fetch });
    await store.signInWithApiKey('key-1');
    expect(sent[0]?.headers['X-Api-Key']).toBe('key-1');
    expect(store.authHeaders()).toEqual({ 'X-Api-Key': 'key-1' });
  });

  it('refuses a key that would go in the address, sending nothing', async () => {
    const model = withSignIn(shop, { kind: 'api-key', in: 'query', name: 'api_key', session: 'memory' });
    const { sent, fetch } = fakeFetch({});
    const failed = await storeFor(model, prototypeApi, { fetch })
      .signInWithApiKey('key-1')
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ reason: 'unavailable', unavailable: 'key-in-query' });
    expect(sent).toEqual([]);
  });
});

describe('a session that ends', () => {
  const signedIn = { credentials: { scheme: 'bearer' as const, token: 'live' }, user: OWNER };
  const expiredProblem = new ApiError(
    401,
    'Unauthorized',
    'Ended.',
    'SESSION_EXPIRED',
    undefined,
    [],
    undefined,
  );

  it('forgets the credentials on a 401 and asks to sign in again, keeping the person’s principal', () => {
    const store = storeFor(shop, prototypeApi, { fetch: fakeFetch({}).fetch, signedIn });
    store.unauthorized(expiredProblem, { authorization: 'Bearer live' });
    const snapshot = store.getSnapshot();
    expect(snapshot.state).toEqual({ status: 'signed-out', expired: true });
    expect(snapshot.prompt).toBe(true);
    expect(snapshot.lastEmail).toBe('olga@example.com');
    expect(snapshot.principal).toEqual({ role: 'owner', user: OWNER });
    expect(store.authHeaders()).toEqual({});
  });

  it('ignores a 401 to a request that left with older credentials', () => {
    const store = storeFor(shop, prototypeApi, { fetch: fakeFetch({}).fetch, signedIn });
    store.unauthorized(expiredProblem, { authorization: 'Bearer older' });
    expect(store.getSnapshot().state.status).toBe('signed-in');
    expect(store.getSnapshot().prompt).toBe(false);
  });

  it('tells whether the same person signed in again', async () => {
    const { fetch } = fakeFetch({
      'POST /auth/sign-in': (sent) =>
        json(200, {
          token: 'again',
          user: (sent.body as { email: string }).email === OWNER.email ? OWNER : { id: 8, role: 'clerk' },
        }),
    });
    const store = storeFor(shop, prototypeApi, { fetch, signedIn });
    const events: boolean[] = [];
    store.onSignedIn(({ samePerson }) => events.push(samePerson));
    store.unauthorized(expiredProblem, { authorization: 'Bearer live' });
    await store.signInWithPassword(OWNER.email, 'pw');
    await store.signInWithPassword('someone@example.com', 'pw');
    expect(events).toEqual([true, false]);
  });

  it('signs out through the sign-out call with the credentials, then forgets them', async () => {
    const { sent, fetch } = fakeFetch({ 'POST /auth/sign-out': () => new Response(null, { status: 204 }) });
    const store = storeFor(shop, prototypeApi, { fetch, signedIn });
    await store.signOut();
    expect(sent.map((request) => [request.method, request.path, request.headers.authorization])).toEqual([
      ['POST', '/auth/sign-out', 'Bearer live'],
    ]);
    expect(store.getSnapshot()).toMatchObject({
      state: { status: 'signed-out', expired: false },
      principal: {},
    });
    expect(store.authHeaders()).toEqual({});
  });

  it('forgets the credentials even when the sign-out call gets no answer', async () => {
    const store = storeFor(shop, prototypeApi, {
      fetch: async () => {
        throw new TypeError('offline');
      },
      signedIn,
    });
    await store.signOut();
    expect(store.authHeaders()).toEqual({});
  });
});

describe('refresh', () => {
  it('renews the token shortly before it expires while the tab is in use', async () => {
    const { sent, fetch } = fakeFetch({
      'POST /auth/sign-in': () => signInAnswer('first', new Date(NOW + 10 * 60_000).toISOString()),
      'POST /auth/refresh': () => signInAnswer('second', new Date(NOW + 30 * 60_000).toISOString()),
    });
    const store = storeFor(shop, prototypeApi, { fetch });
    await store.signInWithPassword(OWNER.email, 'pw');
    await vi.advanceTimersByTimeAsync(9 * 60_000 - 1_000);
    expect(sent.filter((request) => request.path === '/auth/refresh')).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    const refreshes = sent.filter((request) => request.path === '/auth/refresh');
    expect(refreshes.map((request) => request.headers.authorization)).toEqual(['Bearer first']);
    expect(store.authHeaders()).toEqual({ authorization: 'Bearer second' });
    expect(store.getSnapshot().state).toMatchObject({ status: 'signed-in', expiresAt: NOW + 30 * 60_000 });
  });

  it('waits for a hidden tab to be used again, and lets a token run out unseen', async () => {
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const { sent, fetch } = fakeFetch({
      'POST /auth/sign-in': () => signInAnswer('first', new Date(NOW + 10 * 60_000).toISOString()),
      'POST /auth/refresh': () => signInAnswer('second'),
    });
    const store = storeFor(shop, prototypeApi, { fetch });
    await store.signInWithPassword(OWNER.email, 'pw');
    await vi.advanceTimersByTimeAsync(9 * 60_000 + 1_000);
    expect(sent.some((request) => request.path === '/auth/refresh')).toBe(false);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.filter((request) => request.path === '/auth/refresh')).toHaveLength(1);
    expect(store.authHeaders()).toEqual({ authorization: 'Bearer second' });
  });

  it('takes a refused refresh for an ended session', async () => {
    const { fetch } = fakeFetch({
      'POST /auth/sign-in': () => signInAnswer('first'),
      'POST /auth/refresh': () => problem(401, 'SESSION_EXPIRED', 'Ended.'),
    });
    const store = storeFor(shop, prototypeApi, { fetch });
    await store.signInWithPassword(OWNER.email, 'pw');
    expect(await store.refresh()).toBe(false);
    expect(store.getSnapshot()).toMatchObject({
      state: { status: 'signed-out', expired: true },
      prompt: true,
    });
  });

  it('does not refresh without the prototype API’s refresh call', async () => {
    const { sent, fetch } = fakeFetch({ 'POST /auth/sign-in': () => signInAnswer('only') });
    const store = storeFor(shop, { ...prototypeApi, auth: { ...AUTH, refresh: undefined } }, { fetch });
    await store.signInWithPassword(OWNER.email, 'pw');
    await vi.advanceTimersByTimeAsync(20 * 60_000);
    expect(sent).toHaveLength(1);
  });

  it('renews through the API’s own refresh call with the refresh token its sign-in gave (Directus’s shapes)', async () => {
    // Directus answers { data: { access_token, refresh_token, expires } }, expires in milliseconds, and
    // takes { refresh_token } at POST /auth/refresh; each refresh token is good once.
    const directusAnswer = (access: string, refresh: string) =>
      json(200, { data: { access_token: access, refresh_token: refresh, expires: 900_000 } });
    const { sent, fetch } = fakeFetch({
      'POST /auth/sign-in': () => directusAnswer('access-1', 'refresh-1'),
      'POST /auth/refresh': (request) =>
        (request.body as { refresh_token?: string } | undefined)?.refresh_token === 'refresh-1'
          ? directusAnswer('access-2', 'refresh-2')
          : directusAnswer('access-3', 'refresh-3'),
    });
    const refreshCall: Call = {
      name: 'refresh',
      method: 'POST',
      path: '/auth/refresh',
      purpose: 'refresh',
      parameters: [],
      filters: [],
    };
    const realApi: ApiDescription = {
      ...prototypeApi,
      auth: undefined,
      calls: [...prototypeApi.calls, refreshCall],
    };
    const store = storeFor(shop, realApi, { fetch });
    await store.signInWithPassword(OWNER.email, 'pw');
    expect(store.getSnapshot().state).toMatchObject({ status: 'signed-in', expiresAt: NOW + 900_000 });
    await vi.advanceTimersByTimeAsync(14 * 60_000 - 1_000);
    expect(sent.filter((request) => request.path === '/auth/refresh')).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent.filter((request) => request.path === '/auth/refresh').map((request) => request.body)).toEqual(
      [{ refresh_token: 'refresh-1' }],
    );
    expect(store.authHeaders()).toEqual({ authorization: 'Bearer access-2' });
    // The next renewal sends the refresh token the last one gave.
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    expect(sent.filter((request) => request.path === '/auth/refresh').map((request) => request.body)).toEqual(
      [{ refresh_token: 'refresh-1' }, { refresh_token: 'refresh-2' }],
    );
    expect(store.authHeaders()).toEqual({ authorization: 'Bearer access-3' });
  });

  it('renews an OpenID Connect session with its refresh token', async () => {
    const oidcSignIn: SignIn = {
      kind: 'oidc',
      issuer: 'https://id.example',
      clientId: 'shop',
      scopes: ['openid', 'email'],
      session: 'memory',
    };
    const model = withSignIn(shop, oidcSignIn);
    const refreshOidc = vi.fn<OidcFlows['refreshOidc']>(async () => ({
      accessToken: 'access-2',
      expiresAt: NOW + 60 * 60_000,
    }));
    const flows: OidcFlows = {
      startOidcSignIn: vi.fn(),
      completeOidcSignIn: vi.fn(),
      refreshOidc,
    };
    const store = storeFor(
      model,
      { ...prototypeApi, auth: undefined },
      {
        fetch: fakeFetch({}).fetch,
        oidc: async () => flows,
        signedIn: {
          credentials: { scheme: 'bearer', token: 'access-1', refreshToken: 'refresh-1' },
          user: { id: 'sub-1', email: 'o@example.com' },
          expiresAt: NOW + 5 * 60_000,
        },
      },
    );
    await vi.advanceTimersByTimeAsync(4 * 60_000 + 1_000);
    expect(refreshOidc).toHaveBeenCalledWith(oidcSignIn, 'refresh-1');
    expect(store.authHeaders()).toEqual({ authorization: 'Bearer access-2' });
    expect(store.getSnapshot().state).toMatchObject({ status: 'signed-in', expiresAt: NOW + 60 * 60_000 });
  });
});

describe('the address to come back to after signing in', () => {
  it('keeps paths of this client only', () => {
    expect(safeReturnPath('/orders/7?tab=lines#top')).toBe('/orders/7?tab=lines#top');
    for (const hostile of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\t/evil.example',
      'orders',
      '',
      null,
    ]) {
      expect(safeReturnPath(hostile)).toBeUndefined();
    }
    expect(safeReturnPath('/a/../../b')).toBe('/b');
  });

  it('builds the sign-in address with a return path, but never back to the sign-in page', () => {
    expect(signInAddress(shop, '/orders?page=2')).toBe('/sign-in?next=%2Forders%3Fpage%3D2');
    expect(signInAddress(shop, '/sign-in')).toBe('/sign-in');
    expect(signInAddress(shop, '//evil.example')).toBe('/sign-in');
  });
});
