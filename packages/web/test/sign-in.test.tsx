import type { ApiDescription, Model, SignIn } from '@ninefold/model';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/app/App';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import {
  createSessionStore,
  type OidcFlows,
  type SessionStore,
  type SessionStoreOptions,
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
const OWNER = { id: 'u-1', email: 'olga@example.com', role: 'owner' };

function withSignIn(model: Model, signIn: SignIn): Model {
  if (!model.roles.shown) throw new Error('the example shows point 6');
  return { ...model, roles: { ...model.roles, signIn } };
}

interface Sent {
  method: string;
  url: string;
  authorization?: string;
  body: unknown;
}

/**
 * The prototype API as these tests need it. `signInAnswer` decides the sign-in call's answer; every
 * other read answers an empty list, or the owner for the session call.
 */
function fakeApi(signInAnswer: (body: { email: string; password: string }) => Response) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const url = String(input);
    const headers = (init.headers ?? {}) as Record<string, string>;
    const request: Sent = {
      method: init.method ?? 'GET',
      url,
      ...(headers.authorization === undefined ? {} : { authorization: headers.authorization }),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const path = url.replace(/^\/api/, '').split('?')[0];
    if (request.method === 'POST' && path === '/auth/sign-in') {
      return signInAnswer(request.body as { email: string; password: string });
    }
    if (request.method === 'POST' && path === '/auth/sign-out') return new Response(null, { status: 204 });
    if (request.authorization === undefined) return problem(401, 'NOT_SIGNED_IN', 'Sign in first.');
    if (path === '/auth/session') return json(200, { user: OWNER });
    if (request.method === 'GET') return json(200, { items: [], total: 0 });
    return problem(404, 'NOT_FOUND', 'Nothing here.');
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

const owner = () => json(200, { token: 'owner-token', tokenType: 'Bearer', user: OWNER });

const stores: SessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
});

interface Setup {
  model?: Model;
  api?: ApiDescription;
  signInAnswer?: (body: { email: string; password: string }) => Response;
  session?: Omit<SessionStoreOptions, 'fetch'>;
  locale?: 'en' | 'fr';
}

function renderAt(path: string, setup: Setup = {}) {
  const model = setup.model ?? shop;
  const api = setup.api ?? prototypeApi;
  const { sent, fetch } = fakeApi(setup.signInAnswer ?? owner);
  const session = createSessionStore(model, api, { fetch, ...setup.session });
  stores.push(session);
  const data = createHttpDataProvider(api, model, {
    fetch,
    authHeaders: session.authHeaders,
    onUnauthorized: session.unauthorized,
  });
  const user = userEvent.setup();
  render(
    <App spec={{ model, api, data }} session={session} initialPath={path} locale={setup.locale ?? 'en'} />,
  );
  return { sent, user, session };
}

const signedInAs = (user: Record<string, string>) => ({
  signedIn: { credentials: { scheme: 'bearer' as const, token: `${user.role}-token` }, user },
});

async function navigationLinks(): Promise<string[]> {
  const navigation = await screen.findByRole('navigation', { name: 'Navigation' });
  return within(navigation)
    .getAllByRole('link')
    .map((link) => link.textContent ?? '');
}

