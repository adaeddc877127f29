import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec, type Model } from '@ninefold/model';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OidcTestProvider,
  signInWithoutBrowser,
  startOidcProvider,
} from '../../../e2e/support/oidc-provider';
import { createOidcVerifier, type OidcSignIn, oidcVerifierFor } from '../src/auth/oidc';

const CLIENT_ID = 'ninefold-test';
const REDIRECT_URI = 'http://127.0.0.1:9/_/oidc-callback';
const ROLES = ['clerk', 'owner', 'warehouse'];
const ACCOUNTS = [
  { sub: 'u-clerk', email: 'clara@example.com', name: 'Clara', roles: ['staff', 'clerk'] },
  { sub: 'u-owner', email: 'olga@example.com', role: 'owner' },
  { sub: 'u-scoped', email: 'sam@example.com' },
  { sub: 'u-guest', email: 'gus@example.com', roles: ['auditor'] },
];

let jwtProvider: OidcTestProvider;
let otherProvider: OidcTestProvider;
let opaqueProvider: OidcTestProvider;

beforeAll(async () => {
  [jwtProvider, otherProvider, opaqueProvider] = await Promise.all([
    startOidcProvider({
      clientId: CLIENT_ID,
      redirectUris: [REDIRECT_URI],
      accounts: ACCOUNTS,
      apiScopes: ['clerk', 'warehouse'],
    }),
    startOidcProvider({ clientId: CLIENT_ID, redirectUris: [REDIRECT_URI], accounts: ACCOUNTS }),
    startOidcProvider({
      clientId: CLIENT_ID,
      redirectUris: [REDIRECT_URI],
      accounts: ACCOUNTS,
      accessTokens: 'opaque',
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([jwtProvider?.stop(), otherProvider?.stop(), opaqueProvider?.stop()]);
});

function signInOf(provider: OidcTestProvider): OidcSignIn {
  return {
    kind: 'oidc',
    issuer: provider.issuer,
    clientId: CLIENT_ID,
    scopes: ['openid', 'email', 'roles'],
    session: 'memory',
  };
}

function tokensOf(
  provider: OidcTestProvider,
  email: string,
  scope = 'openid email roles',
  resource?: string,
) {
  return signInWithoutBrowser(provider, {
    clientId: CLIENT_ID,
    redirectUri: REDIRECT_URI,
    email,
    scope,
    ...(resource === undefined ? {} : { resource }),
  });
}

function parts(token: string): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header = '', claims = ''] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()),
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString()),
  };
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('OIDC access tokens (JWT) from a real provider', () => {
  it('sign a person in with the role of point 6 their roles claim names, and their plain claims', async () => {
    const { accessToken } = await tokensOf(jwtProvider, 'clara@example.com');
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    const check = await verifier.verify(accessToken);
    const exp = parts(accessToken).claims.exp;
    expect(check).toEqual({
      ok: true,
      principal: { role: 'clerk', user: { id: 'u-clerk', email: 'clara@example.com', role: 'clerk' } },
      expiresAt: exp,
    });
  });

  it('take the role from a role claim, or from a granted scope named like a role', async () => {
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    const owner = await verifier.verify((await tokensOf(jwtProvider, 'olga@example.com')).accessToken);
    expect(owner).toMatchObject({ ok: true, principal: { role: 'owner', user: { id: 'u-owner' } } });

    const scoped = await tokensOf(jwtProvider, 'sam@example.com', 'openid email warehouse');
    expect(parts(scoped.accessToken).claims.scope).toBe('warehouse');
    expect(await verifier.verify(scoped.accessToken)).toMatchObject({
      ok: true,
      principal: { role: 'warehouse', user: { id: 'u-scoped', role: 'warehouse' } },
    });
  });

  it('sign in with no role a person whose claims name no role of point 6', async () => {
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    const check = await verifier.verify((await tokensOf(jwtProvider, 'gus@example.com')).accessToken);
    expect(check).toEqual({
      ok: true,
      principal: { user: { id: 'u-guest', email: 'gus@example.com' } },
      expiresAt: expect.any(Number),
    });
  });

  it('refuse a token altered in its claims or its signature', async () => {
    const { accessToken } = await tokensOf(jwtProvider, 'clara@example.com');
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    const [header, payload, signature = ''] = accessToken.split('.');
    const promoted = encode({ ...parts(accessToken).claims, roles: ['owner'] });
    expect(await verifier.verify(`${header}.${promoted}.${signature}`)).toEqual({
      ok: false,
      code: 'INVALID_TOKEN',
      message: 'The access token is not valid.',
    });
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(await verifier.verify(`${header}.${payload}.${flipped}`)).toMatchObject({
      ok: false,
      code: 'INVALID_TOKEN',
    });
  });

  it('refuse an expired token as an expired session', async () => {
    const { accessToken } = await tokensOf(jwtProvider, 'clara@example.com');
    const exp = parts(accessToken).claims.exp as number;
    const later = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES, now: () => (exp + 60) * 1000 });
    expect(await later.verify(accessToken)).toEqual({
      ok: false,
      code: 'SESSION_EXPIRED',
      message: 'The session has expired.',
    });
  });

  it('refuse a token from another issuer, and one signed by a key the issuer does not publish', async () => {
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    const foreign = (await tokensOf(otherProvider, 'clara@example.com')).accessToken;
    expect(await verifier.verify(foreign)).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });

    // Right issuer, audience and claims, signed with a key of the attacker's own.
    const { claims } = parts((await tokensOf(jwtProvider, 'clara@example.com')).accessToken);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ ...claims, roles: ['owner'] })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'attacker' })
      .sign(privateKey);
    expect(await verifier.verify(forged)).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });
  });

  it('refuse alg none, and HS256 keyed with the issuer’s public key', async () => {
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    const { accessToken } = await tokensOf(jwtProvider, 'clara@example.com');
    const { header, claims } = parts(accessToken);
    const body = encode({ ...claims, roles: ['owner'] });
    for (const alg of ['none', 'None', 'NONE']) {
      expect(await verifier.verify(`${encode({ ...header, alg })}.${body}.`)).toMatchObject({
        ok: false,
        code: 'INVALID_TOKEN',
      });
    }
    // The classic key confusion: the public key, which anyone can fetch, used as an HMAC secret.
    const jwks = (await (await fetch(`${jwtProvider.issuer}/jwks`)).json()) as { keys: object[] };
    const hsHeader = encode({ ...header, alg: 'HS256' });
    for (const secret of [JSON.stringify(jwks.keys[0]), JSON.stringify(jwks)]) {
      const signature = createHmac('sha256', secret).update(`${hsHeader}.${body}`).digest('base64url');
      expect(await verifier.verify(`${hsHeader}.${body}.${signature}`)).toMatchObject({
        ok: false,
        code: 'INVALID_TOKEN',
      });
    }
  });

  it('refuse a token for another audience, and an ID token offered as an access token', async () => {
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    const elsewhere = await tokensOf(
      jwtProvider,
      'clara@example.com',
      'openid',
      'https://other-api.example/',
    );
    expect(parts(elsewhere.accessToken).claims.aud).toBe('https://other-api.example/');
    expect(await verifier.verify(elsewhere.accessToken)).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });
    const expecting = createOidcVerifier(signInOf(jwtProvider), { audience: 'https://other-api.example/' });
    expect(await expecting.verify(elsewhere.accessToken)).toMatchObject({ ok: true });

    const { idToken } = await tokensOf(jwtProvider, 'clara@example.com');
    expect(idToken).toBeDefined();
    // Same issuer, same keys, and its audience is the client id: only its kind tells it apart.
    expect(parts(idToken ?? '').claims.aud).toBe(CLIENT_ID);
    expect(await verifier.verify(idToken ?? '')).toEqual({
      ok: false,
      code: 'INVALID_TOKEN',
      message: 'An ID token is not an access token.',
    });
  });

  it('refuse tokens that are not tokens at all', async () => {
    const verifier = createOidcVerifier(signInOf(jwtProvider), { roles: ROLES });
    for (const token of ['', 'a b', 'x.y.z', `${encode({ alg: 'RS256' })}.e30.`]) {
      expect(await verifier.verify(token)).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });
    }
  });
});

