import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec, type Model, notShownModel, toMarkdown } from '../src/index';

const root = resolve(import.meta.dirname, '../../..');

function load(text: string, file: string): Model {
  const result = loadSpec(text, { file });
  expect(result.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  if (!result.model) throw new Error(`${file} did not load`);
  return result.model;
}

/** Writes the model as Markdown and loads it back: the model read, and what was reported lost. */
function roundTrip(model: Model): { back: Model; lost: string[]; text: string } {
  const { text, lost } = toMarkdown(model);
  // The small models below are not meaningful specifications (references to points not shown): only the
  // format's own issues matter here.
  const result = loadSpec(text, { file: 'back.md' });
  const formatCodes = [
    'unknown-column',
    'missing-column',
    'unreadable-cell',
    'unused-content',
    'missing-key',
  ];
  expect(result.issues.filter((issue) => formatCodes.includes(issue.code))).toEqual([]);
  if (!result.model) throw new Error('the Markdown did not load');
  return { back: result.model, lost, text };
}

describe('toMarkdown', () => {
  // The ferry line (e2e/fixtures) chooses a phone's card fields, which the examples leave to the default.
  it.each([
    'examples/shop.md',
    'examples/shop.yaml',
    'examples/empty.md',
    'e2e/fixtures/ferry-sailings.yaml',
  ])('writes %s as Markdown that loads back to the same model', (file) => {
    const model = load(readFileSync(resolve(root, file), 'utf8'), file);
    const { back, lost } = roundTrip(model);
    expect(lost).toEqual([]);
    expect(back).toEqual(model);
  });

  it('writes a point not shown with its reason', () => {
    const model: Model = { ...notShownModel('Shop'), states: { shown: false, reason: 'no workflows yet.' } };
    const { back, lost, text } = roundTrip(model);
    expect(text).toContain('## 4. States and transitions\n\nNot shown: no workflows yet.\n');
    expect(text).toContain('## 1. What the product does and for whom\n\nNot shown.\n');
    expect(lost).toEqual([]);
    expect(back).toEqual(model);
  });

  it('escapes | in cells, also in code, and reports a line break that a cell cannot hold', () => {
    const model: Model = {
      ...notShownModel('Pipes | and *stars*'),
      constants: {
        shown: true,
        items: [
          { name: 'A', value: 'x | y', unit: 'a\\|b', meaning: 'one `tick` and [brackets] and <b>' },
          { name: 'B', value: 1, meaning: 'line one\nline two' },
        ],
      },
      validation: {
        shown: true,
        fields: [],
        rules: [{ entity: 'Order', check: 'a || b', message: 'either | or', on: ['update'] }],
      },
    };
    const { back, lost, text } = roundTrip(model);
    expect(text).toContain('`a \\|\\| b`');
    expect(text).toContain('| A | x \\| y | a\\\\\\|b |');
    expect(lost).toEqual([
      'constants.items[B].meaning: not kept by the Markdown format (reads back as "line one line two")',
    ]);
    expect(back.title).toBe(model.title);
    expect(back.validation).toEqual(model.validation);
    expect(back.constants.shown && back.constants.items[0]).toEqual(
      model.constants.shown && model.constants.items[0],
    );
  });

  it('lists what the Markdown format cannot hold instead of dropping it silently', () => {
    const model: Model = {
      ...notShownModel('Api'),
      calls: {
        shown: true,
        items: [
          {
            name: 'listOrders',
            method: 'GET',
            path: '/orders',
            purpose: 'list',
            entity: 'Order',
            parameters: [{ name: 'q', in: 'query', required: false, type: { kind: 'text' } }],
            pagination: {
              style: 'page',
              pageParam: 'page',
              sizeParam: 'size',
              maxSize: { kind: 'number', value: 100 },
            },
            sort: { param: 'order', fields: ['placedAt'], style: 'field:asc' },
            filters: [{ field: 'status', param: 'state', op: 'in' }],
          },
        ],
      },
      notes: { product: 'About the product.', calls: 'The API is slow.' },
    };
    const { back, lost } = roundTrip(model);
    expect(lost).toEqual([
      'notes.product: a point not shown cannot have notes in Markdown',
      'calls.items[listOrders].parameters: Markdown has no column for parameters; only those named in the path ({name}, required text) are kept',
      'calls.items[listOrders].pagination.maxSize: Markdown cannot write a maximum page size',
      'calls.items[listOrders].sort.param: Markdown cannot name the sort parameter ("order"; it reads as "sort")',
      'calls.items[listOrders].sort.style: Markdown cannot write the sort style "field:asc"',
      `calls.items[listOrders].filters[0].param: Markdown cannot name a filter's parameter ("state" for "status")`,
    ]);
    expect(back.notes).toEqual({ calls: 'The API is slow.' });
    const call = back.calls.shown ? back.calls.items[0] : undefined;
    expect(call?.filters).toEqual([{ field: 'status', param: 'status', op: 'in' }]);
    expect(call?.pagination).toEqual({ style: 'page', pageParam: 'page', sizeParam: 'size' });
  });
});
