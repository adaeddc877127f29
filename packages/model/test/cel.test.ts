import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CEL_TIMESTAMP,
  celTypeOf,
  checkExpression,
  evaluateExpression,
  expressionEnvironment,
} from '../src/cel';
import type { Entity, Field, Model } from '../src/model';

function modelWith(
  entities: Entity[],
  constants?: Array<{ name: string; value: number | string | boolean }>,
) {
  const model: Model = {
    product: { shown: false },
    screens: { shown: false },
    entities: { shown: true, items: entities },
    states: { shown: false },
    validation: { shown: false },
    roles: { shown: false },
    calls: { shown: false },
    errors: { shown: false },
    constants: constants ? { shown: true, items: constants } : { shown: false },
  };
  return model;
}

const orderFields: Field[] = [
  { name: 'number', kind: 'text' },
  { name: 'total', kind: 'money', currency: 'EUR' },
  { name: 'quantity', kind: 'integer' },
  { name: 'express', kind: 'boolean' },
  { name: 'placedAt', kind: 'datetime' },
  { name: 'deliveryDate', kind: 'date' },
  { name: 'status', kind: 'enum', values: [{ value: 'draft' }, { value: 'paid' }] },
  { name: 'customer', kind: 'reference', entity: 'Customer' },
  { name: 'lines', kind: 'list', of: { kind: 'object', entity: 'Line' } },
  { name: 'tags', kind: 'list', of: { kind: 'text' } },
  { name: 'address', kind: 'object', entity: 'Address' },
  { name: 'invoice', kind: 'file' },
];

const shop = modelWith(
  [
    { name: 'Order', key: 'number', fields: orderFields },
    {
      name: 'Line',
      embedded: true,
      fields: [
        { name: 'quantity', kind: 'integer' },
        { name: 'price', kind: 'money' },
      ],
    },
    {
      name: 'Address',
      embedded: true,
      fields: [
        { name: 'street', kind: 'text' },
        { name: 'postcode', kind: 'text' },
      ],
    },
    { name: 'Customer', key: 'id', fields: [{ name: 'id', kind: 'text' }] },
  ],
  [
    { name: 'MAX_ORDER_TOTAL', value: 10000 },
    { name: 'VAT_RATE', value: 0.21 },
    { name: 'SUPPORT_EMAIL', value: 'help@example.com' },
    { name: 'EXPRESS_ENABLED', value: true },
  ],
);

describe('celTypeOf', () => {
  it('maps every scalar kind', () => {
    expect(celTypeOf({ kind: 'text' }, shop)).toBe('string');
    expect(celTypeOf({ kind: 'markdown' }, shop)).toBe('string');
    expect(celTypeOf({ kind: 'enum', values: [{ value: 'a' }] }, shop)).toBe('string');
    expect(celTypeOf({ kind: 'number' }, shop)).toBe('double');
    expect(celTypeOf({ kind: 'money', currency: 'EUR' }, shop)).toBe('double');
    expect(celTypeOf({ kind: 'integer' }, shop)).toBe('int');
    expect(celTypeOf({ kind: 'boolean' }, shop)).toBe('bool');
    expect(celTypeOf({ kind: 'date' }, shop)).toBe(CEL_TIMESTAMP);
    expect(celTypeOf({ kind: 'datetime' }, shop)).toBe('google.protobuf.Timestamp');
    expect(celTypeOf({ kind: 'reference', entity: 'Customer' }, shop)).toBe('dyn');
    expect(celTypeOf({ kind: 'file' }, shop)).toBe('map');
  });

  it('gives an object the fields of its embedded entity, and lists their element type', () => {
    expect(celTypeOf({ kind: 'object', entity: 'Address' }, shop)).toEqual({
      street: 'string',
      postcode: 'string',
    });
    expect(celTypeOf({ kind: 'list', of: { kind: 'text' } }, shop)).toBe('list<string>');
    expect(celTypeOf({ kind: 'list', of: { kind: 'list', of: { kind: 'integer' } } }, shop)).toBe(
      'list<list<int>>',
    );
    expect(celTypeOf({ kind: 'list', of: { kind: 'object', entity: 'Line' } }, shop)).toBe('list<map>');
  });

  it('falls back to map for an unknown entity, a cycle, or nesting deeper than five', () => {
    expect(celTypeOf({ kind: 'object', entity: 'Nope' }, shop)).toBe('map');
    const cyclic = modelWith([
      { name: 'Node', embedded: true, fields: [{ name: 'next', kind: 'object', entity: 'Node' }] },
    ]);
    expect(celTypeOf({ kind: 'object', entity: 'Node' }, cyclic)).toEqual({ next: 'map' });

    const chain: Entity[] = Array.from({ length: 8 }, (_, index) => ({
      name: `E${index}`,
      embedded: true,
      fields: [{ name: 'child', kind: 'object', entity: `E${index + 1}` }],
    }));
    const deep = celTypeOf({ kind: 'object', entity: 'E0' }, modelWith(chain));
    let level: unknown = deep;
    let depth = 0;
    while (typeof level === 'object' && level !== null) {
      level = (level as { child: unknown }).child;
      depth++;
    }
    expect(depth).toBe(5);
    expect(level).toBe('map');
  });

  it('keeps fields named like Object.prototype members', () => {
    const odd = modelWith([
      {
        name: 'Odd',
        embedded: true,
        fields: [
          { name: '__proto__', kind: 'text' },
          { name: 'constructor', kind: 'integer' },
        ],
      },
    ]);
    const type = celTypeOf({ kind: 'object', entity: 'Odd' }, odd);
    expect(Object.keys(type)).toEqual(['__proto__', 'constructor']);
    const env = expressionEnvironment(odd, { entity: 'Odd', variables: ['record'] });
    expect(checkExpression('record.constructor + 1', env)).toEqual({ ok: true, type: 'int' });
  });

  it('does not throw on a broken type or model', () => {
    const broken = { kind: 'object', entity: 42 } as unknown as Field;
    expect(celTypeOf(broken, shop)).toBe('map');
    expect(celTypeOf({ kind: 'nope' } as unknown as Field, shop)).toBe('dyn');
    expect(celTypeOf({ kind: 'object', entity: 'A' }, {} as Model)).toBe('map');
    expect(celTypeOf({ kind: 'list' } as unknown as Field, shop)).toBe('list<dyn>');
  });
});

