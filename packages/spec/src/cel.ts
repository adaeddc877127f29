import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { exhaustiveSwitchError } from './exhaustive';
import { findEntity } from './lookup';
import { type Entity, FIELD_KINDS, type FieldKind, type FieldType, type Model } from './model';

// CEL is the one expression language of a specification: transition guards and side effects, derived
// fields, cross-field rules and permission conditions. The checks, the client and the prototype API all
// build their environment here, so an expression means the same thing everywhere. cel-js interprets its
// AST and never compiles code from strings, so it runs under the client's CSP without `unsafe-eval`.

/** A CEL type name (`double`, `list<string>`, `map`, ...) or the fields of a nested object. */
export type CelType = string | CelSchema;

/** The fields of an object and their CEL types; cel-js turns it into a message type. */
export interface CelSchema {
  [field: string]: CelType;
}

/** The variables an expression may see, depending on where it is written. */
export type ScopeVariable = 'record' | 'old' | 'user' | 'now';
export const SCOPE_VARIABLES: readonly ScopeVariable[] = ['record', 'old', 'user', 'now'];

/** Where an expression is written: the entity its `record` (and `old`) belong to, and what it may use. */
export interface ExpressionScope {
  entity?: string;
  variables: readonly ScopeVariable[];
}

/** A CEL environment for one model and one scope. Treat it as read-only; it is cached and shared. */
export interface ExpressionEnvironment {
  /** The cel-js environment, for anything this module does not wrap. */
  readonly cel: Environment;
  /** The declared type of each variable, used to convert values before evaluation. */
  readonly variables: ReadonlyMap<ScopeVariable, CelType>;
  /** Names of the constants of point 9 that expressions can use. */
  readonly constants: readonly string[];
}

export type CheckExpressionResult =
  | { ok: true; type: string }
  | {
      ok: false;
      message: string;
      /** Character offset of the error inside the expression, when cel-js knows it. */
      offset?: number;
      /** cel-js error code, e.g. `no_such_key`, `unknown_variable`, `unexpected_token`. */
      code?: string;
    };

export type EvaluateExpressionResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Values for the scope's variables. Plain JSON as records are stored, plus `Date` for timestamps. */
export type ExpressionContext = Partial<Record<ScopeVariable, unknown>>;

/** The CEL type of timestamps (`date`, `datetime`, `now`); cel-js names it by its protobuf name. */
export const CEL_TIMESTAMP = 'google.protobuf.Timestamp';

// Object fields nest embedded entities; beyond this depth (or on a cycle) an object is a plain `map`.
const MAX_OBJECT_DEPTH = 5;

/**
 * The CEL type of a field's values: text, markdown and enum are `string`, number and money `double`,
 * integer `int`, boolean `bool`, date and datetime timestamps, a reference `dyn` (an id or an expanded
 * record), a file a `map`, an object the fields of its embedded entity (a `map` when the entity is
 * unknown, on a cycle or nested deeper than five levels) and a list `list<...>` (a list of objects is a
 * `list<map>`, because cel-js cannot nest a schema inside a list).
 *
 * @example
 * ```ts
 * celTypeOf({ kind: 'money', currency: 'EUR' }, model); // 'double'
 * celTypeOf({ kind: 'list', of: { kind: 'text' } }, model); // 'list<string>'
 * celTypeOf({ kind: 'object', entity: 'Address' }, model); // { street: 'string', postcode: 'string' }
 * ```
 */
export function celTypeOf(type: FieldType, model: Model): CelType {
  return typeAt(type, model, [], 0);
}

function typeAt(type: unknown, model: Model, seen: readonly string[], depth: number): CelType {
  const kind = kindOf(type);
  if (kind === undefined) return 'dyn';
  switch (kind) {
    case 'text':
    case 'markdown':
    case 'enum':
      return 'string';
    case 'number':
    case 'money':
      return 'double';
    case 'integer':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'date':
    case 'datetime':
      return CEL_TIMESTAMP;
    case 'reference':
      return 'dyn';
    case 'file':
      return 'map';
    case 'object': {
      const name = (type as { entity?: unknown }).entity;
      if (typeof name !== 'string' || seen.includes(name) || depth >= MAX_OBJECT_DEPTH) return 'map';
      const entity = findEntity(model, name);
      return entity ? entitySchema(entity, model, [...seen, name], depth + 1) : 'map';
    }
    case 'list': {
      if (depth > MAX_OBJECT_DEPTH * 2) return 'list';
      const inner = typeAt((type as { of?: unknown }).of, model, seen, depth + 1);
      return `list<${typeof inner === 'string' ? inner : 'map'}>`;
    }
    default:
      return exhaustiveSwitchError(kind);
  }
}

