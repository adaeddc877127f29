import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import type { JsonValue } from '../model';
import {
  AGGREGATE_FUNCTIONS,
  type AggregateFunction,
  type Comparison,
  type RecordCondition,
  type RecordReader,
} from '../rules/records';
import { COMPARISONS, fieldOf, findNode, mentions, REVERSED, someNode } from './ast';
import { type CelSchema, toCel, toPlain } from './values';

// Functions that reach records other than the one an expression is about:
//
//   count(Ticket, t, t.customer == record.customer && t.status == "open") < MAX_OPEN_TICKETS
//   exists(Order, o, o.customer == record.id && o.status != "delivered")
//   sum(Order, o, o.total, o.customer == record.customer) + record.total <= 1000.0
//   min(Order, o, o.placedOn, o.customer == record.id), max(…)
//   record.lines.all(l, l.quantity <= lookup(Product, l.product).stock)
//
// They are cel-js macros, so that `check` types them like any expression: the entity's records have its
// fields, and the condition's parts that compare a field of the other entity must be translatable to SQL
// (comparisons, &&, ||, !, `in` and has()). Everything in the condition that does not name the other
// record (`record.customer`, `user.id`, a constant, `now`) is computed first and becomes a bound value.

/** The entity types the record functions may name, registered in an environment under these names. */
export function entityTypeName(entity: string): string {
  return `ninefold.${entity}`;
}

/** The context key under which an evaluation passes its `RecordReader`; no expression can name it. */
export const RECORD_READER: unique symbol = Symbol('ninefold.recordReader');

export const RECORD_FUNCTIONS = [...AGGREGATE_FUNCTIONS, 'lookup'] as const;
export type RecordFunction = (typeof RECORD_FUNCTIONS)[number];

const ARITY: Record<RecordFunction, number> = { count: 3, exists: 3, sum: 4, min: 4, max: 4, lookup: 2 };

const USAGE: Record<RecordFunction, string> = {
  count: 'count(Entity, x, condition)',
  exists: 'exists(Entity, x, condition)',
  sum: 'sum(Entity, x, x.field, condition)',
  min: 'min(Entity, x, x.field, condition)',
  max: 'max(Entity, x, x.field, condition)',
  lookup: 'lookup(Entity, key)',
};

/** The kinds of value a condition can compare in SQL: scalar columns and references. */
const COLUMN_TYPES = new Set(['int', 'double', 'string', 'bool', 'google.protobuf.Timestamp', 'dyn']);

/** The names a model's expressions pass as the first argument of a record function. */
export function entitiesNamedByRecordFunctions(expressions: Iterable<string>): Set<string> {
  const names = new Set<string>();
  const call = new RegExp(`\\b(?:${RECORD_FUNCTIONS.join('|')})\\s*\\(\\s*([A-Za-z_][A-Za-z0-9_]*)`, 'g');
  for (const expression of expressions) {
    if (typeof expression !== 'string') continue;
    for (const match of expression.matchAll(call)) if (match[1]) names.add(match[1]);
  }
  return names;
}

/** A quick test before any parse: a text that fails it calls no record function. */
export const NAMES_A_RECORD_FUNCTION = new RegExp(`\\b(?:${RECORD_FUNCTIONS.join('|')})\\s*\\(`);

/** Whether a parsed expression calls a record function, so that it needs a `RecordReader`. */
export function readsOtherRecords(ast: ASTNode): boolean {
  return someNode(ast, isRecordCall);
}

function isRecordCall(node: ASTNode): boolean {
  if (node.op !== 'call') return false;
  const [name, args] = node.args as [string, ASTNode[]];
  return (
    (RECORD_FUNCTIONS as readonly string[]).includes(name) && args.length === ARITY[name as RecordFunction]
  );
}

