// The functions that reach other records (count, exists, sum, min, max, lookup): how `check` types
// them and where it refuses them, the conditions they hand to a reader, and `today`, messages and
// numbering, on the helpdesk specification (a domain of its own, not the demo).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  type AggregateQuery,
  aggregateRecords,
  checkExpression,
  evaluateExpression,
  evaluateWithRecords,
  expressionEnvironment,
  expressionReadsRecords,
  fillMessage,
  formatNumber,
  type JsonValue,
  loadSpec,
  type Model,
  parseNumbering,
  type RecordReader,
  toDocument,
  today,
  toMarkdown,
} from '../src/index';

function helpdesk(): Model {
  const text = readFileSync(new URL('./fixtures/helpdesk.md', import.meta.url), 'utf8');
  const result = loadSpec(text, { file: 'helpdesk.md' });
  if (!result.ok || !result.model) throw new Error(JSON.stringify(result.issues));
  return result.model;
}

const model = helpdesk();
const env = expressionEnvironment(model, {
  entity: 'Ticket',
  variables: ['record', 'old', 'user', 'now', 'today'],
});

const tickets: Array<Record<string, JsonValue>> = [
  { id: 1, customer: 7, status: 'open', hours: 4, dueOn: '2026-11-20' },
  { id: 2, customer: 7, status: 'held', hours: 5 },
  { id: 3, customer: 8, status: 'open', hours: 1, dueOn: '2026-12-01' },
];
const customers: Array<Record<string, JsonValue>> = [
  { id: 7, name: 'Free', plan: 'free' },
  { id: 8, name: 'Pro', plan: 'pro' },
];

/** A reader over the arrays above that remembers what it was asked. */
function reader(): RecordReader & { asked: AggregateQuery[] } {
  const asked: AggregateQuery[] = [];
  return {
    asked,
    aggregate(query) {
      asked.push(query);
      return aggregateRecords(query.entity === 'Ticket' ? tickets : customers, query);
    },
    lookup(entity, key) {
      return (entity === 'Ticket' ? tickets : customers).find((record) => record.id === key);
    },
  };
}

describe('record functions in check', () => {
  it('types them with the fields of the entity they name', () => {
    expect(checkExpression('count(Ticket, t, t.customer == record.customer) < 3', env)).toEqual({
      ok: true,
      type: 'bool',
    });
    expect(checkExpression('sum(Ticket, t, t.hours, t.status != "closed")', env)).toEqual({
      ok: true,
      type: 'double',
    });
    expect(checkExpression('max(Ticket, t, t.dueOn, has(t.dueOn))', env)).toEqual({
      ok: true,
      type: 'google.protobuf.Timestamp',
    });
    expect(checkExpression('lookup(Customer, record.customer).plan == "pro"', env)).toEqual({
      ok: true,
      type: 'bool',
    });
    expect(checkExpression('exists(Ticket, t, t.status in ["open", "held"] && !(t.hours > 3))', env)).toEqual(
      {
        ok: true,
        type: 'bool',
      },
    );
  });

  it('refuses, at the position of the part, what cannot be typed or turned into SQL', () => {
    const cases: Array<[string, RegExp, number]> = [
      ['count(Tiket, t, true) > 0', /Tiket is not an entity with records of its own/, 6],
      ['count(Ticket, t, t.subjct == "x") > 0', /No such key: subjct/, 19],
      ['count(Ticket, t, t.subject.startsWith("x")) > 0', /is not one of them/, 17],
      ['count(Ticket, t, t.hours + 1.0 > 2.0) > 0', /is not one of them/, 17],
      ['count(Ticket, record, true) > 0', /Record already means something here/, 14],
      ['sum(Ticket, t, t.subject, true) > 0', /needs a field of numbers/, 17],
      ['count(Ticket, t, count(Ticket, u, true) > 0) > 0', /cannot hold another record function/, 17],
      ['count(Ticket, t, t.hours) > 0', /must be true or false/, 19],
      ['lookup(Customer, [1]).plan == "pro"', /a key is a reference, a number or text/, 17],
    ];
    for (const [expression, message, offset] of cases) {
      const result = checkExpression(expression, env);
      expect(result.ok, expression).toBe(false);
      if (result.ok) continue;
      expect(result.message, expression).toMatch(message);
      expect(result.offset, expression).toBe(offset);
    }
  });

  it('says which expressions read other records', () => {
    expect(expressionReadsRecords('count(Ticket, t, true) < 3', env)).toBe(true);
    expect(
      expressionReadsRecords('record.subject.size() < 3 || lookup(Customer, 1).plan == "pro"', env),
    ).toBe(true);
    expect(expressionReadsRecords('record.subject.size() < 3', env)).toBe(false);
    // A field that happens to be called count is not a call.
    expect(expressionReadsRecords('record.hours > 0.0', env)).toBe(false);
  });
});

