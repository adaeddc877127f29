import type { ASTNode } from '@marcbachmann/cel-js';
import { type ExpressionContext, type ExpressionEnvironment, evaluateExpression } from '../cel';
import { COMPARISONS, fieldOf, mentions, REVERSED } from '../cel/ast';
import { toPlain } from '../cel/values';
import { exhaustiveSwitchError } from '../exhaustive';
import { findEntity, hasNumericKey } from '../lookup';
import type { Entity, JsonValue, Model } from '../model';
import type { Comparison, RecordCondition } from './records';

// A condition over `record` (a permission of point 6: `record.ownerId == user.id || record.status !=
// "draft"`) as data the prototype API can turn into SQL, so that a list asks the database for the rows
// a role may read instead of reading every row and asking CEL. Only the shapes whose SQL meaning is
// CEL's meaning translate; for anything else the caller keeps evaluating CEL per record.

/**
 * The condition as data, with every part that does not name `record` computed from `context` (the
 * user's claims, constants); undefined when a part cannot be translated or computed, so that the caller
 * falls back to CEL. `columnKind` says which fields of the record the database can compare, and what
 * they hold: a value of another type compares differently in CEL than in SQL, so it is not translated.
 *
 * @example
 * ```ts
 * conditionAsData('record.customer == user.customerId', env, { user: { customerId: 7 } }, isColumn);
 * // { kind: 'compare', field: 'customer', op: '==', value: 7 }
 * ```
 */
export function conditionAsData(
  expression: string,
  env: ExpressionEnvironment,
  context: ExpressionContext,
  columnKind: (field: string) => ColumnKind | undefined,
): RecordCondition | undefined {
  let root: ASTNode;
  try {
    root = env.cel.parse(expression).ast;
  } catch {
    return undefined;
  }
  return translate(root, env, context, columnKind);
}

/** What a column holds, as CEL and SQL both compare it. */
export type ColumnKind = 'text' | 'number' | 'boolean';

function translate(
  node: ASTNode,
  env: ExpressionEnvironment,
  context: ExpressionContext,
  columnKind: (field: string) => ColumnKind | undefined,
): RecordCondition | undefined {
  if (!mentions(node, 'record')) {
    const value = computed(node, env, context);
    // A part that fails in CEL makes the whole condition an error there: only CEL can say what follows.
    return typeof value === 'boolean' ? { kind: 'constant', value } : undefined;
  }
  const column = (side: ASTNode) => {
    const field = fieldOf(side, 'record');
    return field !== undefined && columnKind(field) !== undefined ? field : undefined;
  };
  const fits = (field: string, value: unknown): value is string | number | boolean =>
    isScalar(value) &&
    typeof value ===
      (columnKind(field) === 'number' ? 'number' : columnKind(field) === 'boolean' ? 'boolean' : 'string');
  switch (node.op) {
    case '&&':
    case '||': {
      const parts = (node.args as [ASTNode, ASTNode]).map((side) =>
        translate(side, env, context, columnKind),
      );
      if (parts.some((part) => part === undefined)) return undefined;
      return { kind: node.op === '&&' ? 'all' : 'any', of: parts as RecordCondition[] };
    }
    case 'in': {
      const [left, right] = node.args as [ASTNode, ASTNode];
      const field = column(left);
      const values =
        field === undefined || mentions(right, 'record') ? undefined : computed(right, env, context);
      return field !== undefined && Array.isArray(values) && values.every((value) => fits(field, value))
        ? { kind: 'in', field, values: values as JsonValue[] }
        : undefined;
    }
    default: {
      if (!COMPARISONS.has(node.op)) return undefined;
      const [left, right] = node.args as [ASTNode, ASTNode];
      const leftField = column(left);
      const rightField = column(right);
      const field = leftField ?? rightField;
      const other = leftField === undefined ? left : right;
      if (field === undefined || mentions(other, 'record')) return undefined;
      const value = computed(other, env, context);
      // CEL's `==` with null or a value of another type differs from SQL's; those stay with CEL.
      if (!fits(field, value)) return undefined;
      const op = node.op as Comparison;
      return { kind: 'compare', field, op: leftField === undefined ? REVERSED[op] : op, value };
    }
  }
}

function computed(node: ASTNode, env: ExpressionEnvironment, context: ExpressionContext): unknown {
  const text = node.input.slice(node.range.start, node.range.end);
  const result = evaluateExpression(text, env, context);
  return result.ok ? toPlain(result.value, 0) : undefined;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * What a field of a record holds as a condition compares it, or undefined when CEL and SQL would compare
 * it differently (dates are days in CEL and text in SQL) or not at all (files, objects, lists).
 */
export function columnKindOf(model: Model, entity: Entity, name: string): ColumnKind | undefined {
  const field = entity.fields.find((candidate) => candidate.name === name);
  if (!field) return !entity.key && name === 'id' ? 'number' : undefined;
  switch (field.kind) {
    case 'text':
    case 'markdown':
    case 'enum':
      return 'text';
    case 'number':
    case 'integer':
    case 'money':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'reference': {
      const target = findEntity(model, field.entity);
      return target ? (hasNumericKey(target) ? 'number' : 'text') : undefined;
    }
    // Dates compare as days in CEL and as text in SQL; files, objects and lists are JSON.
    case 'date':
    case 'datetime':
    case 'file':
    case 'object':
    case 'list':
      return undefined;
    default:
      return exhaustiveSwitchError(field);
  }
}
