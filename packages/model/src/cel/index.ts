import { type ASTNode, Environment, type ParseResult } from '@marcbachmann/cel-js';
import { exhaustiveSwitchError } from '../exhaustive';
import { findEntity } from '../lookup';
import { type Entity, FIELD_KINDS, type FieldKind, type FieldType, type Model } from '../model';
import type { RecordReader } from '../rules/records';
import { findNode, mentions } from './ast';
import {
  entitiesNamedByRecordFunctions,
  entityTypeName,
  NAMES_A_RECORD_FUNCTION,
  RECORD_READER,
  readsOtherRecords,
  registerRecordFunctions,
} from './records';
import { CEL_TIMESTAMP, type CelSchema, type CelType, toCel, toPlain } from './values';

export { CEL_TIMESTAMP, type CelSchema, type CelType } from './values';

// CEL is the one expression language of a specification: transition guards and side effects, derived
// fields, cross-field rules and permission conditions. The checks, the client and the prototype API all
// build their environment here, so an expression means the same thing everywhere. cel-js interprets its
// AST and never compiles code from strings, so it runs under the client's CSP without `unsafe-eval`.

/** The variables an expression may see, depending on where it is written. */
export type ScopeVariable = 'record' | 'old' | 'user' | 'now' | 'today';
export const SCOPE_VARIABLES: readonly ScopeVariable[] = ['record', 'old', 'user', 'now', 'today'];

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
  /** The IANA time zone in which `today` starts (point 1); UTC when not shown. */
  readonly timeZone: string;
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

export type EvaluateExpressionResult =
  | { ok: true; value: unknown }
  | {
      ok: false;
      message: string;
      /**
       * The expression read a field the record does not have: an empty value, which the field's own
       * checks speak for, rather than an expression that cannot work (a type that does not fit, a date
       * that is no date), which is the specification's fault.
       */
      missing?: true;
    };

/** Values for the scope's variables. Plain JSON as records are stored, plus `Date` for timestamps. */
export type ExpressionContext = Partial<Record<ScopeVariable, unknown>>;

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

  const parent = modelEnvironment(model);
  let cel: Environment;
  try {
    cel = parent.clone();
    for (const [name, type] of types) registerVariable(cel, name, type);
  } catch {
    // A field name cel-js cannot turn into a message type: fall back to untyped records rather than
    // failing every expression of the entity. Field names are still checked elsewhere in the model.
    cel = parent.clone();
    for (const [name, type] of types) {
      const loose = typeof type === 'string' ? type : 'map';
      types.set(name, loose);
      registerVariable(cel, name, loose);
    }
  }
  const constants = registerConstants(cel, model, new Set<string>(types.keys()));
  return { cel, variables: types, constants, timeZone: timeZoneOf(model) };
}

const modelEnvironments = new WeakMap<object, Environment>();

/**
 * The base functions plus the record functions (`count`, `lookup`, …) and the types of the entities
 * the model's expressions name in them; shared by every scope of one model. Only named entities are
 * typed, so a model of hundreds of entities without such expressions costs nothing here.
 */
function modelEnvironment(model: Model): Environment {
  const cacheable = typeof model === 'object' && model !== null;
  const cached = cacheable ? modelEnvironments.get(model) : undefined;
  if (cached) return cached;
  const cel = baseEnvironment().clone();
  const schemas = new Map<string, CelSchema>();
  for (const name of entitiesNamedByRecordFunctions(expressionsOf(model))) {
    const entity = findEntity(model, name);
    if (!entity || entity.embedded || !Array.isArray(entity.fields)) continue;
    const schema = entitySchema(entity, model, [entity.name], 0);
    try {
      cel.registerType({ name: entityTypeName(entity.name), schema });
      schemas.set(entity.name, schema);
    } catch {
      // A name or field cel-js cannot type: the record functions say the entity cannot be named.
    }
  }
  registerRecordFunctions(cel, schemas);
  if (cacheable) modelEnvironments.set(model, cel);
  return cel;
}

