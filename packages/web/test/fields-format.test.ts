import { describe, expect, it } from 'vitest';
import { currencyStep } from '../src/fields/currency-step';
import { formatBytes } from '../src/fields/format-bytes';
import { safeHref } from '../src/fields/safe-href';

describe('formatBytes', () => {
  it('uses the largest unit under 1,024, in the language', () => {
    expect(formatBytes(14, 'en')).toBe('14 bytes');
    expect(formatBytes(2048, 'en')).toBe('2 kB');
    expect(formatBytes(5 * 1024 * 1024, 'en')).toBe('5 MB');
    expect(formatBytes(1.5 * 1024 * 1024, 'fr')).toBe('1,5\u202fMo');
  });
});

describe('safeHref', () => {
  it('lets http(s) through, and same-site paths only when asked', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('HTTP://example.com')).toBe('HTTP://example.com');
    expect(safeHref('/files/1')).toBeUndefined();
    expect(safeHref('/files/1', { sameSite: true })).toBe('/files/1');
  });

  it('never lets a script or data address through', () => {
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref(' javascript:alert(1)', { sameSite: true })).toBeUndefined();
    expect(safeHref('data:text/html,<b>x</b>', { sameSite: true })).toBeUndefined();
    expect(safeHref('//evil.example/x', { sameSite: true })).toBeUndefined();
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