/** Registers the record functions; `schemas` are the CEL fields of each entity they may name. */
export function registerRecordFunctions(cel: Environment, schemas: ReadonlyMap<string, CelSchema>): void {
  for (const fn of AGGREGATE_FUNCTIONS) {
    const signature = `${fn}(${Array.from({ length: ARITY[fn] }, () => 'ast').join(', ')}): dyn`;
    cel.registerFunction(signature, ({ args, ast }: MacroInput) => aggregateMacro(fn, args, ast, schemas));
  }
  cel.registerFunction('lookup(ast, ast): dyn', ({ args, ast }: MacroInput) =>
    lookupMacro(args, ast, schemas),
  );
}

interface MacroInput {
  args: ASTNode[];
  ast: ASTNode;
}

// cel-js's checker and evaluator are not part of its typed API; these are the few members macros use.
interface Checker {
  check(node: ASTNode, ctx: CheckContext): CelTypeDecl;
  getType(name: string): CelTypeDecl;
  createError(code: string, message: string, node: ASTNode): Error;
}
interface CheckContext {
  forkWithVariable(name: string, type: CelTypeDecl): CheckContext;
  getVariable(name: string): unknown;
}
interface CelTypeDecl {
  name: string;
}
interface Evaluator {
  run(node: ASTNode, ctx: EvalContext): unknown;
  objectTypes: Map<string, { convert?: (value: unknown) => unknown }>;
}
interface EvalContext {
  getValue(key: unknown): unknown;
}

function aggregateMacro(
  fn: AggregateFunction,
  args: ASTNode[],
  ast: ASTNode,
  schemas: ReadonlyMap<string, CelSchema>,
) {
  const [entityNode, variableNode] = args as [ASTNode, ASTNode];
  const valueNode = ARITY[fn] === 4 ? args[2] : undefined;
  const conditionNode = args[ARITY[fn] - 1] as ASTNode;
  let entity = '';
  let variable = '';
  let field: string | undefined;
  let valueType = 'dyn';
  return {
    args,
    ast,
    async: true,
    typeCheck(checker: Checker, _macro: unknown, ctx: CheckContext): CelTypeDecl {
      entity = entityArgument(fn, entityNode, checker, schemas);
      variable = variableArgument(fn, variableNode, checker, ctx);
      const inner = ctx.forkWithVariable(variable, checker.getType(entityTypeName(entity)));
      if (valueNode) {
        field = fieldOf(valueNode, variable);
        if (field === undefined) {
          throw checker.createError(
            'invalid_macro_argument',
            `${USAGE[fn]}: the third argument names a field of ${variable}, such as ${variable}.total`,
            valueNode,
          );
        }
        valueType = checker.check(valueNode, inner).name;
        const numeric = valueType === 'int' || valueType === 'double';
        if (fn === 'sum' ? !numeric : !COLUMN_TYPES.has(valueType) || valueType === 'bool') {
          throw checker.createError(
            'invalid_macro_argument',
            `${fn}() needs a field of numbers${fn === 'sum' ? '' : ', dates or text'}, and ${variable}.${field} is ${valueType}`,
            valueNode,
          );
        }
      }
      checkCondition(fn, conditionNode, variable, checker, inner);
      switch (fn) {
        case 'count':
          return checker.getType('int');
        case 'exists':
          return checker.getType('bool');
        default:
          return checker.getType(valueType);
      }
    },
    async evaluate(ev: Evaluator, _macro: unknown, ctx: EvalContext): Promise<unknown> {
      const reader = readerOf(ctx, fn);
      const where = await conditionOf(conditionNode, variable, ev, ctx);
      const answer = await reader.aggregate({ entity, fn, ...(field === undefined ? {} : { field }), where });
      return toCelResult(fn, answer, valueType);
    },
  };
}

