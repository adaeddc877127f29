import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load';
import {
  filterParamValue,
  readFilterParamValue,
  readSortParams,
  sortParamNames,
  sortParams,
} from '../src/rules/sort-param';

// The client writes a sort order and the prototype API reads it back with the same module: each style
// must round-trip, and what a call does not sort by is left out (client) or refused (API).
const keys = [
  { field: 'placedOn', direction: 'desc' as const },
  { field: 'name', direction: 'asc' as const },
];
const dashed = { param: 'sort', fields: ['name', 'placedOn'], style: 'field,-field' as const };
const colon = { param: 'order', fields: ['name', 'placedOn'], style: 'field:asc' as const };
const perField = {
  param: 'orderby.{field}',
  fields: ['name', 'placedOn'],
  style: 'param-per-field' as const,
};
const styles = [dashed, colon, perField];

describe('sort parameters', () => {
  it('are written in each style', () => {
    expect(sortParams(dashed, keys)).toEqual([['sort', '-placedOn,name']]);
    expect(sortParams(colon, keys)).toEqual([['order', 'placedOn:desc,name:asc']]);
    expect(sortParams(perField, keys)).toEqual([
      ['orderby.placedOn', 'desc'],
      ['orderby.name', 'asc'],
    ]);
    expect(sortParamNames(perField)).toEqual(['orderby.name', 'orderby.placedOn']);
  });

  it('leave out a field the call does not sort by', () => {
    expect(sortParams(perField, [{ field: 'secret', direction: 'asc' }])).toEqual([]);
  });

  it('read back what they write, in each style', () => {
    for (const sort of styles) {
      const written = new Map(sortParams(sort, keys));
      const read = readSortParams(sort, (name) => written.get(name));
      expect(read.problems).toEqual([]);
      // A parameter per field has no order between parameters: the keys come in the call's field order.
      expect(new Set(read.keys.map((key) => JSON.stringify(key)))).toEqual(
        new Set(keys.map((key) => JSON.stringify(key))),
      );
    }
  });

  it('refuse an unknown field or direction with a sentence that names it', () => {
    expect(readSortParams(dashed, () => '-secret').problems).toEqual([
      'This list cannot be sorted by "-secret"; it sorts by name, placedOn.',
    ]);
    expect(readSortParams(perField, (name) => (name === 'orderby.name' ? 'upward' : undefined))).toEqual({
      keys: [],
      problems: ['"orderby.name" must be asc or desc, not "upward".'],
    });
  });
});

describe('filter values written in a pattern', () => {
  const like = { field: 'name', param: 'where.name.like', op: 'contains' as const, pattern: '%{value}%' };

  it('are written and read back by the same rule', () => {
    expect(filterParamValue(like, 'acme')).toBe('%acme%');
    expect(readFilterParamValue(like, '%acme%')).toBe('acme');
    expect(readFilterParamValue(like, 'acme')).toBeUndefined();
    const plain = { field: 'name', param: 'name', op: 'eq' as const };
    expect(filterParamValue(plain, 'acme')).toBe('acme');
    expect(readFilterParamValue(plain, '%acme%')).toBe('%acme%');
  });

  it('must hold {value} once, as check says', () => {
    const loaded = loadSpec(
      [
        'title: Parts',
        'entities:',
        '  Part: { key: id, fields: { id: { kind: integer }, name: { kind: text } } }',
        'calls:',
        '  operations:',
        '    listParts:',
        '      method: GET',
        '      path: /parts',
        '      purpose: list',
        '      entity: Part',
        '      filters: [{ field: name, param: where.name.like, op: contains, pattern: "%%" }]',
      ].join('\n'),
      { file: 'parts.yaml' },
    );
    expect(loaded.issues.map((issue) => issue.message)).toContain(
      'Call "listParts" (point 7) writes its filter on "name" as "%%", which must hold {value} once, e.g. "%{value}%".',
    );
  });
});