describe('OIDC opaque access tokens, checked at the userinfo endpoint', () => {
  it('sign a person in from the userinfo answer, asking the provider once per token for a while', async () => {
    const { accessToken } = await tokensOf(opaqueProvider, 'clara@example.com');
    expect(accessToken.split('.')).toHaveLength(1);
    let asked = 0;
    let clock = Date.UTC(2026, 0, 1);
    const verifier = createOidcVerifier(signInOf(opaqueProvider), {
      roles: ROLES,
      now: () => clock,
      userinfoCacheSeconds: 30,
      fetch: (input, init) => {
        if (String(input).endsWith('/me')) asked += 1;
        return fetch(input, init);
      },
    });
    const expected = {
      ok: true,
      principal: {
        role: 'clerk',
        user: { id: 'u-clerk', email: 'clara@example.com', email_verified: true, role: 'clerk' },
      },
    };
    expect(await verifier.verify(accessToken)).toEqual(expected);
    expect(await verifier.verify(accessToken)).toEqual(expected);
    expect(asked).toBe(1);
    clock += 31_000;
    expect(await verifier.verify(accessToken)).toEqual(expected);
    expect(asked).toBe(2);
  });

  it('refuse a token the provider does not know, asking again each time', async () => {
    let asked = 0;
    const verifier = createOidcVerifier(signInOf(opaqueProvider), {
      roles: ROLES,
      fetch: (input, init) => {
        if (String(input).endsWith('/me')) asked += 1;
        return fetch(input, init);
      },
    });
    const made = 'G8dP2yQ7vX1kZ3mN5bR9tW4sH6jL0cF2aE8uI7oY1xV';
    expect(await verifier.verify(made)).toEqual({
      ok: false,
      code: 'INVALID_TOKEN',
      message: 'The access token is not valid.',
    });
    expect(await verifier.verify(made)).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });
    expect(asked).toBe(2);
  });
});

