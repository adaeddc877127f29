import {
  type CheckExpressionResult,
  checkExpression,
  type EvaluateExpressionResult,
  type ExpressionContext,
  type ExpressionEnvironment,
  evaluateExpression,
  expressionEnvironment,
} from '../cel';
import type { JsonValue, Model } from '../model';

// A transition may change other records in its own transaction (point 4): an order takes stock when it
// is placed. Each change is one statement, the same in Markdown and YAML:
//
//   Product[l.product].stock -= l.quantity for l in record.lines
//   Product[l.product].stock += l.quantity for l in record.lines when record.status == "placed"
//   Customer[record.customer].lastOrderOn = now
//
// The key, the value, the list and the condition are CEL over the record before the transition (with
// `user`, `now`, `today` and the constants), so `check` types them as any expression.

export type UpdateOperator = '=' | '+=' | '-=';

export interface RecordUpdate {
  entity: string;
  /** CEL for the key of the record changed. */
  key: string;
  field: string;
  op: UpdateOperator;
  /** CEL for the value set, added or taken away. */
  value: string;
  /** `for l in record.lines`: the change is made once per item, with the item named. */
  each?: { variable: string; list: string };
  /** `when …`: the change is made only when this holds. */
  when?: string;
}

export type ParseUpdateResult = { ok: true; update: RecordUpdate } | { ok: false; message: string };

const STATEMENT =
  /^\s*([A-Za-z_][A-Za-z0-9_]*)\[(.+?)\]\.([A-Za-z_][A-Za-z0-9_]*)\s*(\+=|-=|=)\s*(.+?)(?:\s+for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+?))?(?:\s+when\s+(.+?))?\s*$/s;

/**
 * Reads one change of another record.
 *
 * @example
 * ```ts
 * parseUpdate('Product[l.product].stock -= l.quantity for l in record.lines');
 * // { ok: true, update: { entity: 'Product', key: 'l.product', field: 'stock', op: '-=',
 * //                       value: 'l.quantity', each: { variable: 'l', list: 'record.lines' } } }
 * ```
 */
export function parseUpdate(text: string): ParseUpdateResult {
  const match = typeof text === 'string' ? STATEMENT.exec(text) : null;
  if (!match) {
    return {
      ok: false,
      message:
        `"${String(text)}" is not a change of another record. Write Entity[key].field = value, += or -=, ` +
        'optionally followed by "for x in list" and "when condition": ' +
        'Product[l.product].stock -= l.quantity for l in record.lines',
    };
  }
  const [, entity, key, field, op, value, variable, list, when] = match as unknown as [
    string,
    string,
    string,
    string,
    UpdateOperator,
    string,
    string | undefined,
    string | undefined,
    string | undefined,
  ];
  return {
    ok: true,
    update: {
      entity,
      key: key.trim(),
      field,
      op,
      value: value.trim(),
      ...(variable && list ? { each: { variable, list: list.trim() } } : {}),
      ...(when ? { when: when.trim() } : {}),
    },
  };
}

/** The CEL expressions an update evaluates, each over the transition's scope. */
export function updateExpressions(update: RecordUpdate): { keys: string; values: string; when?: string } {
  // One list of keys and one of values, so that each is a list of one type (CEL lists are homogeneous).
  const keys = update.each
    ? `${update.each.list}.map(${update.each.variable}, ${update.key})`
    : `[${update.key}]`;
  const values = update.each
    ? `${update.each.list}.map(${update.each.variable}, ${update.value})`
    : `[${update.value}]`;
  return { keys, values, ...(update.when ? { when: update.when } : {}) };
}

export function updateEnvironment(model: Model, entity: string): ExpressionEnvironment {
  return expressionEnvironment(model, {
    entity,
    variables: ['record', 'user', 'now', 'today'],
  });
}

/** Type-checks an update's expressions; the first problem, or undefined. */
export function checkUpdateExpressions(
  update: RecordUpdate,
  env: ExpressionEnvironment,
): (CheckExpressionResult & { ok: false; part: string }) | undefined {
  const { keys, values, when } = updateExpressions(update);
  for (const [part, expression] of [
    ['key', keys],
    ['value', values],
    ...(when === undefined ? [] : [['condition', when]]),
  ] as Array<[string, string]>) {
    const result = checkExpression(expression, env);
    if (!result.ok) return { ...result, part };
    if (part === 'condition' && result.type !== 'bool' && result.type !== 'dyn') {
      return { ok: false, message: `The condition is ${result.type}, not true or false`, part };
    }
  }
  return undefined;
}

export interface UpdateStep {
  key: JsonValue;
  value: JsonValue;
}

export type UpdateStepsResult = { ok: true; steps: UpdateStep[] } | { ok: false; message: string };

/** The records an update changes and by how much, for the record before the transition. */
export function updateSteps(
  update: RecordUpdate,
  env: ExpressionEnvironment,
  context: ExpressionContext,
): UpdateStepsResult {
  const { keys, values, when } = updateExpressions(update);
  if (when !== undefined) {
    const holds = evaluateExpression(when, env, context);
    if (!holds.ok) return { ok: false, message: holds.message };
    if (holds.value !== true) return { ok: true, steps: [] };
  }
  const keyList: EvaluateExpressionResult = evaluateExpression(keys, env, context);
  const valueList: EvaluateExpressionResult = evaluateExpression(values, env, context);
  if (!keyList.ok) return { ok: false, message: keyList.message };
  if (!valueList.ok) return { ok: false, message: valueList.message };
  if (!Array.isArray(keyList.value) || !Array.isArray(valueList.value)) {
    return { ok: false, message: 'The list of an update is not a list' };
  }
  const valuesOf = valueList.value as JsonValue[];
  return {
    ok: true,
    steps: (keyList.value as JsonValue[]).map((key, index) => ({ key, value: valuesOf[index] ?? null })),
  };
}
