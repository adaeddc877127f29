import { describe, expect, it } from 'vitest';
import { entityFileName } from '../src';

// The name the API's CSV export gives its file and the client saves it under: one function for both.
describe('entityFileName', () => {
  it.each([
    [{ name: 'Order' }, 'order'],
    [{ name: 'SalesOrder', plural: 'Sales orders' }, 'sales-orders'],
    [{ name: 'Part', label: 'Pièce détachée', plural: 'Pièces / détachées!' }, 'pieces-detachees'],
    [{ name: 'Thing', plural: '—' }, 'records'],
  ])('%j -> %s', (entity, expected) => {
    expect(entityFileName(entity)).toBe(expected);
  });
});
