import { type Field, findEntity } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { changedFields } from '../src/form/changed-fields';
import { loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const order = findEntity(model, 'Order');
const customer = findEntity(model, 'Customer');
const writable = (fields: Field[] | undefined) =>
  (fields ?? []).filter((field) => !field.readOnly && !field.derived);

describe('changed fields', () => {
  const stored = {
    id: 1,
    name: 'Anna',
    email: 'anna@example.com',
    creditLimit: 100,
    active: true,
    tags: ['a', 'b'],
  };

  it('keeps only what differs, with null for what was emptied', () => {
    expect(
      changedFields(model, writable(customer?.fields), stored, {
        name: 'Anna',
        email: 'new@example.com',
        active: true,
        tags: ['a', 'b'],
      }),
    ).toEqual({ email: 'new@example.com', creditLimit: null });
  });

  it('sees a reordered list as a change, and an equal one as none', () => {
    expect(changedFields(model, writable(customer?.fields), stored, { ...stored, tags: ['b', 'a'] })).toEqual(
      {
        tags: ['b', 'a'],
      },
    );
    expect(changedFields(model, writable(customer?.fields), stored, { ...stored })).toEqual({});
  });

  it('compares embedded objects and lines field by field', () => {
    const old = {
      shippingAddress: { street: 'Quay', postcode: 'AB1' },
      lines: [{ product: 1, quantity: 2, unitPrice: 3 }],
      paidAt: '2026-05-02T10:30:00Z',
    };
    const fields = writable(order?.fields);
    expect(
      changedFields(model, fields, old, {
        shippingAddress: { street: 'Quay', postcode: 'AB1' },
        lines: [{ product: 1, quantity: 2, unitPrice: 3 }],
      }),
    ).toEqual({});
    expect(
      changedFields(model, fields, old, {
        shippingAddress: { street: 'Quay', postcode: 'AB2' },
        lines: [{ product: 1, quantity: 2, unitPrice: 3 }],
      }),
    ).toEqual({ shippingAddress: { street: 'Quay', postcode: 'AB2' } });
  });

  it('reads a date and time written differently as the same instant', () => {
    const at = { name: 'at', kind: 'datetime' } as Field;
    expect(
      changedFields(model, [at], { at: '2026-05-02T10:30:00Z' }, { at: '2026-05-02T10:30:00.000Z' }),
    ).toEqual({});
    expect(
      changedFields(model, [at], { at: '2026-05-02T10:30:00Z' }, { at: '2026-05-02T10:31:00.000Z' }),
    ).toEqual({
      at: '2026-05-02T10:31:00.000Z',
    });
  });

  it('always sends a newly chosen file, and never an untouched stored one', () => {
    const file = new File(['x'], 'po.pdf', { type: 'application/pdf' });
    const storedFile = { name: 'old.pdf', type: 'application/pdf', size: 3, url: '/files/1' };
    const fields = writable(order?.fields);
    expect(changedFields(model, fields, { attachment: storedFile }, { attachment: file })).toEqual({
      attachment: file,
    });
    expect(
      changedFields(model, fields, { attachment: storedFile }, { attachment: { ...storedFile } }),
    ).toEqual({});
  });

  it('keeps a write-only value when its input is left empty, and sends a new one', () => {
    const password = { name: 'password', kind: 'text', writeOnly: true } as Field;
    expect(changedFields(model, [password], { password: 'hash' }, {})).toEqual({});
    expect(changedFields(model, [password], {}, { password: 's3cret' })).toEqual({ password: 's3cret' });
  });
});