function kindOf(type: unknown): FieldKind | undefined {
  if (typeof type !== 'object' || type === null) return undefined;
  const kind = (type as { kind?: unknown }).kind;
  return FIELD_KINDS.find((known) => known === kind);
}

function entitySchema(entity: Entity, model: Model, seen: readonly string[], depth: number): CelSchema {
  // Without a prototype, a field named `__proto__` or `constructor` is a field like any other.
  const schema: CelSchema = Object.create(null);
  for (const field of Array.isArray(entity.fields) ? entity.fields : []) {
    if (typeof field !== 'object' || field === null || typeof field.name !== 'string') continue;
    // The first of two same-named fields wins, as everywhere else in the model.
    if (Object.hasOwn(schema, field.name)) continue;
    schema[field.name] = typeAt(field, model, seen, depth);
  }
  return schema;
}

const environments = new WeakMap<object, Map<string, ExpressionEnvironment>>();

/**
 * The CEL environment for expressions written in `scope`: `record` and `old` have the fields of the
 * scope's entity (a plain `map` when the entity is unknown or point 3 is not shown), `user` is a `map`,
 * `now` a timestamp, and every constant of point 9 is a CEL constant (whole numbers as `int`, other
 * numbers `double`, strings `string`, booleans `bool`). Environments are cached per model and scope;
 * the model is treated as immutable.
 *
 * @example
 * ```ts
 * const env = expressionEnvironment(model, { entity: 'Order', variables: ['record', 'user', 'now'] });
 * checkExpression('record.total <= MAX_ORDER_TOTAL', env); // { ok: true, type: 'bool' }
 * ```
 */
export function expressionEnvironment(model: Model, scope: ExpressionScope): ExpressionEnvironment {
  const wanted = Array.isArray(scope.variables) ? scope.variables : [];
  const variables = SCOPE_VARIABLES.filter((name) => wanted.includes(name));
  const entity = typeof scope.entity === 'string' ? scope.entity : undefined;
  const key = `${entity ?? ''}\u0000${variables.join(',')}`;
  const cacheable = typeof model === 'object' && model !== null;
  const cached = cacheable ? environments.get(model)?.get(key) : undefined;
  if (cached) return cached;

  const environment = buildEnvironment(model, entity, variables);
  if (cacheable) {
    const perModel = environments.get(model) ?? new Map<string, ExpressionEnvironment>();
    perModel.set(key, environment);
    environments.set(model, perModel);
  }
  return environment;
}

function buildEnvironment(
  model: Model,
  entityName: string | undefined,
  variables: readonly ScopeVariable[],
): ExpressionEnvironment {
  const entity = entityName === undefined ? undefined : findEntity(model, entityName);
  const recordType: CelType = entity ? entitySchema(entity, model, [entity.name], 0) : 'map';
  const types = new Map<ScopeVariable, CelType>();
  for (const name of variables) types.set(name, variableType(name, recordType));

  let cel: Environment;
  try {
    cel = baseEnvironment().clone();
    for (const [name, type] of types) registerVariable(cel, name, type);
  } catch {
    // A field name cel-js cannot turn into a message type: fall back to untyped records rather than
    // failing every expression of the entity. Field names are still checked elsewhere in the model.
    cel = baseEnvironment().clone();
    for (const [name, type] of types) {
      const loose = typeof type === 'string' ? type : 'map';
      types.set(name, loose);
      registerVariable(cel, name, loose);
    }
  }
  const constants = registerConstants(cel, model, new Set<string>(types.keys()));
  return { cel, variables: types, constants };
}

let base: Environment | undefined;

