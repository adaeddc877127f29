import { describe, expect, it } from 'vitest';
import { apiOrigin, contentSecurityPolicy, securityHeaders, wantsClientPage } from '../src/client';

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
