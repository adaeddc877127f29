import { describe, expect, it } from 'vitest';
import { linkTarget, visibleControls } from '../src/app/link-policy';
import { currencyStep } from '../src/fields/currency-step';
import { formatBytes } from '../src/fields/format-bytes';

describe('formatBytes', () => {
  it('uses the largest unit under 1,024, in the language', () => {
    expect(formatBytes(14, 'en')).toBe('14 bytes');
    expect(formatBytes(2048, 'en')).toBe('2 kB');
    expect(formatBytes(5 * 1024 * 1024, 'en')).toBe('5 MB');
    expect(formatBytes(1.5 * 1024 * 1024, 'fr')).toBe('1,5\u202fMo');
  });
});

// Links from data or Markdown go only to this site, or, for a URL field, to https marked as leaving it.
// Guards against protocol-relative `//host/path` leaving as a link, and right-to-left overrides in text.
describe('linkTarget', () => {
  const origin = 'https://shop.example';
  it('keeps paths and addresses of this site, as paths', () => {
    expect(linkTarget('/api/_files/1', { origin })).toEqual({ kind: 'same-site', href: '/api/_files/1' });
    expect(linkTarget('#lines', { origin })).toEqual({ kind: 'same-site', href: '#lines' });
    expect(linkTarget('https://shop.example/orders/7?x=1', { origin })).toEqual({
      kind: 'same-site',
      href: '/orders/7?x=1',
    });
  });

  it('lets https elsewhere through only where the field is a URL', () => {
    expect(linkTarget('https://docs.example/a', { origin })).toBeUndefined();
    expect(linkTarget('https://docs.example/a', { origin, external: true })).toEqual({
      kind: 'external',
      href: 'https://docs.example/a',
    });
    expect(linkTarget('http://docs.example/a', { origin, external: true })).toBeUndefined();
    expect(linkTarget('https://user:pw@docs.example/a', { origin, external: true })).toBeUndefined();
  });

  it.each([
    '//evil.example/x',
    '/\\evil.example/x',
    '\\\\evil.example\\x',
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'mailto:a@b.example',
    'https://evil.example/\u202Efdp.exe',
    '/files/a b',
    '',
  ])('never makes a link of %j', (url) => {
    expect(linkTarget(url, { origin, external: true })).toBeUndefined();
  });
});

describe('visibleControls', () => {
  it('shows bidirectional controls instead of letting them reorder the text', () => {
    expect(visibleControls('invoice\u202Etxt.exe')).toBe('invoice⟦U+202E⟧txt.exe');
    expect(visibleControls('a\u2066b\u2069c')).toBe('a⟦U+2066⟧b⟦U+2069⟧c');
    expect(visibleControls('plain text')).toBe('plain text');
  });
});

describe('currencyStep', () => {
  it('is the smallest unit of the currency', () => {
    expect(currencyStep('EUR')).toBe(0.01);
    expect(currencyStep('JPY')).toBe(1);
    expect(currencyStep(undefined)).toBe(0.01);
    expect(currencyStep('not a currency')).toBe(0.01);
  });
});