/** Every expression text of a model, wherever it stands; for a model of any shape. */
function expressionsOf(model: Model): string[] {
  const texts: unknown[] = [];
  const items = (point: unknown, key: string): unknown[] => {
    const value = (point as Record<string, unknown> | undefined)?.[key];
    return (point as { shown?: unknown } | undefined)?.shown === true && Array.isArray(value) ? value : [];
  };
  for (const rule of items(model?.validation, 'rules')) texts.push((rule as { check?: unknown })?.check);
  for (const grant of items(model?.roles, 'grants')) texts.push((grant as { where?: unknown })?.where);
  for (const entity of items(model?.entities, 'items')) {
    const fields = (entity as { fields?: unknown })?.fields;
    for (const field of Array.isArray(fields) ? fields : []) {
      texts.push(
        (field as { derived?: unknown })?.derived,
        (field as { setOnCreate?: unknown })?.setOnCreate,
      );
    }
  }
  for (const machine of items(model?.states, 'machines')) {
    const transitions = (machine as { transitions?: unknown })?.transitions;
    for (const step of Array.isArray(transitions) ? transitions : []) {
      texts.push((step as { guard?: unknown })?.guard);
      const set = (step as { set?: unknown })?.set;
      for (const item of Array.isArray(set) ? set : [])
        texts.push((item as { expression?: unknown })?.expression);
    }
  }
  return texts.filter((text): text is string => typeof text === 'string');
}

function timeZoneOf(model: Model): string {
  const zone = (model?.product as { timeZone?: unknown } | undefined)?.timeZone;
  return typeof zone === 'string' && isTimeZone(zone) ? zone : 'UTC';
}

/** Whether the runtime knows an IANA time zone name. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** One per time zone: making a formatter costs far more than using one, and every evaluation asks. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The start of the day `now` falls on in `timeZone`, as a timestamp at midnight UTC of that date: dates
 * are stored as days without a zone, so `record.dueOn < today` compares day with day.
 *
 * @example
 * ```ts
 * today(new Date('2026-11-24T23:30:00Z'), 'Europe/Amsterdam'); // 2026-11-25T00:00:00.000Z
 * ```
 */
export function today(now: Date, timeZone: string): Date {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const part = (type: string) => parts.find((item) => item.type === type)?.value ?? '';
  return new Date(`${part('year')}-${part('month')}-${part('day')}T00:00:00Z`);
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
    case 'today':
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

/**
 * A constant as CEL sees it. A date (`2026-10-31`) is a timestamp at the start of that day, as `today` and
 * date fields are, so `today <= CLOSES` compares day with day in the product's time zone; a date and time
 * with its offset (`2026-10-31T17:00:00+01:00`) is that instant, beside `now`.
 */
function constantTyped(value: unknown): { type: string; value: unknown } | undefined {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return { type: 'int', value: BigInt(value) };
    return Number.isFinite(value) ? { type: 'double', value } : undefined;
  }
  const instant = typeof value === 'string' ? constantInstant(value) : undefined;
  if (instant) return { type: CEL_TIMESTAMP, value: instant };
  if (typeof value === 'string') return { type: 'string', value };
  if (typeof value === 'boolean') return { type: 'bool', value };
  return undefined;
}

const DATE_CONSTANT = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT_CONSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** The instant a constant's text names, when it is a real date (`2026-02-30` is not) or date and time. */
function constantInstant(text: string): Date | undefined {
  if (DATE_CONSTANT.test(text)) {
    const day = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text ? undefined : day;
  }
  if (!INSTANT_CONSTANT.test(text)) return undefined;
  const instant = new Date(text);
  return Number.isNaN(instant.getTime()) ? undefined : instant;
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
    const result: unknown = parsed(env, expression)(celValues(env, context));
    if (result instanceof Promise) {
      // Only the record functions make cel-js answer with a promise; they need `evaluateWithRecords`.
      result.catch(() => undefined);
      return { ok: false, message: 'The expression reads other records, which only the API can do' };
    }
    return { ok: true, value: toPlain(result, 0) };
  } catch (error) {
    return failure(error);
  }
}

function failure(error: unknown): EvaluateExpressionResult {
  const message = cleanMessage(error);
  // cel-js's one way of saying a map has no such key; records leave empty fields out.
  return /^No such key\b/.test(message) ? { ok: false, message, missing: true } : { ok: false, message };
}

/**
 * Evaluates an expression that may read other records (`count(…)`, `lookup(…)`) through `reader`: the
 * prototype API passes one that runs SQL in the write's transaction, an in-memory store one over its
 * arrays. Otherwise as `evaluateExpression`; never rejects.
 */
