import { boundsOf, type Field, findEntity, findField } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { boundHint } from '../src/fields/bound-hint';
import { createI18n } from '../src/i18n/I18nProvider';
import { loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const english = createI18n('en');
const french = createI18n('fr');

function hint(entity: string, path: string[], owner = entity, i18n = english) {
  const field = findField(findEntity(model, owner), path.at(-1) ?? '') as Field;
  return boundHint(i18n, field, boundsOf(model, entity, path, owner));
}

describe('bound hints', () => {
  it('say the bounds of the demo fields the way a person reads them', () => {
    expect(hint('Order', ['notes'])).toBe('At most 2,000 characters');
    expect(hint('Order', ['lines'])).toBe('1 to 50 lines');
    expect(hint('Order', ['attachment'])).toBe('At most 5 MB');
    expect(hint('Customer', ['name'])).toBe('At most 120 characters');
    expect(hint('Customer', ['creditLimit'])).toBe('0 to 250,000 EUR');
    expect(hint('Product', ['price'])).toBe('At least €0.00');
    expect(hint('OrderLine', ['quantity'])).toBe('1 to 999');
  });

  it('say nothing for fields without bounds', () => {
    expect(hint('Customer', ['email'])).toBeUndefined();
    expect(hint('Order', ['customer'])).toBeUndefined();
  });

  it('count items and characters with the natural noun when a bound has no unit', () => {
    const list = { name: 'tags', kind: 'list', of: { kind: 'text' } } as Field;
    expect(boundHint(english, list, { min: { value: 1 } })).toBe('At least 1 item');
    expect(boundHint(english, list, { max: { value: 3 } })).toBe('At most 3 items');
    const text = { name: 'code', kind: 'text' } as Field;
    expect(boundHint(english, text, { min: { value: 2 }, max: { value: 4 } })).toBe('2 to 4 characters');
  });

  it('say date bounds as dates and file sizes in bytes', () => {
    const date = { name: 'due', kind: 'date' } as Field;
    expect(boundHint(english, date, { min: { value: '2026-01-01' } })).toBe('On or after Jan 1, 2026');
    const file = { name: 'scan', kind: 'file' } as Field;
    expect(boundHint(english, file, { max: { value: 1048576 } })).toBe('At most 1 MB');
  });

  it('speak French', () => {
    expect(hint('Order', ['lines'], 'Order', french)).toBe('De 1 à 50 lines');
    expect(hint('Customer', ['name'], 'Customer', french)).toBe('Au plus 120 caractères');
  });
});
