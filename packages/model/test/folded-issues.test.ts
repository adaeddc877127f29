import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src';

const FILE = resolve(import.meta.dirname, '../../../examples/shop.md');
const shop = readFileSync(FILE, 'utf8');

/** The 1-based line of the example that holds this text, so that examples may grow above it. */
const lineOf = (needle: string) => shop.slice(0, shop.indexOf(needle)).split('\n').length;

// One mistake, one error: the references that fail only because of it are said at the cause.
describe('issues that follow from one cause', () => {
  it.each([
    ['a stray character before it', 'x## 3. Entities and fields'],
    ['no space after its hashes', '##3. Entities and fields'],
  ])(
    'reports a point whose heading has %s once, at that heading, with the references that fail',
    (_, broken) => {
      const text = shop.replace('## 3. Entities and fields', broken);
      expect(text).not.toBe(shop);
      const errors = loadSpec(text, { file: 'shop.md' }).issues.filter((issue) => issue.severity === 'error');
      // The first error is the cause, at the broken line; it was at 1:1, one of 101 errors.
      expect(errors[0]?.code).toBe('missing-point');
      expect(errors[0]?.source?.line).toBe(lineOf('## 3. Entities and fields'));
      expect(errors[0]?.hint).toMatch(
        /; \d{2,} references to it fail until it is read \(at (\d+:\d+, ){8}…\)$/,
      );
      // What is left are expressions that name entities, which the cause does not account for.
      expect(errors.length).toBeLessThan(5);
    },
  );
  it('reports a field kind it cannot read once, first, with where the references to the field are', () => {
    const text = shop.replace('| total | money EUR |', '| total | moneyy EUR |');
    expect(text).not.toBe(shop);
    const result = loadSpec(text, { file: 'shop.md' });
    const errors = result.issues.filter((issue) => issue.severity === 'error');
    expect(errors).toHaveLength(1);
    const [cause] = errors;
    expect(cause?.code).toBe('unreadable-cell');
    expect(cause?.message).toMatch(/^The kind "moneyy EUR" is not one Ninefold can read/);
    expect(cause?.source).toMatchObject({ line: lineOf('| total | money EUR |'), column: 11 });
    // Two columns of a screen, four figures of the dashboard, a rule's expression and a call's filter
    // named Order.total.
    expect(cause?.hint).toMatch(
      /^did you mean "money"\?; 8 references to it fail until it is read \(at \d+:74, \d+:138, (\d+:\d+, ){4}\d+:113, \d+:94\)$/,
    );
  });

  it('still reports a reference to a field no one wrote beside it', () => {
    const lines = shop.replace('| total | money EUR |', '| total | moneyy EUR |').split('\n');
    // The orders list: its first mention of total becomes a name no field has.
    const orders = lineOf('| orders | list |') - 1;
    lines[orders] = (lines[orders] ?? '').replace('total', 'totl');
    const result = loadSpec(lines.join('\n'), { file: 'shop.md' });
    const errors = result.issues.filter((issue) => issue.severity === 'error');
    expect(errors.map((issue) => issue.code)).toEqual(['unknown-reference', 'unreadable-cell']);
    expect(errors[0]?.message).toMatch(/names field "totl"/);
    expect(errors[1]?.hint).toMatch(
      /; 7 references to it fail until it is read \(at (\d+:\d+, ){5}\d+:113, \d+:94\)$/,
    );
  });

  it('reports rows of 2, 1 and 5 cells under a header of 4 as the cause, with what follows on and from them', () => {
    const text = shop
      .replace('| sku | text | SKU | |', '| sku | text |')
      .replace('| price | money EUR | | |', '| price |')
      .replace('| stock | integer | | |', '| stock | integer | | | |');
    const result = loadSpec(text, { file: 'shop.md' });
    const errors = result.issues.filter((issue) => issue.severity === 'error');
    // Each row's own error, and nothing else: the field the short row leaves without a kind, and the
    // references to it in a screen, a rule and a call, are said at the row.
    const sku = lineOf('| sku | text | SKU | |');
    expect(errors.map((issue) => [issue.code, issue.source?.line])).toEqual([
      ['cell-count', sku],
      ['cell-count', sku + 3],
      ['cell-count', sku + 4],
    ]);
    expect(errors[1]?.message).toMatch(/^This row has 1 cell and the table's header has 4/);
    expect(errors[1]?.hint).toBe(
      `give the row one cell per column, leaving the ones that do not apply empty ("| |"); until it is, entities.Product.fields.price needs a "kind"; 6 references to it fail until it is read (at ${lineOf('| products | list |')}:65, ${lineOf('| products | list |')}:107, ${lineOf('| products | list |')}:142, ${lineOf('| unitPrice |')}:42, ${lineOf('| Product.price | yes |')}:3, ${lineOf('| listProducts |')}:100)`,
    );
    // The rest of the document is still read and checked.
    expect(result.coverage?.shown).toHaveLength(9);
  });

  it('sets a YAML field of a misspelt kind aside, as Markdown does: one error, and the rest still checked', () => {
    const yaml = readFileSync(resolve(import.meta.dirname, '../../../examples/shop.yaml'), 'utf8');
    const text = yaml
      .replace('total: { kind: money, currency: EUR', 'total: { kind: moneyy, currency: EUR')
      // A second mistake, elsewhere and of its own: it must be reported in the same run.
      .replace(
        'columns: [number, customer, placedOn, total, status]',
        'columns: [number, customr, placedOn, total, status]',
      );
    const result = loadSpec(text, { file: 'shop.yaml' });
    const errors = result.issues.filter((issue) => issue.severity === 'error');
    expect(errors.map((issue) => issue.code)).toEqual(['unknown-reference', 'invalid-value']);
    expect(errors[0]?.message).toMatch(/names field "customr"/);
    expect(errors[1]?.message).toBe('entities.Order.fields.total: "moneyy" is not a known kind.');
    expect(errors[1]?.hint).toMatch(
      /^did you mean "money"\?; 8 references to it fail until it is read \(at (\d+:\d+, ){7}\d+:\d+\)$/,
    );
    expect(result.coverage?.shown).toHaveLength(9);
  });
});