describe('oidcVerifierFor', () => {
  it('checks tokens against the issuer and the roles of point 6, for an oidc sign-in only', async () => {
    const text = readFileSync(join(import.meta.dirname, '../../../e2e/fixtures/oidc-shop.yaml'), 'utf8')
      .replace('issuer: http://127.0.0.1:4399', `issuer: ${jwtProvider.issuer}`)
      .replace('clientId: harbor-notes', `clientId: ${CLIENT_ID}`)
      .replace('    reader:', '    clerk:');
    const loaded = loadSpec(text, { file: 'oidc-shop.yaml' });
    expect(loaded.model).toBeDefined();
    const model = loaded.model as Model;
    const verifier = oidcVerifierFor(model);
    expect(verifier).toBeDefined();
    const check = await verifier?.verify((await tokensOf(jwtProvider, 'clara@example.com')).accessToken);
    expect(check).toMatchObject({ ok: true, principal: { role: 'clerk', user: { id: 'u-clerk' } } });

    const password = { ...model, roles: { ...model.roles, signIn: { kind: 'password', session: 'memory' } } };
    expect(oidcVerifierFor(password as Model)).toBeUndefined();
    expect(oidcVerifierFor({ ...model, roles: { shown: false } })).toBeUndefined();
  });
});

describe('the issuer', () => {
  it('must be https, or http only on a loopback address', () => {
    const signIn = { ...signInOf(jwtProvider), issuer: 'http://id.example.com' };
    expect(() => createOidcVerifier(signIn)).toThrow(/must use https/);
  });

  it('when it cannot be reached, is the server’s problem, not a bad token, and is asked again', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setSubject('x').sign(privateKey);
    let calls = 0;
    const verifier = createOidcVerifier(signInOf(jwtProvider), {
      fetch: async () => {
        calls += 1;
        throw new TypeError('fetch failed');
      },
    });
    await expect(verifier.verify(token)).rejects.toThrow('fetch failed');
    await expect(verifier.verify(token)).rejects.toThrow('fetch failed');
    expect(calls).toBe(2);
  });

  it('must name itself in its discovery document', async () => {
    const verifier = createOidcVerifier(signInOf(jwtProvider), {
      fetch: async () =>
        Response.json({ issuer: 'https://evil.example', jwks_uri: 'https://evil.example/jwks' }),
    });
    await expect(verifier.verify('opaque-token')).rejects.toThrow(/names another issuer/);
  });
});
