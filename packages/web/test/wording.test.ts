import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { boundsOf, fieldLabel, loadSpec, type Model, ruleHints } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { boundHint, hintText } from '../src/fields/bound-hint';
import { createI18n } from '../src/i18n/I18nProvider';
import { inSentence, itemOf } from '../src/i18n/wording';

// The client's wording rules (src/i18n/wording.ts), by English grammar, then over the labels of every
// specification the repository holds: the examples and the domains of the tests.
const ROOT = resolve(import.meta.dirname, '../../..');
const FILES = [
  ...readdirSync(resolve(ROOT, 'examples'))
    .filter((name) => /\.(md|ya?ml)$/.test(name))
    .map((name) => `examples/${name}`),
  ...readdirSync(resolve(ROOT, 'e2e/fixtures'))
    .filter((name) => /\.ya?ml$/.test(name))
    .map((name) => `e2e/fixtures/${name}`),
];

function models(): Array<[string, Model]> {
  return FILES.flatMap((file): Array<[string, Model]> => {
    const loaded = loadSpec(readFileSync(resolve(ROOT, file), 'utf8'), { file });
    return loaded.model ? [[file, loaded.model]] : [];
  });
}

describe('an item of a list, named from the list', () => {
  it.each([
    ['Co-speakers', 'Co-speaker'],
    ['Tags', 'Tag'],
    ['Categories', 'Category'],
    ['Boxes', 'Box'],
    ['Email addresses', 'Email address'],
    ['Wishes', 'Wish'],
    ['Staff', 'Staff'],
    ['Status', 'Status'],
    ['Equipment', 'Equipment'],
    ['Bus', 'Bus'],
  ])('%s holds a %s', (list, item) => {
    expect(itemOf(list)).toBe(item);
  });

  it('is said inside a sentence in lower case, unless it starts with an acronym', () => {
    expect(inSentence('Order line')).toBe('order line');
    expect(inSentence('SKU code')).toBe('SKU code');
    expect(inSentence('iPhone')).toBe('iPhone');
  });

  it('never names an item of any example’s list by the list’s plural', () => {
    let lists = 0;
    for (const [file, model] of models()) {
      for (const entity of model.entities.shown ? model.entities.items : []) {
        for (const field of entity.fields) {
          if (field.kind !== 'list' || field.of.kind === 'object') continue;
          lists++;
          const label = fieldLabel(field);
          const item = itemOf(label);
          if (/[^s]s$/i.test(label) && !/(us|is)$/i.test(label)) {
            expect(item, `${file}: ${entity.name}.${field.name}`).not.toBe(label);
          }
        }
      }
    }
    expect(lists).toBeGreaterThan(0);
  });
});

describe('a hint under an input', () => {
  const i18n = createI18n('en');

  it('says a limit once, when the field’s own help already names it', () => {
    const bounds = { max: { value: 3, unit: 'people' } } as Parameters<typeof hintText>[3];
    expect(hintText('Up to 3 email addresses.', 'At most 3 people', [], bounds)).toBe(
      'Up to 3 email addresses.',
    );
    expect(hintText('Who else speaks.', 'At most 3 people', [], bounds)).toBe(
      'Who else speaks. · At most 3 people',
    );
    expect(
      hintText(undefined, 'At most 2,000 characters', ['Up to 2,000 characters.'], {
        max: { value: 2000 },
      } as Parameters<typeof hintText>[3]),
    ).toBe('Up to 2,000 characters.');
  });

  it('names no limit twice on any field of any example', () => {
    let hints = 0;
    for (const [file, model] of models()) {
      for (const entity of model.entities.shown ? model.entities.items : []) {
        for (const field of entity.fields) {
          const bounds = boundsOf(model, entity.name, [field.name], entity.name);
          const text = hintText(
            field.help,
            boundHint(i18n, field, bounds),
            ruleHints(model, entity.name, [field.name]),
            bounds,
          );
          if (text === undefined) continue;
          hints++;
          const numbers = [bounds.min?.value, bounds.max?.value].filter((value) => typeof value === 'number');
          for (const value of numbers) {
            const said = text
              .split(' · ')
              .filter((part) => part.replace(/[,\s]/g, '').includes(String(value)));
            expect(said.length, `${file}: ${entity.name}.${field.name}: ${text}`).toBeLessThanOrEqual(1);
          }
        }
      }
    }
    expect(hints).toBeGreaterThan(5);
  });
});
