import { type Field, findEntity, type Model } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import {
  forValidation,
  fromFormValues,
  newListItem,
  toFormValues,
  toLocalDateTime,
} from '../src/form/form-values';
import { loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const entity = (name: string) => {
  const found = findEntity(model, name);
  if (!found) throw new Error(name);
  return found;
};
const fields = (name: string, names: string[]): Field[] =>
  names.map((field) => {
    const found = entity(name).fields.find((candidate) => candidate.name === field);
    if (!found) throw new Error(field);
    return found;
  });

const customerFields = fields('Customer', ['name', 'email', 'creditLimit', 'active', 'tags']);
const orderFields = fields('Order', ['customer', 'shippingAddress', 'lines', 'notes', 'attachment']);

describe('form values', () => {
  it('start from defaults on create and from the record on edit', () => {
    expect(toFormValues(model, customerFields, undefined, { defaults: true })).toEqual({
      name: '',
      email: '',
      creditLimit: '',
      active: true,
      tags: [],
    });
    expect(
      toFormValues(
        model,
        customerFields,
        { name: 'Anna', creditLimit: 10.5, active: false, tags: ['a'] },
        {
          defaults: false,
        },
      ),
    ).toEqual({ name: 'Anna', email: '', creditLimit: '10.5', active: false, tags: [{ value: 'a' }] });
  });

  it('hold embedded objects and lists of objects as nested values', () => {
    const values = toFormValues(
      model,
      orderFields,
      {
        customer: 3,
        shippingAddress: { street: 'Quay' },
        lines: [{ product: 1, quantity: 2, unitPrice: 3 }],
      },
      { defaults: false },
    );
    expect(values).toEqual({
      customer: '3',
      shippingAddress: { street: 'Quay', city: '', postcode: '', country: '' },
      lines: [{ product: '1', quantity: '2', unitPrice: '3' }],
      notes: '',
      attachment: null,
    });
  });

  it('start a new list item from the item entity defaults', () => {
    const lines = entity('Order').fields.find((field) => field.name === 'lines');
    if (lines?.kind !== 'list') throw new Error('lines');
    expect(newListItem(model, lines.of)).toEqual({ product: '', quantity: '1', unitPrice: '' });
    expect(newListItem(model, { kind: 'text' })).toEqual({ value: '' });
  });

  it('turn back into a record: empty left out, numbers and ids as numbers, invalid text kept', () => {
    expect(
      fromFormValues(model, customerFields, {
        name: 'Anna',
        email: '',
        creditLimit: '12.5',
        active: false,
        tags: [{ value: 'x' }, { value: '' }],
      }),
    ).toEqual({ name: 'Anna', creditLimit: 12.5, active: false, tags: ['x'] });
    expect(fromFormValues(model, fields('Customer', ['creditLimit']), { creditLimit: '12,5' })).toEqual({
      creditLimit: '12,5',
    });
  });

  it('leave out an embedded object nobody filled in, but keep an empty line the person added', () => {
    expect(
      fromFormValues(model, orderFields, {
        customer: '2',
        shippingAddress: { street: '', city: '', postcode: '', country: '' },
        lines: [{ product: '', quantity: '', unitPrice: '' }],
        notes: '',
        attachment: null,
      }),
    ).toEqual({ customer: 2, lines: [{}] });
  });

  it('turn local date and time into ISO 8601 and back without changing the instant', () => {
    const iso = '2026-05-02T10:30:00.000Z';
    const local = toLocalDateTime(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const datetime = { name: 'at', kind: 'datetime' } as Field;
    expect(fromFormValues(model, [datetime], { at: local })).toEqual({ at: iso });
    expect(toLocalDateTime('2026-05-02T10:30:15Z')).toMatch(/:15$/);
  });

  it('describe a chosen file for validation by its name, type and size', () => {
    const file = new File(['hello'], 'po.pdf', { type: 'application/pdf' });
    const record = fromFormValues(model, orderFields, { attachment: file, lines: [] });
    expect(record.attachment).toBe(file);
    expect(forValidation(record)).toEqual({
      attachment: { name: 'po.pdf', type: 'application/pdf', size: 5 },
    });
  });

  it('keep text references as text when the target has text keys', () => {
    const textKeyed: Model = {
      ...model,
      entities: {
        shown: true,
        items: [
          { name: 'Tag', key: 'code', fields: [{ name: 'code', kind: 'text' }] },
          { name: 'Post', key: 'id', fields: [{ name: 'tag', kind: 'reference', entity: 'Tag' }] },
        ],
      },
    };
    const tag = { name: 'tag', kind: 'reference', entity: 'Tag' } as Field;
    expect(fromFormValues(textKeyed, [tag], { tag: '42' })).toEqual({ tag: '42' });
  });
});
