import type { SignIn } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import {
  apiOrigin,
  contentSecurityPolicy,
  securityHeaders,
  signInOrigins,
  wantsClientPage,
} from '../src/client';

describe('contentSecurityPolicy', () => {
  it('is the strict policy: scripts only from the client itself, never inline or eval', () => {
    expect(contentSecurityPolicy()).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
        "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
        "frame-ancestors 'none'",
    );
  });

  it('never lets scripts run inline or from strings, whatever the options', () => {
    for (const policy of [
      contentSecurityPolicy(),
      contentSecurityPolicy({ meta: true }),
      contentSecurityPolicy({ connect: ['https://api.example.com'] }),
    ]) {
      const script = policy.split('; ').find((directive) => directive.startsWith('script-src'));
      expect(script).toBe("script-src 'self'");
      expect(policy).not.toContain('unsafe-eval');
      expect(policy).not.toContain('wasm-unsafe-eval');
    }
  });

  it('allows the real API origin in connect-src, once', () => {
    const policy = contentSecurityPolicy({ connect: ['https://api.example.com', 'https://api.example.com'] });
    expect(policy).toContain("connect-src 'self' https://api.example.com;");
  });

  it('leaves frame-ancestors out of a policy for a <meta> element, which cannot carry it', () => {
    expect(contentSecurityPolicy({ meta: true })).not.toContain('frame-ancestors');
    expect(contentSecurityPolicy({ meta: true })).toContain("form-action 'self'");
  });

  it('comes with nosniff and no-referrer', () => {
    expect(securityHeaders()).toEqual({
      'content-security-policy': contentSecurityPolicy(),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
  });
});

describe('signInOrigins', () => {
  const oidc: SignIn = {
    kind: 'oidc',
    issuer: 'https://id.example.com/realms/shop',
    clientId: 'shop',
    scopes: ['openid'],
    session: 'memory',
  };
  const oauth2: SignIn = {
    kind: 'oauth2',
    authorizationUrl: 'https://login.example.com/authorize',
    tokenUrl: 'https://tokens.example.com/oauth/token',
    clientId: 'shop',
    scopes: [],
    session: 'memory',
  };

  it('lets the client call the OpenID Connect issuer, for its discovery document and token endpoint', () => {
    expect(signInOrigins(oidc)).toEqual(['https://id.example.com']);
    expect(contentSecurityPolicy({ signIn: oidc })).toContain("connect-src 'self' https://id.example.com;");
  });

  it('lets the client call the OAuth 2 token URL, and not the authorization page, which it only visits', () => {
    expect(signInOrigins(oauth2)).toEqual(['https://tokens.example.com']);
    const policy = contentSecurityPolicy({ signIn: oauth2, connect: ['https://api.example.com'] });
    expect(policy).toContain("connect-src 'self' https://api.example.com https://tokens.example.com;");
    expect(policy).not.toContain('login.example.com');
  });

  it('names a provider on the API origin once', () => {
    const policy = contentSecurityPolicy({ signIn: oidc, connect: ['https://id.example.com'] });
    expect(policy).toContain("connect-src 'self' https://id.example.com;");
  });

  it.each<SignIn>([
    { kind: 'none' },
    { kind: 'password', session: 'memory' },
    { kind: 'basic', session: 'session' },
    { kind: 'api-key', in: 'header', name: 'X-Key', session: 'memory' },
  ])('adds nothing for sign-in kind $kind, which calls only the API', (signIn) => {
    expect(signInOrigins(signIn)).toEqual([]);
    expect(contentSecurityPolicy({ signIn })).toBe(contentSecurityPolicy());
  });

  it('never writes anything but an http(s) origin into the policy', () => {
    for (const issuer of [
      'javascript:alert(1)',
      'not a url',
      "https://id.example.com/'unsafe-eval'; script-src *",
    ]) {
      const policy = contentSecurityPolicy({ signIn: { ...oidc, issuer } as SignIn });
      expect(policy).not.toContain('unsafe-eval');
      expect(policy).not.toContain('javascript');
      expect(policy.split('; ').filter((directive) => directive.startsWith('script-src'))).toEqual([
        "script-src 'self'",
      ]);
    }
  });
});

describe('apiOrigin', () => {
  it.each([
    ['https://api.example.com/v1', 'https://api.example.com'],
    ['http://127.0.0.1:8080/api/', 'http://127.0.0.1:8080'],
    ['/api', undefined],
    ['/', undefined],
    // Protocol-relative and other schemes are not a base the client may call.
    ['//evil.example/api', undefined],
    ['javascript:alert(1)', undefined],
    ['ftp://files.example.com', undefined],
  ])('%s -> %s', (base, origin) => {
    expect(apiOrigin(base)).toBe(origin);
  });
});

describe('wantsClientPage', () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  it.each([
    ['/orders/5/edit', browser, true],
    ['/orders', '*/*', true],
    ['/orders', undefined, true],
    ['/products/SKU-1.5', browser, true],
    ['/orders', 'application/json', false],
    ['/favicon.ico', 'image/avif,image/webp,*/*', false],
    ['/api/orders', browser, false],
    ['/spec.json', browser, false],
    ['/healthz', browser, false],
    ['/_ninefold/events', browser, false],
    ['/assets/app.js', browser, false],
  ])('%s with Accept %s -> %s', (path, accept, expected) => {
    expect(wantsClientPage(path, accept)).toBe(expected);
  });
});