function lookupMacro(args: ASTNode[], ast: ASTNode, schemas: ReadonlyMap<string, CelSchema>) {
  const [entityNode, keyNode] = args as [ASTNode, ASTNode];
  let entity = '';
  return {
    args,
    ast,
    async: true,
    typeCheck(checker: Checker, _macro: unknown, ctx: CheckContext): CelTypeDecl {
      entity = entityArgument('lookup', entityNode, checker, schemas);
      const keyType = checker.check(keyNode, ctx).name;
      if (!['int', 'string', 'dyn', 'uint'].includes(keyType)) {
        throw checker.createError(
          'invalid_macro_argument',
          `lookup(${entity}, key): a key is a reference, a number or text, not ${keyType}`,
          keyNode,
        );
      }
      return checker.getType(entityTypeName(entity));
    },
    async evaluate(ev: Evaluator, _macro: unknown, ctx: EvalContext): Promise<unknown> {
      const reader = readerOf(ctx, 'lookup');
      const key = toPlain(await ev.run(keyNode, ctx), 0) as JsonValue;
      const found = await reader.lookup(entity, key);
      if (!found) throw new Error(`There is no ${entity} ${JSON.stringify(key)}`);
      const schema = schemas.get(entity) ?? {};
      const typed = toCel(found, schema, 0);
      return ev.objectTypes.get(entityTypeName(entity))?.convert?.(typed) ?? typed;
    },
  };
}

function readerOf(ctx: EvalContext, fn: RecordFunction): RecordReader {
  const reader = ctx.getValue(RECORD_READER) as RecordReader | undefined;
  if (!reader) throw new Error(`${fn}() reads other records, which only the API can do`);
  return reader;
}

function entityArgument(
  fn: RecordFunction,
  node: ASTNode,
  checker: Checker,
  schemas: ReadonlyMap<string, CelSchema>,
): string {
  if (node.op !== 'id') {
    throw checker.createError(
      'invalid_macro_argument',
      `${USAGE[fn]}: the first argument is the name of an entity`,
      node,
    );
  }
  const name = node.args as string;
  if (!schemas.has(name)) {
    const known = [...schemas.keys()];
    throw checker.createError(
      'unknown_entity',
      `${name} is not an entity with records of its own${known.length ? ` (entities: ${known.slice(0, 8).join(', ')})` : ''}`,
      node,
    );
  }
  return name;
}

function variableArgument(fn: RecordFunction, node: ASTNode, checker: Checker, ctx: CheckContext): string {
  if (node.op !== 'id') {
    throw checker.createError(
      'invalid_macro_argument',
      `${USAGE[fn]}: the second argument names each record, such as x`,
      node,
    );
  }
  const name = node.args as string;
  if (ctx.getVariable(name) !== undefined) {
    throw checker.createError(
      'invalid_macro_argument',
      `${name} already means something here; name the records of ${fn}() otherwise`,
      node,
    );
  }
  return name;
}

/**
 * The condition must translate to SQL where it names the other record: comparisons of one of its fields
 * with a value, `in`, has(), and &&, || and ! over those. Parts that do not name it are values computed
 * first; a record function may not nest inside another.
 */
function checkCondition(
  fn: RecordFunction,
  node: ASTNode,
  variable: string,
  checker: Checker,
  ctx: CheckContext,
): void {
  const nested = findNode(node, isRecordCall);
  if (nested) {
    throw checker.createError(
      'invalid_macro_argument',
      `${fn}() cannot hold another record function`,
      nested,
    );
  }
  const type = checker.check(node, ctx).name;
  if (type !== 'bool' && type !== 'dyn') {
    throw checker.createError(
      'invalid_macro_argument',
      `The condition of ${fn}() must be true or false, not ${type}`,
      node,
    );
  }
  translatable(fn, node, variable, checker, ctx);
}

function translatable(
  fn: RecordFunction,
  node: ASTNode,
  variable: string,
  checker: Checker,
  ctx: CheckContext,
): void {
  if (!mentions(node, variable)) return;
  switch (node.op) {
    case '&&':
    case '||':
      for (const part of node.args as [ASTNode, ASTNode]) translatable(fn, part, variable, checker, ctx);
      return;
    case '!_':
      translatable(fn, node.args as ASTNode, variable, checker, ctx);
      return;
    case 'in': {
      const [left, right] = node.args as [ASTNode, ASTNode];
      if (columnField(left, variable, checker, ctx) !== undefined && !mentions(right, variable)) return;
      break;
    }
    case 'call': {
      const [name, args] = node.args as [string, ASTNode[]];
      if (name === 'has' && args.length === 1 && fieldOf(args[0] as ASTNode, variable) !== undefined) return;
      break;
    }
    default:
      if (COMPARISONS.has(node.op)) {
        const [left, right] = node.args as [ASTNode, ASTNode];
        const leftField = columnField(left, variable, checker, ctx);
        const rightField = columnField(right, variable, checker, ctx);
        if (leftField !== undefined && !mentions(right, variable)) return;
        if (rightField !== undefined && !mentions(left, variable)) return;
      }
  }
  throw checker.createError(
    'untranslatable_condition',
    `The condition of ${fn}() can compare a field of ${variable} with a value (==, !=, <, <=, >, >=, in, has()) and join such comparisons with &&, || and !; "${node.input.slice(node.start, node.end)}" is not one of them`,
    node,
  );
}

