import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src';

const spec = (fields: string) =>
  [
    'title: X',
    'product: not shown',
    'screens: not shown',
    'entities:',
    '  Order:',
    '    fields:',
    fields,
    'states: not shown',
    'validation: not shown',
    'roles: not shown',
    'calls: not shown',
    'errors: not shown',
    'constants: not shown',
  ].join('\n');

describe('a comma inside a YAML flow mapping', () => {
  it('says the comma ended the value, and how to keep it, where the stray key is', () => {
    const result = loadSpec(spec('      status: { kind: enum, values: a, b }'), { file: 'x.yaml' });
    const stray = result.issues.find((issue) => issue.code === 'unknown-key');
    expect(stray?.message).toBe('entities.Order.fields.status: "b" is not a known key here.');
    expect(stray?.hint).toBe(
      'a comma inside { } ends a value, so "b" was read as a key: quote the value that holds the comma (values: "a, b"), or write a list as [a, b]',
    );
  });

  it('keeps the known keys as the hint for a key that is simply unknown', () => {
    const result = loadSpec(spec('      status: { kind: text, colour: red }'), { file: 'x.yaml' });
    const unknown = result.issues.find((issue) => issue.code === 'unknown-key');
    expect(unknown?.hint).toMatch(/^known keys: kind, label/);
  });
});