export async function evaluateWithRecords(
  expression: string,
  env: ExpressionEnvironment,
  context: ExpressionContext,
  reader: RecordReader,
): Promise<EvaluateExpressionResult> {
  try {
    if (typeof expression !== 'string') return { ok: false, message: 'An expression must be text' };
    const values = { ...celValues(env, context), [RECORD_READER]: reader };
    // Parsed afresh each time: cel-js 8 answers nothing on the second run of a cached expression whose
    // comprehension awaits (`record.lines.all(l, … lookup(…) …)`). A parse costs far less than the SQL.
    const result: unknown = await env.cel.parse(expression)(values);
    return { ok: true, value: toPlain(result, 0) };
  } catch (error) {
    return failure(error);
  }
}

/**
 * Whether an expression reads other records, so that only `evaluateWithRecords` can evaluate it (the
 * client leaves such rules to the API). Asked of every rule on every save: the parse is the cached one.
 */
export function expressionReadsRecords(expression: string, env: ExpressionEnvironment): boolean {
  if (typeof expression !== 'string' || !NAMES_A_RECORD_FUNCTION.test(expression)) {
    return false;
  }
  const ast = expressionAst(expression, env);
  return ast !== undefined && readsOtherRecords(ast);
}

/**
 * Whether an expression reads a variable by name (`user`, not a field `record.user`): a guard that reads
 * the person is decided only when someone takes the step. False for one that does not parse.
 */
export function expressionReadsVariable(
  expression: string,
  env: ExpressionEnvironment,
  variable: string,
): boolean {
  const ast = expressionAst(expression, env);
  return ast !== undefined && mentions(ast, variable);
}

/**
 * A conversion of a fixed text that can never work (`timestamp("2026-10-31")`: a timestamp needs a time
 * and an offset): the type check passes it, and every evaluation would throw. Undefined when there is
 * none, or when the expression does not parse.
 *
 * @example
 * ```ts
 * fixedConversionFailure('today <= timestamp("2026-10-31")', env);
 * // { message: 'Timestamp() requires a string in ISO 8601 format', offset: 9 }
 * ```
 */
export function fixedConversionFailure(
  expression: string,
  env: ExpressionEnvironment,
): { message: string; offset?: number } | undefined {
  const root = expressionAst(expression, env);
  if (!root) return undefined;
  let found: { message: string; offset?: number } | undefined;
  findNode(root, (node) => {
    if (node.op !== 'call') return false;
    const [name, args] = node.args as [string, ASTNode[]];
    const [only] = args;
    if (!FIXED_CONVERSIONS.has(name) || args.length !== 1 || only?.op !== 'value') return false;
    if (typeof only.args !== 'string') return false;
    const result = evaluateExpression(`${name}(${JSON.stringify(only.args)})`, env, {});
    if (result.ok) return false;
    const offset = (node as { pos?: unknown }).pos;
    found = { message: result.message, ...(typeof offset === 'number' ? { offset } : {}) };
    return true;
  });
  return found;
}

const FIXED_CONVERSIONS = new Set(['timestamp', 'duration']);

/** The parsed form of an expression, from the same cache evaluations use; undefined when it does not parse. */
export function expressionAst(expression: string, env: ExpressionEnvironment): ASTNode | undefined {
  try {
    return parsed(env, expression).ast;
  } catch {
    return undefined;
  }
}

function celValues(env: ExpressionEnvironment, context: ExpressionContext): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, type] of env.variables) {
    let value = context?.[name];
    // `today` follows from the clock the caller gave, in the product's time zone.
    if (name === 'today' && value === undefined) {
      const clock = context?.now;
      value = today(clock instanceof Date ? clock : new Date(), env.timeZone);
    }
    if (value !== undefined) values[name] = toCel(value, type, 0);
  }
  return values;
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

/** The first line of a cel-js error (the rest is a caret drawing), worded for people. */
function cleanMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const first = (raw.split('\n')[0] ?? '').replace(/\s+/g, ' ').trim();
  if (first === '') return 'The expression is not valid';
  const worded = first.replace(/\bEOF\b/, 'end of expression');
  return worded.charAt(0).toUpperCase() + worded.slice(1);
}
