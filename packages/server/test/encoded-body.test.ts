import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedBody, preferredCoding } from '../src/encoded-body';

describe('choosing a content coding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.0, GZIP;q=0.5', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['identity', 'identity'],
    ['', 'identity'],
    [undefined, 'identity'],
    [['gzip', 'br'], 'br'],
  ] as const)('%j -> %s', (header, expected) => {
    expect(preferredCoding(header as string | string[] | undefined)).toBe(expected);
  });
});

describe('a body kept in each coding', () => {
  it('compresses once per coding, and each decompresses to the text', () => {
    const text = JSON.stringify({
      items: Array.from({ length: 2000 }, (_, i) => ({ i, name: `item ${i}` })),
    });
    const body = encodedBody(text);
    expect(body.body('identity').toString()).toBe(text);
    const br = body.body('br');
    expect(br.length).toBeLessThan(text.length / 4);
    expect(brotliDecompressSync(br).toString()).toBe(text);
    expect(body.body('br')).toBe(br);
    expect(gunzipSync(body.body('gzip')).toString()).toBe(text);
  });
});
