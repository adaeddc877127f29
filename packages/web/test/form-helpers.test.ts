import { type Entity, findEntity } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { derivedInputs } from '../src/form/derived-inputs';
import { firstPage } from '../src/form/first-page';
import { detailFields, formLayout } from '../src/form/form-fields';
import { recordIdFrom, recordPath } from '../src/form/record-path';
import { loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const order = findEntity(model, 'Order') as Entity;
const customer = findEntity(model, 'Customer') as Entity;
const names = (fields: { name: string }[]) => fields.map((field) => field.name);

describe('form layout', () => {
  it('takes the screen fields in order, and always shows derived fields without an input', () => {
    const layout = formLayout(order, {
      kind: 'create',
      fields: ['customer', 'shippingAddress', 'lines', 'notes', 'attachment'],
    });
    expect(layout.entries.map(({ field, editable }) => [field.name, editable])).toEqual([
      ['customer', true],
      ['shippingAddress', true],
      ['lines', true],
      ['notes', true],
      ['attachment', true],
      ['total', false],
    ]);
    expect(names(layout.inputs)).toEqual(['customer', 'shippingAddress', 'lines', 'notes', 'attachment']);
  });

  it('without screen fields, offers every writable field', () => {
    expect(names(formLayout(customer, { kind: 'create' }).inputs)).toEqual([
      'name',
      'email',
      'phone',
      'country',
      'creditLimit',
      'active',
      'tags',
    ]);
  });

  it('shows listed read-only fields on edit only, and write-only fields only as inputs', () => {
    const account: Entity = {
      name: 'Account',
      key: 'id',
      fields: [
        { name: 'id', kind: 'integer', readOnly: true },
        { name: 'login', kind: 'text' },
        { name: 'password', kind: 'text', writeOnly: true },
      ],
    };
    const fields = ['id', 'login', 'password'];
    expect(formLayout(account, { kind: 'create', fields }).entries.map((entry) => entry.field.name)).toEqual([
      'login',
      'password',
    ]);
    expect(
      formLayout(account, { kind: 'edit', fields }).entries.map(({ field, editable }) => [
        field.name,
        editable,
      ]),
    ).toEqual([
      ['id', false],
      ['login', true],
      ['password', true],
    ]);
    // Unlisted, the key the API makes is left out: it is in the address already.
    expect(names(detailFields(account, undefined))).toEqual(['login']);
    expect(names(detailFields(account, ['id', 'login']))).toEqual(['id', 'login']);
  });

  it('leaves out the fields point 3 marks internal unless a screen lists them', () => {
    const rider: Entity = {
      name: 'Rider',
      key: 'id',
      fields: [
        { name: 'id', kind: 'integer', readOnly: true },
        { name: 'name', kind: 'text' },
        { name: 'stravaId', kind: 'text', internal: true },
        { name: 'syncedAt', kind: 'datetime', readOnly: true, internal: true },
      ],
    };
    expect(names(detailFields(rider, undefined))).toEqual(['name']);
    expect(names(detailFields(rider, ['name', 'syncedAt']))).toEqual(['name', 'syncedAt']);
    const entries = (fields?: string[]) =>
      formLayout(rider, { kind: 'create', ...(fields ? { fields } : {}) }).entries.map(
        (entry) => entry.field.name,
      );
    expect(entries()).toEqual(['name']);
    expect(entries(['name', 'stravaId'])).toEqual(['name', 'stravaId']);
  });
});

describe('derived inputs', () => {
  it('finds the fields an expression reads', () => {
    expect(
      derivedInputs('record.lines.map(l, double(l.quantity) * l.unitPrice).sum()', ['customer', 'lines']),
    ).toEqual(['lines']);
    expect(derivedInputs('has(record.a) ? record.b : 0', ['a', 'b', 'c'])).toEqual(['a', 'b']);
  });

  it('watches everything when it cannot tell', () => {
    expect(derivedInputs('size(record)', ['a'])).toBeUndefined();
    expect(derivedInputs("record['a']", ['a'])).toBeUndefined();
    expect(derivedInputs('1 + 2', ['a'])).toBeUndefined();
  });
});

describe('first page', () => {
  it('asks for the first page in each pagination style', () => {
    expect(firstPage({ style: 'page', pageParam: 'p', sizeParam: 's' }, 25)).toEqual({
      style: 'page',
      page: 1,
      size: 25,
    });
    expect(firstPage({ style: 'offset', offsetParam: 'o', limitParam: 'l' }, 10)).toEqual({
      style: 'offset',
      offset: 0,
      limit: 10,
    });
    expect(firstPage({ style: 'cursor', cursorParam: 'c', sizeParam: 's', nextField: 'n' }, 5)).toEqual({
      style: 'cursor',
      size: 5,
    });
    expect(firstPage({ style: 'link-header' }, 5)).toEqual({ style: 'link-header', page: 1, size: 5 });
    expect(firstPage({ style: 'none' }, 5)).toEqual({ style: 'none' });
    expect(firstPage(undefined, 5)).toEqual({ style: 'none' });
  });
});

describe('record paths', () => {
  it('fills a route with one parameter, and gives no link for a nested one', () => {
    expect(recordPath('/orders/:id/edit', 7)).toBe('/orders/7/edit');
    expect(recordPath('/tags/:code', 'a b')).toBe('/tags/a%20b');
    expect(recordPath('/stores/:storeId/employees/:id', 3)).toBeUndefined();
  });

  it('reads the record id from the route last parameter', () => {
    expect(recordIdFrom('/orders/:id/edit', { id: '7' })).toBe('7');
    expect(recordIdFrom('/stores/:storeId/employees/:employee', { storeId: '1', employee: '9' })).toBe('9');
    expect(recordIdFrom('/orders', {})).toBeUndefined();
  });
});
