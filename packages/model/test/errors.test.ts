import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  catalogueWords,
  type ErrorEntry,
  loadSpec,
  type Model,
  matchError,
  matchFieldErrors,
  notShownModel,
  validateRecord,
} from '../src';

function load(text: string, file: string): Model {
  const loaded = loadSpec(text, { file });
  if (!loaded.model) throw new Error(loaded.issues.map((issue) => issue.message).join('; '));
  return loaded.model;
}

const shop = load(readFileSync(new URL('../../../examples/shop.yaml', import.meta.url), 'utf8'), 'shop.yaml');

/** The shop's entities with another catalogue. */
function withCatalogue(entries: ErrorEntry[]): Model {
  return { ...shop, errors: { shown: true, entries } };
}

const entry = (match: ErrorEntry['match'], message: string, more: Partial<ErrorEntry> = {}): ErrorEntry => ({
  match,
  message,
  action: 'none',
  ...more,
});

describe('matchError', () => {
  it('matches an exact status', () => {
    expect(matchError(shop, { status: 404, code: 'NOT_FOUND' })?.message).toBe(
      'This record no longer exists.',
    );
    expect(matchError(shop, { status: 401 })?.action).toBe('sign-in');
  });

  it('matches a status class', () => {
    for (const status of [500, 502, 503, 599]) {
      expect(matchError(shop, { status })?.message).toBe('The server had a problem. Try again in a moment.');
    }
    expect(matchError(shop, { status: 400 })).toBeUndefined();
  });

  it('needs the code an entry gives: the same status with another code is not covered', () => {
    expect(matchError(shop, { status: 409, code: 'ILLEGAL_TRANSITION' })?.action).toBe('reload');
    expect(matchError(shop, { status: 409, code: 'GUARD_FAILED' })).toBeUndefined();
    expect(matchError(shop, { status: 409 })).toBeUndefined();
  });

  it('matches a field through the embedded entity that holds it', () => {
    const answer = {
      status: 422,
      code: 'OUT_OF_STOCK',
      entity: 'Order',
      fieldErrors: [{ pointer: '/lines/2/quantity', code: 'OUT_OF_STOCK' }],
    };
    const found = matchError(shop, answer);
    expect(found?.field).toBe('OrderLine.quantity');
    expect(found?.action).toBe('fix-field');
    // The same code at a field the entry does not name is not this entry.
    expect(
      matchError(shop, { ...answer, fieldErrors: [{ pointer: '/note', code: 'OUT_OF_STOCK' }] }),
    ).toBeUndefined();
    // Without the call's entity a pointer names no field.
    expect(matchError(shop, { ...answer, entity: undefined })).toBeUndefined();
  });

  it('matches a field at the field itself or inside it', () => {
    const credit = (pointer: string) =>
      matchError(shop, {
        status: 422,
        code: 'CREDIT_LIMIT',
        entity: 'Order',
        fieldErrors: [{ pointer, code: 'CREDIT_LIMIT' }],
      })?.field;
    expect(credit('/lines')).toBe('Order.lines');
    expect(credit('/lines/0/unitPrice')).toBe('Order.lines');
    expect(credit('')).toBeUndefined();
    expect(credit('/customer')).toBeUndefined();
  });

  it('takes a field error’s own code when the problem has a general one', () => {
    const found = matchError(shop, {
      status: 422,
      code: 'VALIDATION_FAILED',
      entity: 'Order',
      fieldErrors: [
        { pointer: '/note', code: 'maxLength' },
        { pointer: '/lines/0/quantity', code: 'OUT_OF_STOCK' },
      ],
    });
    expect(found?.field).toBe('OrderLine.quantity');
  });

  it('matches the problem type, and about:blank for an answer without one', () => {
    const model = withCatalogue([
      entry({ type: 'https://example.com/probs/out-of-credit' }, 'Out of credit.'),
      entry({ status: 400, type: 'about:blank' }, 'Plain bad request.'),
    ]);
    expect(matchError(model, { status: 403, type: 'https://example.com/probs/out-of-credit' })?.message).toBe(
      'Out of credit.',
    );
    expect(matchError(model, { status: 403, type: 'https://example.com/probs/other' })).toBeUndefined();
    expect(matchError(model, { status: 400 })?.message).toBe('Plain bad request.');
    expect(matchError(model, { status: 400, type: 'https://example.com/probs/other' })).toBeUndefined();
  });

  it('prefers the most specific entry, whatever the catalogue order', () => {
    const model = withCatalogue([
      entry({}, 'Catch-all.'),
      entry({ status: '4xx' }, 'Class.'),
      entry({ status: 422 }, 'Exact.'),
      entry({ status: '4xx', type: 'https://example.com/v' }, 'Class and type.'),
      entry({ status: '4xx', code: 'TAKEN' }, 'Class and code.'),
      entry({ status: 422, code: 'TAKEN' }, 'Exact and code.'),
      entry({ code: 'TAKEN' }, 'Code, field.', { field: 'Customer.email' }),
      entry({ status: 422, code: 'TAKEN' }, 'Exact, code, field.', { field: 'Customer.email' }),
    ]);
    const at = (answer: Parameters<typeof matchError>[1]) => matchError(model, answer)?.message;
    const email = { entity: 'Customer', fieldErrors: [{ pointer: '/email', code: 'TAKEN' }] };
    expect(at({ status: 422, code: 'TAKEN', ...email })).toBe('Exact, code, field.');
    expect(at({ status: 409, code: 'TAKEN', ...email })).toBe('Code, field.');
    expect(at({ status: 422, code: 'TAKEN' })).toBe('Exact and code.');
    expect(at({ status: 409, code: 'TAKEN' })).toBe('Class and code.');
    expect(at({ status: 409, type: 'https://example.com/v' })).toBe('Class and type.');
    expect(at({ status: 422 })).toBe('Exact.');
    expect(at({ status: 404 })).toBe('Class.');
    expect(at({ status: 503 })).toBe('Catch-all.');
  });

  it('between equally specific entries keeps the catalogue’s order', () => {
    const entries = [entry({ code: 'A' }, 'First.'), entry({ code: 'B' }, 'Second.')];
    const answer = {
      status: 422,
      code: 'B',
      entity: 'Customer',
      fieldErrors: [{ pointer: '/email', code: 'A' }],
    };
    expect(matchError(withCatalogue(entries), answer)?.message).toBe('First.');
    expect(matchError(withCatalogue([...entries].reverse()), answer)?.message).toBe('Second.');
  });

  it('matches nothing for a call that got no answer, not even a catch-all', () => {
    const model = withCatalogue([entry({}, 'Catch-all.')]);
    expect(matchError(model, {})).toBeUndefined();
    expect(matchError(model, { status: 500 })?.message).toBe('Catch-all.');
  });

  it('matches nothing when point 8 is not shown', () => {
    expect(matchError(notShownModel(), { status: 500 })).toBeUndefined();
    expect(matchError({ ...shop, errors: { shown: false } }, { status: 404 })).toBeUndefined();
  });

  it('reads a catalogue from Markdown: status classes in any case, actions in words', () => {
    const model = load(
      [
        '# Tiny',
        '## 1. Product',
        'not shown',
        '## 2. Screens',
        'not shown',
        '## 3. Entities',
        'not shown',
        '## 4. States',
        'not shown',
        '## 5. Validation',
        'not shown',
        '## 6. Roles',
        'not shown',
        '## 7. Calls',
        'not shown',
        '## 8. Errors',
        '',
        '| Status | Code | Message | Action |',
        '| --- | --- | --- | --- |',
        '| 5XX | | Our side failed. | try again |',
        '| 429 | | Slow down. | retry |',
        '',
        '## 9. Constants',
        'not shown',
      ].join('\n'),
      'tiny.md',
    );
    expect(matchError(model, { status: 504 })).toMatchObject({
      message: 'Our side failed.',
      action: 'retry',
    });
    expect(matchError(model, { status: 429 })?.message).toBe('Slow down.');
  });
});

