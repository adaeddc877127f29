import { describe, expect, it } from 'vitest';
import { lineColumn, locateJson } from '../src/read/locate-json';
import { decodePointer, resolvePath, resolvePointer } from '../src/read/refs';

describe('resolvePath', () => {
  it.each([
    ['spec/swagger.yaml', 'Pet.yaml', 'spec/Pet.yaml'],
    ['spec/swagger.yaml', './Pet.yaml', 'spec/Pet.yaml'],
    ['spec/swagger.yaml', '../common/Error.yaml', 'common/Error.yaml'],
    ['/a/b/c.json', '../../d.json', '/d.json'],
    ['/a/b.json', '/x/y.json', '/x/y.json'],
    ['https://h/api/v1/root.yaml', '../common.yaml', 'https://h/api/common.yaml'],
    ['root.yaml', 'https://h/x.yaml', 'https://h/x.yaml'],
  ])('%s + %s = %s', (from, reference, expected) => {
    expect(resolvePath(from, reference)).toBe(expected);
  });
});

describe('JSON pointers', () => {
  it('decode ~1, ~0 and percent-encoding', () => {
    expect(decodePointer('/paths/~1pets~1%7Bid%7D/a~0b')).toEqual(['paths', '/pets/{id}', 'a~b']);
  });

  it('resolve own properties and array indexes only', () => {
    const root = { a: [{ b: 1 }], c: {} };
    expect(resolvePointer(root, '/a/0/b')).toBe(1);
    expect(resolvePointer(root, '/a/01')).toBeUndefined();
    expect(resolvePointer(root, '/c/__proto__')).toBeUndefined();
    expect(resolvePointer(root, '/c/toString')).toBeUndefined();
    expect(resolvePointer(root, '')).toBe(root);
  });
});

describe('locateJson', () => {
  const text = '{\n  "a": {"x\\"y": [1, {"b": "}"}, 3]},\n  "c": true\n}';
  it('finds values and keys by path, past strings with brackets and escapes', () => {
    expect(lineColumn(text, locateJson(text, ['c']))).toEqual({ line: 3, column: 8 });
    expect(lineColumn(text, locateJson(text, ['c'], true))).toEqual({ line: 3, column: 3 });
    expect(text.slice(locateJson(text, ['a', 'x"y', 2]))).toMatch(/^3\]/);
    expect(text.slice(locateJson(text, ['a', 'x"y', 1, 'b']))).toMatch(/^"\}"/);
  });

  it('stops at the deepest part of the path that exists', () => {
    expect(text.slice(locateJson(text, ['a', 'nope']))).toMatch(/^\{"x/);
  });
});
