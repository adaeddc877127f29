import { findEntity } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { pointerToFormPath } from '../src/form/pointer-path';
import { loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const order = findEntity(model, 'Order');
const customer = findEntity(model, 'Customer');
if (!order || !customer) throw new Error('shop.yaml has Order and Customer');

describe('pointer to form path', () => {
  it('maps top-level, nested object and list item pointers onto their inputs', () => {
    expect(pointerToFormPath(model, customer, '/email')).toEqual({ name: 'email', field: 'email' });
    expect(pointerToFormPath(model, order, '/shippingAddress/postcode')).toEqual({
      name: 'shippingAddress.postcode',
      field: 'shippingAddress',
    });
    expect(pointerToFormPath(model, order, '/lines/0/quantity')).toEqual({
      name: 'lines.0.quantity',
      field: 'lines',
    });
  });

  it('puts errors about a group as a whole on the group', () => {
    expect(pointerToFormPath(model, order, '/lines')).toEqual({ name: 'lines.root', field: 'lines' });
    expect(pointerToFormPath(model, order, '/lines/3')).toEqual({ name: 'lines.3.root', field: 'lines' });
    expect(pointerToFormPath(model, order, '/shippingAddress')).toEqual({
      name: 'shippingAddress.root',
      field: 'shippingAddress',
    });
  });

  it('wraps scalar list items and stops at the field below which a pointer goes into a value', () => {
    expect(pointerToFormPath(model, customer, '/tags/1')).toEqual({ name: 'tags.1.value', field: 'tags' });
    expect(pointerToFormPath(model, order, '/attachment/size')).toEqual({
      name: 'attachment',
      field: 'attachment',
    });
  });

  it('answers nothing for the record as a whole or a field the entity does not have', () => {
    expect(pointerToFormPath(model, order, '')).toBeUndefined();
    expect(pointerToFormPath(model, order, '/nope')).toBeUndefined();
    expect(pointerToFormPath(model, order, 'lines')).toBeUndefined();
  });

  it('decodes escaped pointer segments', () => {
    const odd = { name: 'Odd', fields: [{ name: 'a/b', kind: 'text' as const }] };
    expect(pointerToFormPath(model, odd, '/a~1b')).toEqual({ name: 'a/b', field: 'a/b' });
  });
});