describe('matchFieldErrors', () => {
  it('gives each field error the entry with a field that describes it', () => {
    const found = matchFieldErrors(shop, {
      status: 422,
      code: 'VALIDATION_FAILED',
      entity: 'Order',
      fieldErrors: [
        { pointer: '/lines/0/quantity', code: 'OUT_OF_STOCK' },
        { pointer: '/note', code: 'maxLength' },
        { pointer: '/lines', code: 'CREDIT_LIMIT' },
      ],
    });
    expect(found.map((item) => item?.field)).toEqual(['OrderLine.quantity', undefined, 'Order.lines']);
  });

  it('never gives an entry without a field, even one that matches the answer', () => {
    const model = withCatalogue([entry({ status: 422 }, 'Check the values.')]);
    expect(
      matchFieldErrors(model, { status: 422, entity: 'Customer', fieldErrors: [{ pointer: '/email' }] }),
    ).toEqual([undefined]);
  });
});

describe('catalogueWords', () => {
  it('gives a rule refused before sending the words the catalogue has for the same refusal from the API', () => {
    const refused = validateRecord(
      shop,
      'Order',
      {
        customer: 1,
        shippingAddress: { street: '1 Quay', postcode: 'PO1 3LJ' },
        lines: [{ product: 1, quantity: 600, unitPrice: 99 }],
      },
      { mode: 'create', now: new Date('2026-06-01T12:00:00Z') },
    );
    if (refused.ok) throw new Error('600 x 99 EUR is over the order total limit');
    expect(catalogueWords(shop, 'Order', refused.errors)).toEqual([
      {
        pointer: '/lines',
        code: 'rule',
        ruleCode: 'ORDER_TOTAL_LIMIT',
        message:
          'This order is over 50,000 EUR, the most taken without a second approval. Split it into two orders.',
      },
    ]);
    // Without point 8, or for an error of no rule code, the words stay the rule's own.
    expect(catalogueWords(notShownModel('x'), 'Order', refused.errors)).toEqual(refused.errors);
    const plain = [{ pointer: '/name', code: 'required', message: 'Name is required.' }];
    expect(catalogueWords(shop, 'Customer', plain)).toEqual(plain);
  });
});