/** The functions every expression has; each scope clones it (cloning freezes it, which is intended). */
function baseEnvironment(): Environment {
  if (base === undefined) {
    // cel-js has no `sum()`, but Kubernetes CEL's list library does, and totals over order lines need it:
    // `record.lines.map(l, double(l.quantity) * l.unitPrice).sum()`. One `dyn` overload only: cel-js picks
    // the first overload whose receiver fits, so typed ones would claim `int` for a list of map items
    // (which are `dyn`) and then receive doubles. The handler checks its numbers at run time instead.
    base = new Environment().registerFunction('list<dyn>.sum(): dyn', sumNumbers, {
      description: 'The sum of a list of numbers: an int if all are ints, else a double; 0 when empty.',
    });
  }
  return base;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function sumInts(values: readonly bigint[]): bigint {
  let total = 0n;
  for (const value of values) total += value;
  if (total < INT64_MIN || total > INT64_MAX) throw new Error('The sum overflows a 64-bit int');
  return total;
}

function sumNumbers(values: readonly unknown[]): bigint | number {
  const numbers: Array<bigint | number> = [];
  for (const value of values) {
    if (typeof value !== 'bigint' && typeof value !== 'number') {
      throw new Error(
        `Only numbers can be summed, but the list holds a ${value === null ? 'null' : typeof value}`,
      );
    }
    numbers.push(value);
  }
  if (numbers.every((value) => typeof value === 'bigint')) return sumInts(numbers as bigint[]);
  let total = 0;
  for (const value of numbers) total += Number(value);
  return total;
}

function variableType(name: ScopeVariable, recordType: CelType): CelType {
  switch (name) {
    case 'record':
    case 'old':
      return recordType;
    case 'user':
      return 'map';
    case 'now':
      return CEL_TIMESTAMP;
    default:
      return exhaustiveSwitchError(name);
  }
}

function registerVariable(cel: Environment, name: string, type: CelType): void {
  if (typeof type === 'string') cel.registerVariable(name, type);
  else cel.registerVariable({ name, schema: type });
}

function registerConstants(cel: Environment, model: Model, taken: Set<string>): string[] {
  const point = (model as { constants?: unknown } | undefined)?.constants as
    | { shown?: unknown; items?: unknown }
    | undefined;
  if (typeof point !== 'object' || point === null || point.shown !== true || !Array.isArray(point.items)) {
    return [];
  }
  const names: string[] = [];
  for (const item of point.items as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, value } = item as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || taken.has(name)) continue;
    const typed = constantTyped(value);
    if (!typed) continue;
    try {
      cel.registerConstant(name, typed.type, typed.value);
      taken.add(name);
      names.push(name);
    } catch {
      // A name CEL reserves (`in`, `true`, ...) cannot be a constant; expressions just cannot use it.
    }
  }
  return names;
}

function constantTyped(value: unknown): { type: string; value: unknown } | undefined {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return { type: 'int', value: BigInt(value) };
    return Number.isFinite(value) ? { type: 'double', value } : undefined;
  }
  if (typeof value === 'string') return { type: 'string', value };
  if (typeof value === 'boolean') return { type: 'bool', value };
  return undefined;
}

/**
 * Type-checks an expression without evaluating it. Never throws: a syntax error, an unknown field or
 * variable, or a type mismatch comes back as `ok: false` with the first line of cel-js's message and,
 * when known, the character offset of the error inside the expression.
 *
 * @example
 * ```ts
 * checkExpression('record.totl > 0', env);
 * // { ok: false, message: 'No such key: totl', offset: 7, code: 'no_such_key' }
 * ```
 */
export function checkExpression(expression: string, env: ExpressionEnvironment): CheckExpressionResult {
  try {
    if (typeof expression !== 'string') return { ok: false, message: 'An expression must be text' };
    if (expression.trim() === '') return { ok: false, message: 'The expression is empty', offset: 0 };
    const result = env.cel.check(expression);
    if (result.valid) return { ok: true, type: result.type ?? 'dyn' };
    const error = result.error;
    const failure: CheckExpressionResult = { ok: false, message: cleanMessage(error) };
    const offset = error?.node?.pos ?? error?.range?.start;
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) failure.offset = offset;
    if (typeof error?.code === 'string') failure.code = error.code;
    return failure;
  } catch (error) {
    return { ok: false, message: cleanMessage(error) };
  }
}

