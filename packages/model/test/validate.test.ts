import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load';
import type { Model } from '../src/model';
import { validateRecord } from '../src/rules/validate';

const shop = (): Model => {
  const result = loadSpec(readFileSync(new URL('../../../examples/shop.yaml', import.meta.url), 'utf8'), {
    file: 'shop.yaml',
  });
  if (!result.model) throw new Error('the example must load');
  return result.model;
};
const model = shop();
const now = new Date('2026-06-01T12:00:00Z');
const create = (entity: string, input: unknown) =>
  validateRecord(model, entity, input, { mode: 'create', now });

const product = { sku: 'RG-1001', name: 'Mooring line', category: 'rigging', price: 24.5, stock: 10 };
const order = {
  customer: 1,
  lines: [{ product: 1, quantity: 2, unitPrice: 24.5 }],
  shippingAddress: { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' },
};

describe('validateRecord', () => {
  it('accepts valid records', () => {
    expect(create('Product', product)).toEqual({ ok: true, record: product });
    expect(create('Order', order).ok).toBe(true);
  });

  it('names each missing required field, counting empty text as missing', () => {
    const result = create('Product', { name: '  ', price: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.pointer, e.code])).toEqual([
      ['/sku', 'required'],
      ['/name', 'required'],
      ['/stock', 'required'],
    ]);
    expect(result.errors[0]?.message).toBe('SKU is required.');
  });

  it('refuses unknown and read-only fields instead of ignoring them', () => {
    const result = create('Product', { ...product, id: 7, colour: 'red' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { pointer: '/id', code: 'read-only', message: 'Id is set by the system and cannot be written.' },
      { pointer: '/colour', code: 'unknown-field', message: '"colour" is not a field of Product.' },
    ]);
  });

  it('checks types, enum values, patterns and bounds with messages in the record’s terms', () => {
    const result = create('Product', { ...product, sku: 'bad', category: 'sails', price: -1, stock: 1.5 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { pointer: '/sku', code: 'pattern', message: 'SKU is not in the expected form.' },
      {
        pointer: '/category',
        code: 'enum',
        message: 'Category must be one of: rigging, engine, electrics, safety, paint.',
      },
      { pointer: '/price', code: 'min', message: 'Price must be at least 0.' },
      { pointer: '/stock', code: 'type', message: 'Stock must be a whole number.' },
    ]);
  });

  it('resolves constants by name and says the bound with its unit', () => {
    const notes = 'x'.repeat(2001);
    const result = create('Order', { ...order, notes });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { pointer: '/notes', code: 'max', message: 'Notes may have at most 2,000 characters.' },
    ]);
  });

  it('checks embedded objects and each item of a list of objects, with pointers into them', () => {
    const result = create('Order', {
      ...order,
      shippingAddress: { city: 'Portsmouth', postcode: 'po1!' },
      lines: [
        { product: 1, quantity: 0, unitPrice: 2 },
        { quantity: 1, unitPrice: 2 },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.pointer, e.code, e.message])).toEqual([
      ['/shippingAddress/street', 'required', 'Street is required.'],
      ['/lines/1/product', 'required', 'Product is required.'],
      ['/shippingAddress/postcode', 'pattern', 'Use letters, digits, spaces or dashes.'],
      ['/lines/0/quantity', 'min', 'Quantity must be at least 1.'],
    ]);
  });

  it('counts list items against the list bounds', () => {
    const lines = Array.from({ length: 51 }, () => ({ product: 1, quantity: 1, unitPrice: 1 }));
    const result = create('Order', { ...order, lines });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { pointer: '/lines', code: 'max', message: 'An order has 1 to 50 lines.' },
    ]);
  });

  it('checks file size against a constant in MB, and the accepted types', () => {
    const big = { name: 'po.pdf', type: 'application/pdf', size: 6 * 1024 * 1024 };
    const tooBig = create('Order', { ...order, attachment: big });
    expect(!tooBig.ok && tooBig.errors).toEqual([
      { pointer: '/attachment', code: 'max', message: 'Purchase order must be at most 5 MB in size.' },
    ]);
    const wrongType = create('Order', {
      ...order,
      attachment: { name: 'a.exe', type: 'application/x-msdownload', size: 10 },
    });
    expect(!wrongType.ok && wrongType.errors[0]?.code).toBe('accept');
  });

  it('runs the cross-field CEL rules once the fields are valid, with the rule’s message on its field', () => {
    const lines = [{ product: 1, quantity: 999, unitPrice: 100 }];
    const result = create('Order', { ...order, lines });
    expect(!result.ok && result.errors).toEqual([
      {
        pointer: '/lines',
        code: 'rule',
        message: 'An order may total at most 50,000 EUR; split it into two orders.',
        ruleCode: 'ORDER_TOTAL_LIMIT',
      },
    ]);
    const future = create('Order', { ...order, placedOn: '2027-01-01' });
    expect(!future.ok && future.errors).toEqual([
      { pointer: '/placedOn', code: 'rule', message: 'The order date cannot be in the future.' },
    ]);
  });

  it('validates an update merged over the stored record; null clears a field', () => {
    const old = { id: 1, ...product };
    expect(validateRecord(model, 'Product', { price: 30 }, { mode: 'update', old, now }).ok).toBe(true);
    const cleared = validateRecord(model, 'Product', { name: null }, { mode: 'update', old, now });
    expect(!cleared.ok && cleared.errors).toEqual([
      { pointer: '/name', code: 'required', message: 'Name is required.' },
    ]);
  });

  it('refuses input that is not an object of field values', () => {
    for (const input of [null, 3, 'x', [1]]) {
      const result = create('Product', input);
      expect(!result.ok && result.errors[0]).toMatchObject({ pointer: '', code: 'type' });
    }
  });
});

// `Format: email` on a list of text was ignored in silence: the API stored ["nope"] (issue 42).
describe('a format on a list of text', () => {
  it('holds every item to it, on the list field', () => {
    const loaded = loadSpec(
      [
        'title: Contacts',
        'product: not shown',
        'screens: not shown',
        'entities:',
        '  Contact:',
        '    key: id',
        '    fields:',
        '      id: { kind: integer, readOnly: true }',
        '      emails: { kind: list, of: { kind: text }, format: email }',
        ...['states', 'validation', 'roles', 'calls', 'errors', 'constants'].map(
          (point) => `${point}: not shown`,
        ),
      ].join('\n'),
      { file: 'contacts.yaml' },
    );
    expect(loaded.issues).toEqual([]);
    const contacts = loaded.model as Model;
    const refused = validateRecord(
      contacts,
      'Contact',
      { emails: ['ada@example.com', 'nope'] },
      { mode: 'create' },
    );
    expect(refused.ok ? [] : refused.errors).toEqual([
      expect.objectContaining({ pointer: '/emails', code: 'format' }),
    ]);
    expect(validateRecord(contacts, 'Contact', { emails: ['ada@example.com'] }, { mode: 'create' }).ok).toBe(
      true,
    );
  });
});
