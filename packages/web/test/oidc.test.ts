import type { SignIn } from '@ninefold/model';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  completeOidcSignIn,
  OidcError,
  type RedirectSignIn,
  refreshOidc,
  sameAppPath,
  startOidcSignIn,
} from '../src/session/oidc';

// A provider faked at the fetch boundary: the flow against a real one (oidc-provider) is e2e/oidc.test.ts.
const ISSUER = 'https://id.example.com';
const CLIENT_ID = 'harbor';
const REDIRECT_URI = 'https://app.example.com/_/oidc-callback';
const ACCESS_TOKEN = 'access-token-7f3a9c';
const REFRESH_TOKEN = 'refresh-token-41b2';

const oidc: RedirectSignIn = {
  kind: 'oidc',
  issuer: ISSUER,
  clientId: CLIENT_ID,
  scopes: ['email', 'roles'],
  session: 'memory',
};

interface TokenRequest {
  body: URLSearchParams;
  headers: Headers;
}

let tokenRequests: TokenRequest[];
let discoveries: string[];
let tokenAnswer: (request: TokenRequest) => Response;
let assigned: string[];

const encode = (value: unknown) =>
  btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

function idToken(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({
    iss: ISSUER,
    aud: CLIENT_ID,
    sub: 'u-7',
    iat: now,
    exp: now + 600,
    ...claims,
  })}.c2lnbmF0dXJl`;
}

function discovery(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    id_token_signing_alg_values_supported: ['RS256'],
    authorization_response_iss_parameter_supported: true,
  };
}

beforeEach(() => {
  sessionStorage.clear();
  tokenRequests = [];
  discoveries = [];
  assigned = [];
  tokenAnswer = ({ body }) => {
    const nonce = JSON.parse(sessionStorage.getItem('seen-nonce') ?? 'null');
    return Response.json({
      access_token: ACCESS_TOKEN,
      token_type: 'Bearer',
      expires_in: 300,
      refresh_token: body.get('grant_type') === 'refresh_token' ? `${REFRESH_TOKEN}-next` : REFRESH_TOKEN,
      ...(body.get('grant_type') === 'authorization_code'
        ? { id_token: idToken({ nonce, email: 'ada@example.com', roles: ['clerk'] }) }
        : {}),
    });
  };
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/.well-known/openid-configuration')) {
      discoveries.push(url.origin);
      return Response.json(discovery(url.origin));
    }
    if (url.pathname.endsWith('/token')) {
      const request = { body: new URLSearchParams(String(init?.body)), headers: new Headers(init?.headers) };
      tokenRequests.push(request);
      return tokenAnswer(request);
    }
    return new Response('not found', { status: 404 });
  });
  vi.spyOn(window.location, 'assign').mockImplementation((url: string | URL) => {
    assigned.push(String(url));
    // The test's stand-in for the provider: remember the nonce it would put in the ID token.
    sessionStorage.setItem('seen-nonce', JSON.stringify(new URL(String(url)).searchParams.get('nonce')));
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Starts a sign-in and comes back with the code, as the provider would send the browser. */
async function roundTrip(signIn: RedirectSignIn = oidc, returnTo = '/orders?status=placed') {
  await startOidcSignIn(signIn, { redirectUri: REDIRECT_URI, returnTo });
  const sent = new URL(assigned.at(-1) ?? '');
  const back = new URL(REDIRECT_URI);
  back.searchParams.set('code', 'the-code');
  back.searchParams.set('state', sent.searchParams.get('state') ?? '');
  back.searchParams.set('iss', ISSUER);
  return { sent, back };
}

async function failure(promise: Promise<unknown>): Promise<OidcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OidcError);
  const message = (error as OidcError).message;
  expect(message).not.toContain(ACCESS_TOKEN);
  expect(message).not.toContain(REFRESH_TOKEN);
  expect(message).not.toContain('the-code');
  return error as OidcError;
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

describe('startOidcSignIn', () => {
  it('sends the person to the discovered authorization endpoint with PKCE S256, a state and a nonce', async () => {
    const { sent } = await roundTrip();
    expect(`${sent.origin}${sent.pathname}`).toBe(`${ISSUER}/authorize`);
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email roles',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[\w-]{20,}$/),
      nonce: expect.stringMatching(/^[\w-]{20,}$/),
    });
    // Only what the callback needs waits in session storage, and the challenge is the verifier's hash.
    const pending = JSON.parse(sessionStorage.getItem('ninefold.oidc.pending') ?? '{}');
    expect(Object.keys(pending).sort()).toEqual(
      ['clientId', 'nonce', 'provider', 'redirectUri', 'returnTo', 'state', 'verifier'].sort(),
    );
    expect(pending.returnTo).toBe('/orders?status=placed');
    expect(await sha256(pending.verifier)).toBe(sent.searchParams.get('code_challenge'));
    expect(pending.state).toBe(sent.searchParams.get('state'));
    expect(pending.nonce).toBe(sent.searchParams.get('nonce'));
  });

  it('keeps a return address only when it is a path of this app', async () => {
    await startOidcSignIn(oidc, { redirectUri: REDIRECT_URI, returnTo: '//evil.example/steal' });
    expect(JSON.parse(sessionStorage.getItem('ninefold.oidc.pending') ?? '{}').returnTo).toBe('/');
  });

  it('refuses a provider reached over plain http, unless it is on this machine', async () => {
    const error = await failure(
      startOidcSignIn(
        { ...oidc, issuer: 'http://id.example.com' },
        { redirectUri: REDIRECT_URI, returnTo: '/' },
      ),
    );
    expect(error.reason).toBe('unsupported');
    expect(assigned).toEqual([]);
    await startOidcSignIn(
      { ...oidc, issuer: 'http://127.0.0.1:4399' },
      { redirectUri: REDIRECT_URI, returnTo: '/' },
    );
    expect(assigned[0]).toMatch(/^http:\/\/127\.0\.0\.1:4399\/authorize\?/);
  });

  it('says so when the provider cannot be reached, and asks again next time', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const signIn = { ...oidc, issuer: 'https://down.example.com' };
    const error = await failure(startOidcSignIn(signIn, { redirectUri: REDIRECT_URI, returnTo: '/' }));
    expect(error.reason).toBe('unreachable');
    expect(error.message).toBe('The sign-in provider could not be reached. Try again in a moment.');
    vi.stubGlobal('fetch', async () => Response.json(discovery('https://down.example.com')));
    await startOidcSignIn(signIn, { redirectUri: REDIRECT_URI, returnTo: '/' });
    expect(assigned).toHaveLength(1);
  });
});

describe('completeOidcSignIn', () => {
  it('exchanges the code as a public client with the PKCE verifier, and returns the tokens and the ID token’s claims', async () => {
    const { back } = await roundTrip();
    const pending = JSON.parse(sessionStorage.getItem('ninefold.oidc.pending') ?? '{}');
    const before = Date.now();
    const result = await completeOidcSignIn(oidc, back, REDIRECT_URI);
    expect(result).toEqual({
      accessToken: ACCESS_TOKEN,
      refreshToken: REFRESH_TOKEN,
      expiresAt: expect.any(Number),
      returnTo: '/orders?status=placed',
      claims: expect.objectContaining({ sub: 'u-7', email: 'ada@example.com', roles: ['clerk'] }),
    });
    expect(result.expiresAt).toBeGreaterThanOrEqual(before + 300_000);
    expect(tokenRequests).toHaveLength(1);
    const [request] = tokenRequests;
    expect(Object.fromEntries(request?.body ?? [])).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: REDIRECT_URI,
      code_verifier: pending.verifier,
      client_id: CLIENT_ID,
    });
    expect(request?.headers.get('authorization')).toBeNull();
    // The verifier, state and nonce are gone once the callback has read them.
    expect(sessionStorage.getItem('ninefold.oidc.pending')).toBeNull();
  });

  it('cannot be completed twice with the same callback address', async () => {
    const { back } = await roundTrip();
    await completeOidcSignIn(oidc, back, REDIRECT_URI);
    const error = await failure(completeOidcSignIn(oidc, back, REDIRECT_URI));
    expect(error.reason).toBe('invalid');
    expect(tokenRequests).toHaveLength(1);
  });

  it('refuses an answer whose state is not the one this tab sent, without exchanging the code', async () => {
    const { back } = await roundTrip();
    back.searchParams.set('state', 'someone-elses-state');
    const error = await failure(completeOidcSignIn(oidc, back, REDIRECT_URI));
    expect(error.message).toBe(
      'The sign-in answer does not match the sign-in that was started. Sign in again.',
    );
    expect(tokenRequests).toEqual([]);
    expect(sessionStorage.getItem('ninefold.oidc.pending')).toBeNull();
  });

  it('refuses an ID token with another nonce, issuer or audience', async () => {
    for (const claims of [
      { nonce: 'replayed' },
      { iss: 'https://evil.example' },
      { aud: 'another-client' },
    ]) {
      tokenAnswer = () =>
        Response.json({
          access_token: ACCESS_TOKEN,
          token_type: 'bearer',
          id_token: idToken({
            nonce: JSON.parse(sessionStorage.getItem('seen-nonce') ?? 'null'),
            ...claims,
          }),
        });
      const { back } = await roundTrip();
      const error = await failure(completeOidcSignIn(oidc, back, REDIRECT_URI));
      expect(error.reason).toBe('invalid');
      expect(error.message).toBe('The sign-in provider’s answer could not be verified. Sign in again.');
    }
  });

  it('refuses an answer without an ID token, or with a token of another type than Bearer', async () => {
    tokenAnswer = () => Response.json({ access_token: ACCESS_TOKEN, token_type: 'bearer' });
    expect((await failure(completeOidcSignIn(oidc, (await roundTrip()).back, REDIRECT_URI))).reason).toBe(
      'invalid',
    );
    tokenAnswer = () =>
      Response.json({
        access_token: ACCESS_TOKEN,
        token_type: 'mac',
        id_token: idToken({ nonce: JSON.parse(sessionStorage.getItem('seen-nonce') ?? 'null') }),
      });
    expect((await failure(completeOidcSignIn(oidc, (await roundTrip()).back, REDIRECT_URI))).reason).toBe(
      'unsupported',
    );
  });

  it('says plainly that the person cancelled, or that the provider refused the code', async () => {
    const { back } = await roundTrip();
    const cancelled = new URL(REDIRECT_URI);
    cancelled.searchParams.set('error', 'access_denied');
    cancelled.searchParams.set('state', back.searchParams.get('state') ?? '');
    cancelled.searchParams.set('iss', ISSUER);
    expect((await failure(completeOidcSignIn(oidc, cancelled, REDIRECT_URI))).message).toBe(
      'The sign-in was cancelled or refused at the provider.',
    );

    tokenAnswer = () =>
      Response.json({ error: 'invalid_grant', error_description: 'code expired' }, { status: 400 });
    const expired = await failure(completeOidcSignIn(oidc, (await roundTrip()).back, REDIRECT_URI));
    expect(expired.reason).toBe('refused');
    expect(expired.message).toBe('The sign-in provider refused (invalid_grant). Sign in again.');
  });

  it('refuses a callback for another redirect address than the one the sign-in was started with', async () => {
    const { back } = await roundTrip();
    expect((await failure(completeOidcSignIn(oidc, back, 'https://app.example.com/elsewhere'))).reason).toBe(
      'invalid',
    );
  });
});

describe('OAuth 2 without discovery', () => {
  const oauth2: RedirectSignIn = {
    kind: 'oauth2',
    authorizationUrl: 'https://login.example.com/oauth/authorize',
    tokenUrl: 'https://login.example.com/oauth/token',
    clientId: CLIENT_ID,
    scopes: ['orders:read'],
    session: 'session',
  };

  it('uses the specification’s endpoints, sends no nonce, and returns no claims', async () => {
    const { sent, back } = await roundTrip(oauth2);
    expect(discoveries).toEqual([]);
    expect(`${sent.origin}${sent.pathname}`).toBe(oauth2.authorizationUrl);
    expect(sent.searchParams.get('scope')).toBe('orders:read');
    expect(sent.searchParams.has('nonce')).toBe(false);
    tokenAnswer = () => Response.json({ access_token: ACCESS_TOKEN, token_type: 'bearer' });
    expect(await completeOidcSignIn(oauth2, back, REDIRECT_URI)).toEqual({
      accessToken: ACCESS_TOKEN,
      returnTo: '/orders?status=placed',
    });
  });

  it('cannot start without a client id', async () => {
    const { clientId: _, ...anonymous } = oauth2 as Extract<SignIn, { kind: 'oauth2' }>;
    expect(
      (await failure(startOidcSignIn(anonymous, { redirectUri: REDIRECT_URI, returnTo: '/' }))).reason,
    ).toBe('unsupported');
  });

  it('signs in as the client id typed in the page where the specification names none', async () => {
    const { clientId: _, ...anonymous } = oauth2 as Extract<SignIn, { kind: 'oauth2' }>;
    await startOidcSignIn(anonymous, {
      redirectUri: REDIRECT_URI,
      returnTo: '/',
      clientId: ' typed-client ',
    });
    const sent = new URL(assigned.at(-1) ?? '');
    expect(sent.searchParams.get('client_id')).toBe('typed-client');
    const back = new URL(REDIRECT_URI);
    back.searchParams.set('code', 'the-code');
    back.searchParams.set('state', sent.searchParams.get('state') ?? '');
    let exchangedAs: string | null = null;
    tokenAnswer = ({ body }) => {
      exchangedAs = body.get('client_id');
      return Response.json({ access_token: ACCESS_TOKEN, token_type: 'bearer' });
    };
    expect(await completeOidcSignIn(anonymous, back, REDIRECT_URI)).toMatchObject({
      accessToken: ACCESS_TOKEN,
    });
    expect(exchangedAs).toBe('typed-client');
  });

  it('keeps the specification’s client id over one typed in the page', async () => {
    await startOidcSignIn(oauth2, { redirectUri: REDIRECT_URI, returnTo: '/', clientId: 'typed-client' });
    expect(new URL(assigned.at(-1) ?? '').searchParams.get('client_id')).toBe(CLIENT_ID);
  });
});

describe('refreshOidc', () => {
  it('trades the refresh token for new tokens, keeping the old refresh token when the provider does not rotate it', async () => {
    expect(await refreshOidc(oidc, REFRESH_TOKEN)).toEqual({
      accessToken: ACCESS_TOKEN,
      refreshToken: `${REFRESH_TOKEN}-next`,
      expiresAt: expect.any(Number),
    });
    expect(Object.fromEntries(tokenRequests[0]?.body ?? [])).toEqual({
      grant_type: 'refresh_token',
      refresh_token: REFRESH_TOKEN,
      client_id: CLIENT_ID,
    });
    tokenAnswer = () => Response.json({ access_token: ACCESS_TOKEN, token_type: 'bearer' });
    expect(await refreshOidc(oidc, REFRESH_TOKEN)).toEqual({
      accessToken: ACCESS_TOKEN,
      refreshToken: REFRESH_TOKEN,
    });
  });

  it('says the refresh token is no longer good, so the person signs in again', async () => {
    tokenAnswer = () => Response.json({ error: 'invalid_grant' }, { status: 400 });
    const error = await failure(refreshOidc(oidc, REFRESH_TOKEN));
    expect(error.reason).toBe('refused');
  });
});

describe('sameAppPath', () => {
  it.each([
    ['/orders/7?tab=lines#top', '/orders/7?tab=lines#top'],
    ['/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['orders', '/'],
    ['/orders\n/x', '/'],
    ['/_/oidc-callback?code=x', '/'],
  ])('%j -> %j', (path, expected) => {
    expect(sameAppPath(path)).toBe(expected);
  });
});