/**
 * Evaluates an expression against plain values. Values are converted to what CEL expects from the
 * declared types: whole numbers become `BigInt` for `int` fields, `BigInt`s become numbers for `double`
 * fields, ISO strings become `Date`s for timestamps, and `null` or absent fields are left out, so that
 * `has(record.x)` is false and reading `record.x` is an error rather than a type mismatch. Values of
 * `map` and `dyn` types (the user, references, files, list items that are objects) pass unchanged. The
 * result is plain again: `int`s come back as numbers, timestamps as ISO strings and maps as objects.
 * Never throws.
 *
 * @example
 * ```ts
 * evaluateExpression('record.total <= MAX_ORDER_TOTAL && record.lines.size() > 0', env, {
 *   record: { total: 120.5, lines: [{ product: 'p1', quantity: 2 }] },
 * }); // { ok: true, value: true }
 * ```
 */
export function evaluateExpression(
  expression: string,
  env: ExpressionEnvironment,
  context: ExpressionContext,
): EvaluateExpressionResult {
  try {
    if (typeof expression !== 'string') return { ok: false, message: 'An expression must be text' };
    const values: Record<string, unknown> = {};
    for (const [name, type] of env.variables) {
      const value = context?.[name];
      if (value !== undefined) values[name] = toCel(value, type, 0);
    }
    const result: unknown = parsed(env, expression)(values);
    if (result instanceof Promise) {
      // Only async custom functions make cel-js answer with a promise, and none are registered.
      result.catch(() => undefined);
      return { ok: false, message: 'The expression needs asynchronous functions, which are not available' };
    }
    return { ok: true, value: toPlain(result, 0) };
  } catch (error) {
    return { ok: false, message: cleanMessage(error) };
  }
}

const parsedExpressions = new WeakMap<ExpressionEnvironment, Map<string, ParseResult>>();

// Parsing is the expensive part; a record list evaluates the same guard once per row.
function parsed(env: ExpressionEnvironment, expression: string): ParseResult {
  let perEnvironment = parsedExpressions.get(env);
  if (!perEnvironment) {
    perEnvironment = new Map();
    parsedExpressions.set(env, perEnvironment);
  }
  let result = perEnvironment.get(expression);
  if (!result) {
    result = env.cel.parse(expression);
    perEnvironment.set(expression, result);
  }
  return result;
}

const MAX_VALUE_DEPTH = 64;

function toCel(value: unknown, type: CelType, depth: number): unknown {
  if (depth > MAX_VALUE_DEPTH) return value;
  if (typeof type !== 'string') {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
      return value;
    }
    const converted: Record<string, unknown> = Object.create(null);
    for (const [key, item] of Object.entries(value)) {
      const fieldType = Object.hasOwn(type, key) ? type[key] : undefined;
      if (fieldType === undefined || item === null || item === undefined) continue;
      converted[key] = toCel(item, fieldType, depth + 1);
    }
    return converted;
  }
  if (type === 'int') {
    return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (type === 'double') return typeof value === 'bigint' ? Number(value) : value;
  if (type === CEL_TIMESTAMP) {
    if (typeof value !== 'string') return value;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date;
  }
  const list = /^list<(.*)>$/.exec(type);
  if (list?.[1] !== undefined && Array.isArray(value)) {
    const inner = list[1];
    return value.map((item) => toCel(item, inner, depth + 1));
  }
  return value;
}

function toPlain(value: unknown, depth: number): unknown {
  if (depth > MAX_VALUE_DEPTH) return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => toPlain(item, depth + 1));
  if (value instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of value) object[String(key)] = toPlain(item, depth + 1);
    return object;
  }
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) object[key] = toPlain(item, depth + 1);
    return object;
  }
  return value;
}

/** The first line of a cel-js error (the rest is a caret drawing), worded for people. */
function cleanMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const first = (raw.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
  if (first === '') return 'The expression is not valid';
  const worded = first.replace(/\bEOF\b/, 'end of expression');
  return worded.charAt(0).toUpperCase() + worded.slice(1);
}