describe('expressionEnvironment and checkExpression', () => {
  const orderEnv = expressionEnvironment(shop, { entity: 'Order', variables: ['record', 'user', 'now'] });

  it('types record by the entity, with constants, user and now', () => {
    expect(checkExpression('record.total <= MAX_ORDER_TOTAL', orderEnv)).toEqual({ ok: true, type: 'bool' });
    expect(checkExpression('record.lines.size() > 0', orderEnv)).toEqual({ ok: true, type: 'bool' });
    expect(checkExpression('record.address.postcode', orderEnv)).toEqual({ ok: true, type: 'string' });
    expect(checkExpression('record.placedAt < now', orderEnv)).toEqual({ ok: true, type: 'bool' });
    expect(checkExpression('record.quantity + 1', orderEnv)).toEqual({ ok: true, type: 'int' });
    expect(checkExpression('record.total * VAT_RATE', orderEnv)).toEqual({ ok: true, type: 'double' });
    expect(checkExpression('SUPPORT_EMAIL', orderEnv)).toEqual({ ok: true, type: 'string' });
    expect(checkExpression('EXPRESS_ENABLED && record.express', orderEnv)).toEqual({
      ok: true,
      type: 'bool',
    });
    expect(checkExpression('record.customer == user.id', orderEnv)).toEqual({ ok: true, type: 'bool' });
  });

  it('sums lists, as the list library of Kubernetes CEL does', () => {
    const total = 'record.lines.map(l, double(l.quantity) * l.price).sum()';
    expect(checkExpression(total, orderEnv)).toEqual({ ok: true, type: 'dyn' });
    expect(checkExpression(`${total} <= MAX_ORDER_TOTAL`, orderEnv)).toEqual({ ok: true, type: 'bool' });
    expect(checkExpression('record.lines.map(l, l.quantity).sum()', orderEnv)).toEqual({
      ok: true,
      type: 'dyn',
    });
    expect(checkExpression('record.tags.sum()', orderEnv)).toEqual({ ok: true, type: 'dyn' });
    expect(checkExpression('record.total.sum()', orderEnv)).toMatchObject({ ok: false });
    const record = {
      lines: [
        { quantity: 2, price: 1.5 },
        { quantity: 1, price: 10 },
      ],
    };
    expect(evaluateExpression(total, orderEnv, { record })).toEqual({ ok: true, value: 13 });
    expect(evaluateExpression('record.lines.map(l, l.quantity).sum()', orderEnv, { record })).toEqual({
      ok: true,
      value: 3,
    });
    expect(evaluateExpression('[1, 2, 3].sum()', orderEnv, {})).toEqual({ ok: true, value: 6 });
    expect(evaluateExpression('[1, 2, 3].sum() == 6', orderEnv, {})).toEqual({ ok: true, value: true });
    expect(evaluateExpression('[0.5, 0.25].sum()', orderEnv, {})).toEqual({ ok: true, value: 0.75 });
    expect(evaluateExpression('[].sum()', orderEnv, {})).toEqual({ ok: true, value: 0 });
    expect(evaluateExpression('[9223372036854775807, 1].sum()', orderEnv, {})).toMatchObject({ ok: false });
    expect(evaluateExpression('record.tags.sum()', orderEnv, { record: { tags: ['a'] } })).toEqual({
      ok: false,
      message: 'Only numbers can be summed, but the list holds a string',
    });
  });

  it('reports an unknown field with its offset', () => {
    expect(checkExpression('record.totl > 0', orderEnv)).toEqual({
      ok: false,
      message: 'No such key: totl',
      offset: 7,
      code: 'no_such_key',
    });
    const nested = checkExpression('record.address.zip == "1"', orderEnv);
    expect(nested).toMatchObject({ ok: false, message: 'No such key: zip', offset: 15 });
  });

  it('reports variables that are not in scope', () => {
    const derived = expressionEnvironment(shop, { entity: 'Order', variables: ['record'] });
    expect(checkExpression('user.id == "x"', derived)).toMatchObject({
      ok: false,
      message: 'Unknown variable: user',
      offset: 0,
      code: 'unknown_variable',
    });
    expect(checkExpression('old.total', derived)).toMatchObject({
      ok: false,
      message: 'Unknown variable: old',
    });
    const rule = expressionEnvironment(shop, { entity: 'Order', variables: ['record', 'old', 'now'] });
    expect(checkExpression('record.total >= old.total', rule)).toEqual({ ok: true, type: 'bool' });
  });

  it('reports syntax and type errors with a clean first line', () => {
    const syntax = checkExpression('record.total > 0 &&', orderEnv);
    expect(syntax).toEqual({
      ok: false,
      message: 'Unexpected token: end of expression',
      offset: 19,
      code: 'unexpected_token',
    });
    const typeError = checkExpression('record.total + "x"', orderEnv);
    expect(typeError.ok).toBe(false);
    if (!typeError.ok) {
      expect(typeError.message).toBe('No such overload: double + string');
      expect(typeError.message).not.toContain('\n');
    }
    expect(checkExpression('   ', orderEnv)).toEqual({
      ok: false,
      message: 'The expression is empty',
      offset: 0,
    });
    expect(checkExpression(42 as unknown as string, orderEnv)).toEqual({
      ok: false,
      message: 'An expression must be text',
    });
  });

  it('treats record as a map when the entity is unknown or point 3 is not shown', () => {
    const unknown = expressionEnvironment(shop, { entity: 'Nope', variables: ['record'] });
    expect(checkExpression('record.anything > 1', unknown).ok).toBe(true);
    const noEntity = expressionEnvironment(shop, { variables: ['record'] });
    expect(checkExpression('record.anything', noEntity)).toEqual({ ok: true, type: 'dyn' });
  });

  it('registers no constants when point 9 is not shown, and skips names CEL cannot take', () => {
    const bare = modelWith(shop.entities.shown ? shop.entities.items : []);
    const env = expressionEnvironment(bare, { entity: 'Order', variables: ['record'] });
    expect(env.constants).toEqual([]);
    expect(checkExpression('record.total <= MAX_ORDER_TOTAL', env)).toMatchObject({
      ok: false,
      message: 'Unknown variable: MAX_ORDER_TOTAL',
    });
    const odd = modelWith(
      [],
      [
        { name: 'record', value: 1 },
        { name: 'LIMIT', value: 5 },
      ],
    );
    const oddEnv = expressionEnvironment(odd, { variables: ['record'] });
    expect(oddEnv.constants).toEqual(['LIMIT']);
    expect(checkExpression('record.x', oddEnv).ok).toBe(true);
  });

  it('caches one environment per model and scope', () => {
    const again = expressionEnvironment(shop, { entity: 'Order', variables: ['now', 'user', 'record'] });
    expect(again).toBe(orderEnv);
    expect(expressionEnvironment(shop, { entity: 'Order', variables: ['record'] })).not.toBe(orderEnv);
    const copy = structuredClone(shop);
    expect(expressionEnvironment(copy, { entity: 'Order', variables: ['record', 'user', 'now'] })).not.toBe(
      orderEnv,
    );
  });

  it('never throws, even for a hostile expression or a broken model', () => {
    const deep = `${'('.repeat(5000)}1${')'.repeat(5000)}`;
    expect(checkExpression(deep, orderEnv).ok).toBe(false);
    expect(checkExpression('"\\u{zz}"', orderEnv).ok).toBe(false);
    const broken = {
      entities: { shown: true, items: [{ name: 'X', fields: [{ name: 'a b', kind: 'text' }, null] }] },
      constants: { shown: true, items: [null, { name: 1 }, { name: 'Z', value: {} }] },
    } as unknown as Model;
    const env = expressionEnvironment(broken, { entity: 'X', variables: ['record'] });
    expect(checkExpression('record', env).ok).toBe(true);
  });
});