async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(await screen.findByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('signing in', () => {
  it('sends someone not signed in from a screen that needs it to sign in, then back there', async () => {
    const { sent, user } = renderAt('/customers?country=NO');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    // Nobody is signed in: the navigation offers only what anyone may open.
    expect(await navigationLinks()).toEqual(['Today', 'About this client']);
    // The screen that needs signing in made no call.
    expect(sent.filter((request) => request.url.startsWith('/api/customers'))).toEqual([]);

    await signIn(user, 'olga@example.com', 'pw');
    expect(await screen.findByRole('heading', { level: 1, name: 'Customers' })).toBeTruthy();
    await waitFor(() =>
      expect(
        sent.some((request) => request.url.startsWith('/api/customers') && request.url.includes('NO')),
      ).toBe(true),
    );
    const signInRequest = sent.find((request) => request.url === '/api/auth/sign-in');
    expect(signInRequest?.body).toEqual({ email: 'olga@example.com', password: 'pw' });
    expect(signInRequest?.authorization).toBeUndefined();
    for (const request of sent) expect(request.url).not.toContain('owner-token');

    const session = screen.getByRole('group', { name: 'Your session' });
    expect(within(session).getByText('olga@example.com')).toBeTruthy();
    expect(within(session).getByText('Owner')).toBeTruthy();
    expect(within(session).getByRole('button', { name: 'Sign out' })).toBeTruthy();
  });

  it('shows the server’s message when signing in fails, keeping the typed email', async () => {
    const { user } = renderAt('/sign-in', {
      signInAnswer: () => problem(401, 'SIGN_IN_FAILED', 'That email and password do not match.'),
    });
    await signIn(user, 'olga@example.com', 'wrong');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('That email and password do not match.');
    expect(screen.getByLabelText(/^Email/)).toHaveProperty('value', 'olga@example.com');
    expect(screen.getByLabelText(/^Password/)).toHaveProperty('value', '');
    expect(document.activeElement).toBe(screen.getByLabelText(/^Password/));
  });

  it('says how long to wait after too many attempts', async () => {
    const { user } = renderAt('/sign-in', {
      signInAnswer: () => problem(429, 'TOO_MANY_ATTEMPTS', 'Slow down.', { 'retry-after': '42' }),
    });
    await signIn(user, 'olga@example.com', 'again');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Too many attempts. Wait 42 seconds before trying again.',
    );
    expect(screen.getByLabelText(/^Email/)).toHaveProperty('value', 'olga@example.com');
  });

  it('goes home rather than to another site after signing in', async () => {
    const { user } = renderAt(`/sign-in?next=${encodeURIComponent('//evil.example/steal')}`);
    await signIn(user, 'olga@example.com', 'pw');
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
  });

  it('uses the built-in sign-in page when point 2 has no sign-in screen', async () => {
    const screens = shop.screens.shown ? shop.screens.items : [];
    const model: Model = {
      ...shop,
      screens: { shown: true, items: screens.filter((candidate) => candidate.kind !== 'sign-in') },
    };
    const { user } = renderAt('/orders', { model });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    await signIn(user, 'olga@example.com', 'pw');
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
  });

  it('says “role unknown” when a real API answers only a token', async () => {
    const { user } = renderAt('/sign-in', {
      api: { ...prototypeApi, auth: undefined },
      signInAnswer: () => json(200, { token: 'bare' }),
    });
    await signIn(user, 'ada@example.com', 'pw');
    const session = await screen.findByRole('group', { name: 'Your session' });
    expect(within(session).getByText('ada@example.com')).toBeTruthy();
    expect(within(session).getByText('role unknown')).toBeTruthy();
  });

  it('speaks French', async () => {
    renderAt('/sign-in', { locale: 'fr' });
    expect(await screen.findByLabelText(/^E-mail/)).toBeTruthy();
    expect(screen.getByLabelText(/^Mot de passe/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeTruthy();
  });
});

describe('the session in the shell', () => {
  it('offers each role only the screens it may open', async () => {
    renderAt('/_/about', { session: signedInAs({ id: 'u-2', email: 'carl@example.com', role: 'clerk' }) });
    expect(await navigationLinks()).toEqual([
      'Today',
      'Orders',
      'New order',
      'Customers',
      'New customer',
      'Products',
      'About this client',
    ]);
    expect(screen.getByTestId('session-role').textContent).toBe('Counter clerk');
  });

  it('offers the warehouse its own part only', async () => {
    renderAt('/_/about', {
      session: signedInAs({ id: 'u-3', email: 'wanda@example.com', role: 'warehouse' }),
    });
    expect(await navigationLinks()).toEqual(['Today', 'Orders', 'Products', 'About this client']);
  });

  it('offers a way to sign in to someone not signed in', async () => {
    const { user } = renderAt('/_/about');
    await user.click(await screen.findByRole('link', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
  });

  it('signs out through the sign-out call, forgets the credentials, then shows the sign-in page', async () => {
    const { sent, user, session } = renderAt('/orders', { session: signedInAs(OWNER) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    const signOut = sent.filter((request) => request.url === '/api/auth/sign-out');
    expect(signOut.map((request) => [request.method, request.authorization])).toEqual([
      ['POST', 'Bearer owner-token'],
    ]);
    expect(session.authHeaders()).toEqual({});
    expect(screen.queryByRole('group', { name: 'Your session' })).toBeNull();
  });

  it('has nothing to sign in to when the specification names no sign-in', async () => {
    renderAt('/_/sign-in', { model: withSignIn(shop, { kind: 'none' }) });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Your session' })).toBeNull();
  });
});

describe('other kinds of sign-in', () => {
  it('asks for a user name and password for HTTP basic', async () => {
    const { user, sent } = renderAt('/sign-in', {
      model: withSignIn(shop, { kind: 'basic', session: 'memory' }),
    });
    await user.type(await screen.findByLabelText(/^Email or user name/), 'olga');
    await user.type(screen.getByLabelText(/^Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
    expect(sent[0]?.authorization).toBe(`Basic ${btoa('olga:pw')}`);
  });

  it('takes a pasted access token and sends it as a bearer token, kept for the tab', async () => {
    const { user, sent } = renderAt('/sign-in', {
      model: withSignIn(shop, { kind: 'token', session: 'session' }),
    });
    await user.type(await screen.findByLabelText(/^Access token/), '  pat-123 ');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
    expect(sent[0]?.authorization).toBe('Bearer pat-123');
    expect(sessionStorage.length).toBeGreaterThan(0);
    expect(JSON.stringify(Object.values(sessionStorage))).toContain('pat-123');
  });

  it('offers a pasted token beside a provider that names no client id', async () => {
    const { user, sent } = renderAt('/sign-in', {
      model: withSignIn(shop, {
        kind: 'oauth2',
        authorizationUrl: 'https://auth.example/authorize',
        tokenUrl: 'https://auth.example/token',
        scopes: [],
        session: 'memory',
      }),
    });
    expect(await screen.findByRole('button', { name: 'Sign in with auth.example' })).toBeTruthy();
    await user.type(screen.getByLabelText(/^Access token/), 'from-elsewhere');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
    expect(sent[0]?.authorization).toBe('Bearer from-elsewhere');
  });

  it('asks for an API key', async () => {
    const model = withSignIn(shop, { kind: 'api-key', in: 'header', name: 'X-Api-Key', session: 'memory' });
    renderAt('/sign-in', { model });
    expect(await screen.findByLabelText(/^API key/)).toBeTruthy();
  });

  it('refuses a key that would travel in the address, and says why', async () => {
    const model = withSignIn(shop, { kind: 'api-key', in: 'query', name: 'api_key', session: 'memory' });
    renderAt('/sign-in', { model });
    expect(await screen.findByText(/Keys in addresses end up in logs/)).toBeTruthy();
    expect(screen.queryByLabelText(/^API key/)).toBeNull();
  });
});

describe('OpenID Connect', () => {
  const oidc: SignIn = {
    kind: 'oidc',
    issuer: 'https://id.example:8443/realm',
    clientId: 'shop',
    scopes: ['openid', 'email'],
    session: 'memory',
  };
  const model = withSignIn(shop, oidc);

  function flows(returnTo = '/orders') {
    return {
      startOidcSignIn: vi.fn<OidcFlows['startOidcSignIn']>(async () => {}),
      completeOidcSignIn: vi.fn<OidcFlows['completeOidcSignIn']>(async () => ({
        accessToken: 'access-1',
        refreshToken: 'refresh-1',
        returnTo,
      })),
      refreshOidc: vi.fn<OidcFlows['refreshOidc']>(),
    };
  }

  it('leaves for the provider with the address to come back to', async () => {
    const fake = flows();
    const { user } = renderAt('/orders', { model, session: { oidc: async () => fake } });
    await user.click(await screen.findByRole('button', { name: 'Sign in with id.example:8443' }));
    await waitFor(() => expect(fake.startOidcSignIn).toHaveBeenCalledTimes(1));
    const [signIn, options] = fake.startOidcSignIn.mock.calls[0] ?? [];
    expect(signIn).toEqual(oidc);
    expect(options?.returnTo).toBe('/orders');
    expect(options?.redirectUri).toBe(new URL('/_/oidc-callback', document.baseURI).href);
  });

  it('asks for the client id that no document names, and keeps it for the tab', async () => {
    const fake = flows();
    const anonymous = withSignIn(shop, {
      kind: 'oauth2',
      authorizationUrl: 'https://auth.example/authorize',
      tokenUrl: 'https://auth.example/token',
      scopes: [],
      session: 'memory',
    });
    const { user } = renderAt('/sign-in', { model: anonymous, session: { oidc: async () => fake } });
    const button = await screen.findByRole('button', { name: 'Sign in with auth.example' });
    // Required: the provider's page cannot be reached without it.
    await user.click(button);
    expect(fake.startOidcSignIn).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/^Client id/), ' my-app ');
    await user.click(button);
    await waitFor(() => expect(fake.startOidcSignIn).toHaveBeenCalledTimes(1));
    expect(fake.startOidcSignIn.mock.calls[0]?.[1]?.clientId).toBe('my-app');
    expect(sessionStorage.getItem('ninefold.oauth.client-id')).toBe('my-app');
  });

  it('completes the sign-in at the callback, learns the person, and goes back', async () => {
    const fake = flows('/orders');
    const { sent } = renderAt('/_/oidc-callback?code=abc&state=xyz', {
      model,
      session: { oidc: async () => fake },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();
    expect(fake.completeOidcSignIn).toHaveBeenCalledTimes(1);
    const url = fake.completeOidcSignIn.mock.calls[0]?.[1];
    expect(url?.searchParams.get('code')).toBe('abc');
    expect(sent.find((request) => request.url === '/api/auth/session')?.authorization).toBe(
      'Bearer access-1',
    );
    expect(within(screen.getByRole('group', { name: 'Your session' })).getByText('Owner')).toBeTruthy();
  });

  it('takes the person and role from the ID token when the API has no session call', async () => {
    const fake = flows('/_/about');
    fake.completeOidcSignIn.mockResolvedValue({
      accessToken: 'access-1',
      returnTo: '/_/about',
      claims: { sub: 's-9', email: 'carl@example.com', roles: ['admin', 'clerk'], iss: 'https://id.example' },
    });
    renderAt('/_/oidc-callback?code=abc&state=xyz', {
      model,
      api: { ...prototypeApi, auth: undefined },
      session: { oidc: async () => fake },
    });
    const session = await screen.findByRole('group', { name: 'Your session' });
    expect(within(session).getByText('carl@example.com')).toBeTruthy();
    expect(within(session).getByText('Counter clerk')).toBeTruthy();
  });

  it('says so when the provider’s answer cannot be used', async () => {
    const fake = flows();
    fake.completeOidcSignIn.mockRejectedValue(new Error('The state does not match.'));
    renderAt('/_/oidc-callback?code=abc&state=forged', { model, session: { oidc: async () => fake } });
    expect((await screen.findByRole('alert')).textContent).toContain('The state does not match.');
    expect(screen.getByRole('link', { name: 'Back to the sign-in page' })).toBeTruthy();
  });
});