describe('record functions evaluated', () => {
  it('hand the reader a condition with every outside value computed, short-circuited as CEL reads it', async () => {
    const asked = reader();
    const result = await evaluateWithRecords(
      'count(Ticket, t, t.customer == record.customer && (!has(record.id) || t.id != record.id) && t.status in ["open", "held"]) < MAX_OPEN_TICKETS',
      env,
      { record: { customer: 7 } },
      asked,
    );
    expect(result).toEqual({ ok: true, value: true });
    expect(asked.asked).toEqual([
      {
        entity: 'Ticket',
        fn: 'count',
        where: {
          kind: 'all',
          of: [
            {
              kind: 'all',
              of: [
                { kind: 'compare', field: 'customer', op: '==', value: 7 },
                { kind: 'constant', value: true },
              ],
            },
            { kind: 'in', field: 'status', values: ['open', 'held'] },
          ],
        },
      },
    ]);
  });

  it('turns a comparison written the other way round', async () => {
    const asked = reader();
    await evaluateWithRecords('count(Ticket, t, 3.0 < t.hours) == 2', env, {}, asked);
    expect(asked.asked[0]?.where).toEqual({ kind: 'compare', field: 'hours', op: '>', value: 3 });
  });

  it('gives the same answer every time an expression is evaluated, also inside a comprehension', async () => {
    // cel-js answered nothing from the second run of a cached comprehension that awaits a look-up.
    for (let round = 0; round < 3; round++) {
      const result = await evaluateWithRecords(
        '[7, 8].all(c, lookup(Customer, c).name != "") && record.hours <= sum(Ticket, t, t.hours, t.customer == 7)',
        env,
        { record: { hours: 2 } },
        reader(),
      );
      expect(result, `round ${round}`).toEqual({ ok: true, value: true });
    }
  });

  it('cannot be evaluated without a reader, and says so', () => {
    expect(evaluateExpression('count(Ticket, t, true) < 3', env, {})).toEqual({
      ok: false,
      message: 'The expression reads other records, which only the API can do',
    });
  });

  it('min and max of no records have no value', async () => {
    const result = await evaluateWithRecords(
      'max(Ticket, t, t.hours, t.customer == 99) > 1.0',
      env,
      {},
      reader(),
    );
    expect(result.ok).toBe(false);
  });
});

describe('today, messages and numbering', () => {
  it('starts today in the product’s time zone', () => {
    expect(today(new Date('2026-11-24T23:30:00Z'), 'Europe/Amsterdam').toISOString()).toBe(
      '2026-11-25T00:00:00.000Z',
    );
    expect(today(new Date('2026-11-24T23:30:00Z'), 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(today(new Date('2026-11-25T03:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-11-24T00:00:00.000Z',
    );
    const due = evaluateExpression('record.dueOn >= today', env, {
      record: { dueOn: '2026-11-24' },
      now: new Date('2026-11-24T23:30:00Z'),
    });
    expect(due).toEqual({ ok: true, value: false });
  });

  it('fills constants and fields into messages, and leaves unknown names as written', () => {
    expect(
      fillMessage(
        'At most {MAX_OPEN_TICKETS} open for {record.customer} ({user.email}); {NOPE} {record.none}',
        model,
        {
          record: { customer: 7 },
          user: { email: 'a@b.test' },
        },
      ),
    ).toBe('At most 3 open for 7 (a@b.test); {NOPE} {record.none}');
  });

  it('reads numbering patterns and refuses those that would repeat', () => {
    const parsed = parseNumbering('ORD-{seq:6}/A');
    expect(parsed).toEqual({ ok: true, pattern: { prefix: 'ORD-', suffix: '/A', width: 6 } });
    if (!parsed.ok) return;
    expect(formatNumber(parsed.pattern, 123)).toBe('ORD-000123/A');
    for (const bad of ['ORD', 'ORD-{seq}-{seq}', 'ORD-{year}-{seq}', 'ORD-{seq:16}', '{seq}}', '']) {
      expect(parseNumbering(bad).ok, bad).toBe(false);
    }
  });
});

describe('the helpdesk specification', () => {
  it('reads the same written back as Markdown and as YAML: time zone, numbering, unique with, rule paths', () => {
    const written = toMarkdown(model);
    expect(written.lost).toEqual([]);
    expect(written.text).toContain('| Unique with |');
    expect(written.text).toContain('`HD-{seq:5}`');
    expect(written.text).toContain('- Time zone: Europe/Amsterdam');
    const again = loadSpec(written.text, { file: 'again.md' });
    expect(again.issues).toEqual([]);
    expect(again.model).toEqual(model);
    const yaml = loadSpec(stringify(toDocument(model)), { file: 'helpdesk.yaml' });
    expect(yaml.issues).toEqual([]);
    expect(yaml.model).toEqual(model);
  });
});