describe('evaluateExpression', () => {
  const env = expressionEnvironment(shop, { entity: 'Order', variables: ['record', 'user', 'now'] });
  const order = {
    number: 'ORD-1',
    total: 120.5,
    quantity: 3,
    placedAt: '2025-01-10T09:00:00Z',
    lines: [{ quantity: 2, price: 60.25 }],
    address: { street: 'Main 1', postcode: '1234' },
    notAField: 'ignored',
  };

  it('evaluates a guard against plain JSON records', () => {
    expect(
      evaluateExpression('record.total <= MAX_ORDER_TOTAL && record.lines.size() > 0', env, {
        record: order,
      }),
    ).toEqual({ ok: true, value: true });
    expect(
      evaluateExpression('record.total <= MAX_ORDER_TOTAL', env, { record: { ...order, total: 20000 } }),
    ).toEqual({ ok: true, value: false });
    expect(evaluateExpression('record.lines.size() > 0', env, { record: { ...order, lines: [] } })).toEqual({
      ok: true,
      value: false,
    });
  });

  it('turns whole numbers into ints for integer fields and ISO strings into timestamps', () => {
    expect(evaluateExpression('record.quantity > 2', env, { record: order })).toEqual({
      ok: true,
      value: true,
    });
    expect(evaluateExpression('record.placedAt < now', env, { record: order, now: new Date() })).toEqual({
      ok: true,
      value: true,
    });
    expect(
      evaluateExpression('record.placedAt < now', env, { record: order, now: '2024-01-01T00:00:00Z' }),
    ).toEqual({ ok: true, value: false });
  });

  it('leaves out null fields, so has() is false and reading them fails cleanly', () => {
    const record = { ...order, total: null };
    expect(evaluateExpression('has(record.total)', env, { record })).toEqual({ ok: true, value: false });
    expect(evaluateExpression('record.total > 0', env, { record })).toEqual({
      ok: false,
      message: 'No such key: total',
      missing: true,
    });
  });

  it('gives plain values back: numbers for ints, ISO strings for timestamps, objects for maps', () => {
    expect(evaluateExpression('record.quantity * 2', env, { record: order })).toEqual({ ok: true, value: 6 });
    expect(evaluateExpression('now', env, { now: new Date('2025-02-03T04:05:06Z') })).toEqual({
      ok: true,
      value: '2025-02-03T04:05:06.000Z',
    });
    expect(evaluateExpression('record.address', env, { record: order })).toEqual({
      ok: true,
      value: { street: 'Main 1', postcode: '1234' },
    });
    expect(evaluateExpression('[1, 2].map(x, x * 2)', env, {})).toEqual({ ok: true, value: [2, 4] });
    expect(evaluateExpression('user.id == "u1"', env, { user: { id: 'u1' } })).toEqual({
      ok: true,
      value: true,
    });
  });

  it('answers errors instead of throwing', () => {
    expect(evaluateExpression('record.total >', env, { record: order })).toMatchObject({ ok: false });
    expect(evaluateExpression('record.total > 0', env, {})).toEqual({
      ok: false,
      message: 'Unknown variable: record',
    });
    expect(evaluateExpression('1 / 0', env, {})).toMatchObject({ ok: false });
    expect(evaluateExpression('record.total > 0', env, { record: 'not a record' })).toMatchObject({
      ok: false,
    });
  });
});

describe('cel-js under a strict Content-Security-Policy', () => {
  // The built client forbids `unsafe-eval`; a CEL library that compiled expressions to functions would
  // fail there at run time, not in tests, so guard against it at the source.
  it('compiles no code from strings', () => {
    const entry = createRequire(import.meta.url).resolve('@marcbachmann/cel-js');
    const libDirectory = dirname(entry);
    const files = readdirSync(libDirectory).filter((file) => file.endsWith('.js'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const code = stripComments(readFileSync(join(libDirectory, file), 'utf8'));
      expect(code, file).not.toMatch(/\bnew\s+Function\s*\(/);
      expect(code, file).not.toMatch(/(?<![\w$.])Function\s*\(/);
      expect(code, file).not.toMatch(/(?<![\w$.])eval\s*\(/);
    }
  });
});

function stripComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}
