import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { yamlText } from '../src/index';

describe('yamlText', () => {
  it('writes the example of its documentation', () => {
    expect(yamlText({ title: 'Shop', entities: { Order: { key: 'id' } } })).toBe(
      'title: Shop\nentities:\n  Order:\n    key: id\n',
    );
  });

  it('writes text that reads as another kind of value so that it reads back as text', () => {
    const texts = [
      '1.0',
      '007',
      '0x10',
      '1e3',
      '.inf',
      '-.nan',
      'true',
      'false',
      'yes',
      'no',
      'on',
      'null',
      '~',
      '',
      '2024-01-01',
      '2024-01-01T10:00:00Z',
      '12:30',
      '#not a comment',
      'a: b',
      '- item',
      '? key',
      '[1, 2]',
      '{a: 1}',
      '&anchor',
      '*alias',
      '!tag',
      '%directive',
      '@at',
      '`tick',
      "'single'",
      '"double"',
      ' lead',
      'trail ',
      'two\nlines',
      'ends with a break\n',
      'tab\there',
      'emoji 🚢 and ü',
      '\u2028',
      'a # b',
      '---',
      '...',
    ];
    const document = { texts, keyed: Object.fromEntries(texts.filter(Boolean).map((text) => [text, text])) };
    expect(parse(yamlText(document))).toEqual(document);
  });

  it('keeps numbers, booleans, nulls, empty lists and maps, and the order of keys', () => {
    const document = {
      z: 1,
      a: -2.5,
      m: 1e21,
      t: true,
      f: false,
      n: null,
      list: [],
      map: {},
      nested: [{ b: [1, [2]] }],
    };
    const text = yamlText(document);
    expect(parse(text)).toEqual(document);
    expect(Object.keys(parse(text) as object)).toEqual(Object.keys(document));
  });

  it('writes a value met twice out twice, without anchors, and leaves out keys whose value is undefined', () => {
    const shared = { kind: 'text', label: 'Name' };
    const text = yamlText({ first: shared, second: shared, gone: undefined });
    expect(text).not.toMatch(/[&*]/);
    expect(parse(text)).toEqual({ first: shared, second: shared });
  });

  it('folds no line, however long', () => {
    const long = 'word '.repeat(100).trim();
    expect(yamlText({ long }).split('\n')[0]).toBe(`long: ${long}`);
  });
});
