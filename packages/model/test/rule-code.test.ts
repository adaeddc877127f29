import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { toDocument } from '../src/document/write';
import { loadSpec } from '../src/load';
import { toMarkdown } from '../src/markdown/write';
import type { Model } from '../src/model';
import { validateRecord } from '../src/rules/validate';

const shopMarkdown = readFileSync(new URL('../../../examples/shop.md', import.meta.url), 'utf8');

/** The shop, whose order total rule has the code ORDER_TOTAL_LIMIT, with another code in its place. */
function shopWithCode(code: string): string {
  const rule = '| lines | ORDER_TOTAL_LIMIT |';
  if (!shopMarkdown.includes(rule))
    throw new Error('the shop example changed: its rule code is not where it was');
  return shopMarkdown.replace(rule, `| lines | ${code} |`);
}

/** The shop with no Code column in its rules table. */
function shopWithoutCodes(): string {
  const header =
    '| Rule | Entity | Check | Message | Field | Code | Hint |\n| --- | --- | --- | --- | --- | --- | --- |\n';
  const at = shopMarkdown.indexOf(header);
  if (at < 0) throw new Error('the shop example changed: its rules table is not where it was');
  const rows = shopMarkdown.slice(at + header.length).split('\n');
  const end = rows.findIndex((row) => !row.startsWith('|'));
  // The Code cell is the one before the last (Hint).
  const dropCode = (row: string) => row.replace(/\| [^|]*(\| [^|]*\|)$/, '$1');
  return [
    shopMarkdown.slice(0, at),
    '| Rule | Entity | Check | Message | Field | Hint |\n| --- | --- | --- | --- | --- | --- |\n',
    rows.slice(0, end).map(dropCode).join('\n'),
    '\n',
    rows.slice(end).join('\n'),
  ].join('');
}

function load(text: string, file = 'shop.md'): Model {
  const result = loadSpec(text, { file });
  if (!result.ok || !result.model) throw new Error(JSON.stringify(result.issues, null, 2));
  return result.model;
}

const order = {
  customer: 1,
  // 600 x 99 EUR is over MAX_ORDER_TOTAL (50,000 EUR).
  lines: [{ product: 1, quantity: 600, unitPrice: 99 }],
  shippingAddress: { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' },
};

describe('the code of a cross-field rule (point 5)', () => {
  it('is read from the Markdown rules table and written back, in Markdown and YAML alike', () => {
    const model = load(shopWithCode('ORDER_TOTAL_LIMIT'));
    if (!model.validation.shown) throw new Error('point 5 is shown in the shop');
    expect(model.validation.rules.map((rule) => [rule.name, rule.code])).toEqual([
      ['total-within-limit', 'ORDER_TOTAL_LIMIT'],
      ['placed-not-in-future', undefined],
      ['in-stock', 'OUT_OF_STOCK'],
      ['within-credit-limit', 'CREDIT_LIMIT'],
    ]);

    const written = toMarkdown(model);
    expect(written.lost).toEqual([]);
    expect(written.text).toContain('| Rule | Entity | Check | Message | Field | Code |');
    expect(load(written.text)).toEqual(model);

    const document = toDocument(model);
    expect(JSON.stringify(document)).toContain('"code":"ORDER_TOTAL_LIMIT"');
    expect(load(stringify(document), 'shop.yaml')).toEqual(model);
  });

  it('leaves the Code column out of a written table when no rule has one', () => {
    const written = toMarkdown(load(shopWithoutCodes())).text;
    expect(written).toContain('| Rule | Entity | Check | Message | Field | Hint |\n');
    expect(written).not.toContain('| Field | Code |');
  });

  it('must be SCREAMING_SNAKE like the codes of the error catalogue', () => {
    const result = loadSpec(shopWithCode('orderTotal-limit'), { file: 'shop.md' });
    expect(result.ok).toBe(false);
    const issue = result.issues.find((found) => found.path.join('.') === 'validation.rules.0.code');
    expect(issue).toMatchObject({ code: 'invalid-value', severity: 'error' });
    expect(issue?.message).toContain('Write it as ORDER_TOTAL_LIMIT.');
    expect(issue?.source?.line).toBeGreaterThan(1);
    for (const good of ['CREDIT_LIMIT', 'E42', 'OUT_OF_STOCK_2']) {
      expect(loadSpec(shopWithCode(good), { file: 'shop.md' }).ok).toBe(true);
    }
    for (const bad of ['_CREDIT', 'CREDIT__LIMIT', 'CREDIT_', '42_LIMIT', 'Credit_Limit']) {
      expect(loadSpec(shopWithCode(bad), { file: 'shop.md' }).ok).toBe(false);
    }
  });

  it('travels on the field error the rule gives, and only on it', () => {
    const model = load(shopWithCode('ORDER_TOTAL_LIMIT'));
    const now = new Date('2026-06-01T12:00:00Z');
    const refused = validateRecord(model, 'Order', order, { mode: 'create', now });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.errors).toEqual([
      {
        pointer: '/lines',
        code: 'rule',
        message: 'An order may total at most 50,000 EUR; split it into two orders.',
        ruleCode: 'ORDER_TOTAL_LIMIT',
      },
    ]);
    // The rule without a code gives an error without one.
    const future = validateRecord(
      model,
      'Order',
      { ...order, lines: [{ product: 1, quantity: 1, unitPrice: 1 }], placedOn: '2027-01-01' },
      { mode: 'create', now },
    );
    expect(future.ok).toBe(false);
    if (future.ok) return;
    expect(future.errors).toEqual([
      { pointer: '/placedOn', code: 'rule', message: 'The order date cannot be in the future.' },
    ]);
  });
});
