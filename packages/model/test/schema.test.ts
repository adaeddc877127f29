import { readFileSync } from 'node:fs';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import { SCHEMA_PATH } from '../scripts/write-schema';
import { type DocumentInput, documentJsonSchema } from '../src/document/schema';
import { readMarkdown } from '../src/markdown/read';
import type { Model, PointKey } from '../src/model';

const committed = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));
const validator = new Validator(committed, '2020-12', false);
const example = (name: string) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');

describe('the published JSON Schema', () => {
  it('is exactly what the Zod definitions generate (run `npm run schema` after changing them)', () => {
    expect(committed).toEqual(JSON.parse(JSON.stringify(documentJsonSchema())));
  });

  it('accepts the YAML example, checked by an independent validator', () => {
    const result = validator.validate(parse(example('shop.yaml')));
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each(['shop.md', 'empty.md'])('accepts what the Markdown reader builds from %s', (name) => {
    const source = readMarkdown(example(name), name);
    expect(source.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(validator.validate(source.data).errors).toEqual([]);
  });

  it('rejects an unknown key, a wrong kind and a point that is neither content nor "not shown"', () => {
    expect(validator.validate({ title: 'x', screenz: {} }).valid).toBe(false);
    expect(validator.validate({ entities: { A: { fields: { a: { kind: 'mony' } } } } }).valid).toBe(false);
    expect(validator.validate({ states: 'maybe later' }).valid).toBe(false);
    expect(validator.validate({ states: 'Not shown: later' }).valid).toBe(true);
    expect(validator.validate({ states: 'NOT SHOWN' }).valid).toBe(true);
  });

  it('has one key per point, the same keys as the model', () => {
    type DocumentPoints = Exclude<keyof DocumentInput, '$schema' | 'title' | 'notes'>;
    type ModelPoints = Exclude<keyof Model, 'title' | 'notes'>;
    expectTypeOf<DocumentPoints>().toEqualTypeOf<PointKey>();
    expectTypeOf<ModelPoints>().toEqualTypeOf<PointKey>();
    const properties = Object.keys(committed.properties);
    expect(properties).toEqual([
      '$schema',
      'title',
      'product',
      'screens',
      'entities',
      'states',
      'validation',
      'roles',
      'calls',
      'errors',
      'constants',
      'notes',
    ]);
  });
});
