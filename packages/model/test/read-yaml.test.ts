import { describe, expect, it } from 'vitest';
import { readYaml } from '../src/document/read-yaml';

describe('readYaml', () => {
  it('reads the document and locates values and keys', () => {
    const source = readYaml('title: Shop\nscreens:\n  orders:\n    route: /orders\n', 'shop.yaml');
    expect(source.issues).toEqual([]);
    expect(source.data).toEqual({ title: 'Shop', screens: { orders: { route: '/orders' } } });
    expect(source.locate(['screens', 'orders', 'route'])).toEqual({ file: 'shop.yaml', line: 4, column: 12 });
    expect(source.locate(['screens', 'orders', 'route'], { key: true })).toEqual({
      file: 'shop.yaml',
      line: 4,
      column: 5,
    });
  });

  it('points a missing path at the key of its nearest existing parent', () => {
    const source = readYaml('screens:\n  orders:\n    kind: list\n', 'a.yaml');
    expect(source.locate(['screens', 'orders', 'route'])).toEqual({ file: 'a.yaml', line: 2, column: 3 });
  });

  it('locates list items by index', () => {
    const source = readYaml('errors:\n  - message: a\n  - message: b\n', 'a.yaml');
    expect(source.locate(['errors', 1, 'message'])).toEqual({ file: 'a.yaml', line: 3, column: 14 });
  });

  it('maps an offset inside a plain or quoted one-line string', () => {
    const source = readYaml('a: record.totl > 0\nb: "record.totl > 0"\n', 'a.yaml');
    expect(source.locateInString(['a'], 7)).toEqual({ file: 'a.yaml', line: 1, column: 11 });
    expect(source.locateInString(['b'], 7)).toEqual({ file: 'a.yaml', line: 2, column: 12 });
  });

  it('reports a duplicate key with its position, instead of keeping the last value silently', () => {
    const source = readYaml('title: A\ntitle: B\n', 'dup.yaml');
    expect(source.issues).toHaveLength(1);
    expect(source.issues[0]).toMatchObject({ code: 'duplicate-key', severity: 'error' });
    expect(source.issues[0]?.source).toEqual({ file: 'dup.yaml', line: 2, column: 1 });
    expect(source.data).toBeUndefined();
  });

  it('reports a syntax error with a position', () => {
    const source = readYaml('screens:\n  orders: [a, b\n', 'bad.yaml');
    expect(source.issues.length).toBeGreaterThan(0);
    expect(source.issues[0]).toMatchObject({ code: 'syntax', severity: 'error' });
    expect(source.issues[0]?.source?.line).toBeGreaterThanOrEqual(2);
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 8; i++) {
      const name = String.fromCharCode(98 + i);
      const previous = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    }
    const source = readYaml(`${lines.join('\n')}\n`, 'bomb.yaml');
    expect(source.data).toBeUndefined();
    expect(source.issues[0]).toMatchObject({ code: 'syntax', severity: 'error' });
  });

  it('reads JSON with positions', () => {
    const source = readYaml('{\n  "title": "Shop",\n  "product": 3\n}\n', 'shop.json', 'json');
    expect(source.format).toBe('json');
    expect(source.data).toEqual({ title: 'Shop', product: 3 });
    expect(source.locate(['product'])).toEqual({ file: 'shop.json', line: 3, column: 14 });
  });
});