/** `x.field` where the field is a column SQL can compare; undefined otherwise. */
function columnField(
  node: ASTNode,
  variable: string,
  checker: Checker,
  ctx: CheckContext,
): string | undefined {
  const field = fieldOf(node, variable);
  if (field === undefined) return undefined;
  const type = checker.check(node, ctx).name;
  if (!COLUMN_TYPES.has(type)) {
    throw checker.createError(
      'untranslatable_condition',
      `${variable}.${field} holds ${type}, which a condition cannot compare; compare a field of text, numbers, dates, yes/no or a reference`,
      node,
    );
  }
  return field;
}

/** The condition as data, with every part that does not name the other record computed now. */
async function conditionOf(
  node: ASTNode,
  variable: string,
  ev: Evaluator,
  ctx: EvalContext,
): Promise<RecordCondition> {
  if (!mentions(node, variable)) {
    return { kind: 'constant', value: (await ev.run(node, ctx)) === true };
  }
  switch (node.op) {
    case '&&':
    case '||': {
      // Left to right and short-circuited, as CEL reads it: in `!has(record.id) || o.id != record.id`
      // the right side is never computed for a new record, which has no id to compare.
      const decisive = node.op === '||';
      const parts: RecordCondition[] = [];
      for (const side of node.args as [ASTNode, ASTNode]) {
        const part = await conditionOf(side, variable, ev, ctx);
        if (part.kind === 'constant' && part.value === decisive) return part;
        parts.push(part);
      }
      return { kind: decisive ? 'any' : 'all', of: parts };
    }
    case '!_':
      return { kind: 'not', of: await conditionOf(node.args as ASTNode, variable, ev, ctx) };
    case 'in': {
      const [left, right] = node.args as [ASTNode, ASTNode];
      const values = toPlain(await ev.run(right, ctx), 0);
      return {
        kind: 'in',
        field: fieldOf(left, variable) as string,
        values: Array.isArray(values) ? (values as JsonValue[]) : [],
      };
    }
    case 'call': {
      const [, args] = node.args as [string, ASTNode[]];
      return { kind: 'has', field: fieldOf(args[0] as ASTNode, variable) as string };
    }
    default: {
      const [left, right] = node.args as [ASTNode, ASTNode];
      const op = node.op as Comparison;
      const leftField = fieldOf(left, variable);
      const field = leftField ?? (fieldOf(right, variable) as string);
      const other = leftField === undefined ? left : right;
      const value = toPlain(await ev.run(other, ctx), 0) as JsonValue;
      return { kind: 'compare', field, op: leftField === undefined ? REVERSED[op] : op, value };
    }
  }
}

function toCelResult(fn: AggregateFunction, answer: JsonValue, valueType: string): unknown {
  switch (fn) {
    case 'count':
      return BigInt(typeof answer === 'number' ? Math.trunc(answer) : 0);
    case 'exists':
      return answer === true;
    case 'sum':
      if (valueType === 'int') return BigInt(typeof answer === 'number' ? Math.trunc(answer) : 0);
      return typeof answer === 'number' ? answer : 0;
    case 'min':
    case 'max':
      if (answer === null || answer === undefined) {
        throw new Error(`${fn}() of no records has no value; ask exists() first`);
      }
      return toCel(answer, valueType, 0);
    default:
      return answer;
  }
}
