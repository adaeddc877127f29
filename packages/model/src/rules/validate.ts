import { Validator } from '@cfworker/json-schema';
import {
  type EvaluateExpressionResult,
  type ExpressionContext,
  type ExpressionEnvironment,
  evaluateExpression,
  evaluateWithRecords,
  expressionAst,
  expressionEnvironment,
  expressionReadsRecords,
} from '../cel';
import { fieldsRead, listCheckedPerItem, topBindings } from '../cel/ast';
import { fromPointer, toPointer } from '../issues';
import { fieldLabel, findEntity, entityLabel as label } from '../lookup';
import type { Entity, Field, JsonValue, Model, Rule } from '../model';
import { formatAmount, type ResolvedAmount } from './constants';
import { type Bounds, boundsOf, entitySchema, type JsonSchema } from './entity-schema';
import { formatCheck } from './formats';
import { fillMessage } from './messages';
import type { RecordReader } from './records';

/** One problem with one value of a record, where the person can fix it. */
export interface FieldError {
  /** JSON Pointer into the record, e.g. `/lines/0/quantity`; empty for the record as a whole. */
  pointer: string;
  code: FieldErrorCode;
  message: string;
  /**
   * For a cross-field rule of point 5 that names a code (`CREDIT_LIMIT`): that code, which the prototype
   * API sends as the error's `code` and, when every error has the same one, as the problem's `code`.
   */
  ruleCode?: string;
}

export type FieldErrorCode =
  | 'required'
  | 'unknown-field'
  | 'read-only'
  | 'type'
  | 'format'
  | 'enum'
  | 'min'
  | 'max'
  | 'pattern'
  | 'accept'
  | 'rule'
  /** A field the role may not read or write (403 `FORBIDDEN_FIELDS`). */
  | 'forbidden';

export interface ValidateOptions {
  /** `create` checks a whole new record; `update` checks a change merged over `old`. */
  mode: 'create' | 'update';
  /** The stored record an update applies to. */
  old?: Record<string, JsonValue>;
  /** The clock for rules that use `now` and `today`; injected so that results are reproducible. */
  now?: Date;
  /** The person saving, for rules that use `user`; rules that use it hold only when it is known. */
  user?: Record<string, unknown>;
  /**
   * The transition an update is (point 4): the rules that name it apply, not those on update, and the
   * change is the machine's own (the new state, the values it sets), so read-only fields are no refusal.
   */
  transition?: string;
}

export type ValidateResult =
  | { ok: true; record: Record<string, JsonValue> }
  | { ok: false; errors: FieldError[]; record: Record<string, JsonValue> };

/**
 * Checks a record against points 3, 5 and 9: only known, writable fields; required fields present;
 * types, enum values, formats and bounds (constants resolved by name); then the cross-field CEL rules.
 * The client runs it before sending and the prototype API runs it before storing, so they cannot
 * disagree. On update, `input` is a change (null clears a field) merged over `options.old`.
 *
 * @example
 * ```ts
 * const result = validateRecord(model, 'Product', { name: 'Rope', price: -1 }, { mode: 'create' });
 * // result.ok === false; result.errors: [{ pointer: '/sku', code: 'required', ... },
 * //                                      { pointer: '/price', code: 'min', message: 'Must be at least 0.' }, ...]
 * ```
 */
export function validateRecord(
  model: Model,
  entityName: string,
  input: unknown,
  options: ValidateOptions,
): ValidateResult {
  const entity = findEntity(model, entityName);
  if (!entity) {
    return {
      ok: false,
      errors: [{ pointer: '', code: 'type', message: 'Unknown kind of record.' }],
      record: {},
    };
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return {
      ok: false,
      errors: [{ pointer: '', code: 'type', message: 'The record must be an object of field values.' }],
      record: {},
    };
  }
  const change = input as Record<string, JsonValue>;
  const errors: FieldError[] = [];
  if (options.transition === undefined) checkKeys(entity, change, '', errors);

  const merged = withoutNulls(options.mode === 'update' ? { ...(options.old ?? {}), ...change } : change);
  checkRequired(model, entity, entity.name, [], merged, '', errors);
  checkValues(model, entity, merged, errors);
  // Every refusal at once: a person who fixes one field should not then meet a rule. A rule over a field
  // that is missing or of the wrong kind cannot be evaluated and says nothing; the field's error speaks.
  checkRules(model, entity, merged, options, errors);
  return errors.length === 0
    ? { ok: true, record: merged }
    : { ok: false, errors: dedupe(errors), record: merged };
}

/**
 * What points 3, 5 and 9 refuse of a record at rest (seeded, or read back as stored): its fields' kinds,
 * values and bounds, and the rules held both on create and on update (those that read other records
 * are `storedRecordRuleErrors`'). A rule only edits are held to
 * (`on: [update]`) locks a record's edits, not its being there (a departed sailing exists); one only a
 * creation is held to was met in the record's first state. Read-only fields are no refusal.
 *
 * @example
 * ```ts
 * storedRecordErrors(model, 'Sailing', { id: 4, status: 'departed', fare: -1 }, { now });
 * // [{ pointer: '/fare', code: 'min', message: 'Must be at least 0.' }]: not the lock on departed sailings
 * ```
 */
export function storedRecordErrors(
  model: Model,
  entityName: string,
  record: Record<string, JsonValue>,
  options: { now?: Date } = {},
): FieldError[] {
  const entity = findEntity(model, entityName);
  if (!entity) return [{ pointer: '', code: 'type', message: 'Unknown kind of record.' }];
  const stored = withoutNulls(record);
  const errors: FieldError[] = [];
  checkRequired(model, entity, entity.name, [], stored, '', errors);
  checkValues(model, entity, stored, errors);
  for (const { rule, error } of brokenRules(model, entity, stored, atRest(stored, options.now)))
    if (heldAtRest(rule)) errors.push(error);
  return dedupe(errors);
}

/** A record at rest is checked as an edit that changes nothing, by the rules also held on create. */
function atRest(stored: Record<string, JsonValue>, now: Date | undefined): ValidateOptions {
  return { mode: 'update', old: stored, ...(now ? { now } : {}) };
}

function heldAtRest(rule: Rule): boolean {
  return rule.on.includes('create') && rule.on.includes('update');
}

/** Unknown keys and keys the client may not write, at the top level of a change. */
function checkKeys(
  entity: Entity,
  change: Record<string, JsonValue>,
  prefix: string,
  errors: FieldError[],
): void {
  for (const key of Object.keys(change)) {
    const field = entity.fields.find((candidate) => candidate.name === key);
    if (!field) {
      errors.push({
        pointer: `${prefix}${toPointer([key])}`,
        code: 'unknown-field',
        message: `"${key}" is not a field of ${label(entity)}.`,
      });
    } else if (field.readOnly || field.derived !== undefined) {
      errors.push({
        pointer: `${prefix}${toPointer([key])}`,
        code: 'read-only',
        message: `${fieldLabel(field)} is set by the system and cannot be written.`,
      });
    }
  }
}

function checkRequired(
  model: Model,
  entity: Entity,
  root: string,
  path: string[],
  value: Record<string, JsonValue>,
  prefix: string,
  errors: FieldError[],
): void {
  for (const field of entity.fields) {
    const fieldPath = [...path, field.name];
    const bounds = boundsOf(model, root, fieldPath, entity.name);
    const pointer = `${prefix}${toPointer([field.name])}`;
    const current = value[field.name];
    if (bounds.constraints?.required && isEmpty(current) && !field.readOnly && field.derived === undefined) {
      errors.push({
        pointer,
        code: 'required',
        message: requiredMessage(model, field, bounds, value),
      });
      continue;
    }
    // Required fields inside embedded objects count only when the object is there.
    const nested = embeddedEntity(model, field);
    if (!nested || current === undefined || current === null) continue;
    if (field.kind === 'object' && isObject(current)) {
      checkRequired(model, nested, root, fieldPath, current, pointer, errors);
      checkKeys(nested, current, pointer, errors);
    } else if (field.kind === 'list' && Array.isArray(current)) {
      current.forEach((item, index) => {
        if (!isObject(item)) return;
        checkRequired(model, nested, nested.name, [], item, `${pointer}/${index}`, errors);
        checkKeys(nested, item, `${pointer}/${index}`, errors);
      });
    }
  }
}

const validators = new WeakMap<JsonSchema, Validator>();

/** Types, formats and bounds, by the entity's JSON Schema; messages are ours, in the record's terms. */
function checkValues(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  errors: FieldError[],
): void {
  const schema = entitySchema(model, entity.name);
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema as object, '2020-12', false);
    validators.set(schema, validator);
  }
  const seen = new Set(errors.map((error) => error.pointer));
  for (const unit of validator.validate(record).errors) {
    if (!LEAF_KEYWORDS.has(unit.keyword)) continue;
    // A problem inside a file value (its size) belongs to the file field, where the person can act on it.
    const target = fieldAt(model, entity, unit.instanceLocation.replace(/^#/, ''));
    if (!target || seen.has(target.pointer)) continue;
    seen.add(target.pointer);
    const custom = target.bounds.constraints?.message;
    const filled = custom === undefined ? undefined : fillMessage(custom, model, { record });
    errors.push({ pointer: target.pointer, ...describe(unit.keyword, target.field, target.bounds, filled) });
  }
  checkFilesAndDates(model, entity, entity.name, [], record, '', errors, seen);
}

const LEAF_KEYWORDS = new Set([
  'type',
  'format',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'required',
]);

/**
 * A constraint's own message speaks of its bounds (`A boat is out for {MAX_HOURS} hours at most.`), so an
 * empty field is told it is required, not that it is too long.
 */
function requiredMessage(
  model: Model,
  field: Field,
  bounds: Bounds,
  record: Record<string, JsonValue>,
): string {
  const constraints = bounds.constraints;
  const bounded =
    constraints?.min !== undefined || constraints?.max !== undefined || constraints?.pattern !== undefined;
  // An empty list still has a count, below a least one ("An order has 1 to 50 lines."); an empty text or
  // number has no value for "at most 80 characters" to speak of.
  const countsItems = field.kind === 'list' && constraints?.min !== undefined;
  return constraints?.message !== undefined && (!bounded || countsItems)
    ? fillMessage(constraints.message, model, { record })
    : `${fieldLabel(field)} is required.`;
}

/** The refusal of one keyword; `custom` is the constraint's own message, its placeholders filled. */
function describe(
  keyword: string,
  field: Field,
  bounds: Bounds,
  custom: string | undefined,
): Omit<FieldError, 'pointer'> {
  const amount = (value: ResolvedAmount | undefined) => (value ? formatAmount(value) : '');
  switch (keyword) {
    case 'type':
      return { code: 'type', message: `${fieldLabel(field)} must be ${KIND_WORDS[field.kind]}.` };
    case 'format':
      return {
        code: 'format',
        message: `${fieldLabel(field)} must be ${formatCheck(field.format)?.words ?? KIND_WORDS[field.kind]}.`,
      };
    case 'enum':
      return {
        code: 'enum',
        message: `${fieldLabel(field)} must be one of: ${field.kind === 'enum' ? field.values.map((v) => v.label ?? v.value).join(', ') : ''}.`,
      };
    case 'minimum':
      return {
        code: 'min',
        message: custom ?? `${fieldLabel(field)} must be at least ${amount(bounds.min)}.`,
      };
    case 'maximum':
      return {
        code: 'max',
        message:
          custom ??
          `${fieldLabel(field)} must be at most ${amount(bounds.max)}${field.kind === 'file' ? ' in size' : ''}.`,
      };
    case 'minLength':
      return {
        code: 'min',
        message: custom ?? `${fieldLabel(field)} needs at least ${counted(bounds.min, 'characters')}.`,
      };
    case 'maxLength':
      return {
        code: 'max',
        message: custom ?? `${fieldLabel(field)} may have at most ${counted(bounds.max, 'characters')}.`,
      };
    case 'minItems':
      return {
        code: 'min',
        message: custom ?? `${fieldLabel(field)} needs at least ${counted(bounds.min, 'items')}.`,
      };
    case 'maxItems':
      return {
        code: 'max',
        message: custom ?? `${fieldLabel(field)} may have at most ${counted(bounds.max, 'items')}.`,
      };
    case 'pattern': {
      // A format checked by a pattern (base64) says what it wants; the field's own pattern may say more.
      const words = formatCheck(field.format)?.words;
      const fallback = words
        ? `${fieldLabel(field)} must be ${words}.`
        : `${fieldLabel(field)} is not in the expected form.`;
      return {
        code: 'pattern',
        message: bounds.constraints?.pattern === undefined ? fallback : (custom ?? fallback),
      };
    }
    default:
      return { code: 'type', message: `${fieldLabel(field)} is not valid.` };
  }
}

/** `2,000 characters`: the constant's own unit when it has one, else the natural noun. */
function counted(amount: ResolvedAmount | undefined, noun: string): string {
  if (!amount) return noun;
  return amount.unit ? formatAmount(amount) : `${formatAmount(amount)} ${noun}`;
}

const KIND_WORDS: Record<Field['kind'], string> = {
  text: 'text',
  markdown: 'text',
  number: 'a number',
  money: 'an amount',
  integer: 'a whole number',
  boolean: 'yes or no',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'a date and time (ISO 8601)',
  enum: 'one of the listed values',
  reference: 'a reference to a record',
  object: 'a group of fields',
  list: 'a list',
  file: 'a file (name, type and size)',
};

/** Date bounds and accepted file types: what JSON Schema cannot say without custom keywords. */
function checkFilesAndDates(
  model: Model,
  entity: Entity,
  root: string,
  path: string[],
  value: Record<string, JsonValue>,
  prefix: string,
  errors: FieldError[],
  seen: Set<string>,
): void {
  for (const field of entity.fields) {
    const current = value[field.name];
    if (current === undefined) continue;
    const fieldPath = [...path, field.name];
    const pointer = `${prefix}${toPointer([field.name])}`;
    const bounds = boundsOf(model, root, fieldPath, entity.name);
    if (seen.has(pointer)) continue;
    if ((field.kind === 'date' || field.kind === 'datetime') && typeof current === 'string') {
      const custom = bounds.constraints?.message;
      if (typeof bounds.min?.value === 'string' && current < bounds.min.value) {
        errors.push({
          pointer,
          code: 'min',
          message: custom ?? `${fieldLabel(field)} must be on or after ${bounds.min.value}.`,
        });
      } else if (typeof bounds.max?.value === 'string' && current > bounds.max.value) {
        errors.push({
          pointer,
          code: 'max',
          message: custom ?? `${fieldLabel(field)} must be on or before ${bounds.max.value}.`,
        });
      }
    } else if (field.kind === 'file' && isObject(current) && field.accept?.length) {
      const type = typeof current.type === 'string' ? current.type : '';
      if (!field.accept.some((accepted) => mimeMatches(accepted, type))) {
        errors.push({
          pointer,
          code: 'accept',
          message: `${fieldLabel(field)} must be one of: ${field.accept.join(', ')}.`,
        });
      }
    } else if (field.kind === 'object' && isObject(current)) {
      const nested = embeddedEntity(model, field);
      if (nested) checkFilesAndDates(model, nested, root, fieldPath, current, pointer, errors, seen);
    }
  }
}

function mimeMatches(accepted: string, type: string): boolean {
  if (accepted.endsWith('/*')) return type.startsWith(accepted.slice(0, -1));
  return accepted.toLowerCase() === type.toLowerCase();
}

/**
 * The cross-field rules of point 5 that apply to this mode and read only the record, evaluated with the
 * shared CEL environment. Rules that read other records (`count(…)`, `lookup(…)`) are left to
 * `checkRecordRules`, which the API runs inside the write's transaction.
 */
function checkRules(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  options: ValidateOptions,
  errors: FieldError[],
): void {
  for (const { error } of brokenRules(model, entity, record, options)) errors.push(error);
}

/**
 * The rules of point 5 that a record breaks, each with its refusal; those that read other records are
 * left to `checkRecordRules`. `validateRecord` reports them, and `updateLock` asks which no edit mends.
 */
export function brokenRules(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  options: ValidateOptions,
): Array<{ rule: Rule; error: FieldError }> {
  const env = rulesEnvironment(model, entity);
  const broken: Array<{ rule: Rule; error: FieldError }> = [];
  for (const rule of applicableRules(model, entity, options.mode, options.transition)) {
    if (expressionReadsRecords(rule.check, env)) continue;
    for (const part of ruleParts(env, rule, record)) {
      const context = part.context(ruleContext(record, options));
      const result = evaluateExpression(part.check, env, context);
      // A rule that cannot be evaluated (a field it reads is empty) is not a broken rule for the person to
      // fix: the field checks above speak for missing values, so only a clear `false` is a violation.
      if (result.ok && result.value === false) {
        const bound: Record<string, unknown> = {};
        for (const binding of topBindings(env.cel, rule.check)) {
          const value = evaluateExpression(binding.expression, env, context);
          if (value.ok) bound[binding.name] = value.value;
        }
        broken.push({ rule, error: ruleError(model, rule, part.pointer, record, options, bound) });
      }
    }
  }
  return broken;
}

/** The fields of the record a rule reads (`record.status`), or undefined when it reads the record whole. */
export function ruleRecordFields(model: Model, rule: Rule): ReadonlySet<string> | undefined {
  const entity = findEntity(model, rule.entity);
  const ast = entity && expressionAst(rule.check, rulesEnvironment(model, entity));
  return ast && fieldsRead(ast, 'record');
}

/**
 * The rules of point 5 that read other records, for a record that passed `validateRecord`: the prototype
 * API runs them inside the write's own transaction with a reader that asks the database, an in-memory
 * store with one over its arrays. `record` is the record as it will be stored (defaults and derived
 * values included).
 */
export async function checkRecordRules(
  model: Model,
  entityName: string,
  record: Record<string, JsonValue>,
  options: ValidateOptions & { reader: RecordReader },
): Promise<FieldError[]> {
  const entity = findEntity(model, entityName);
  if (!entity) return [];
  return dedupe((await brokenRecordRules(model, entity, record, options)).map(({ error }) => error));
}

/**
 * The rules of point 5 that read other records and that a record at rest breaks: those held both on
 * create and on update, as `storedRecordErrors` takes the others.
 */
export async function storedRecordRuleErrors(
  model: Model,
  entityName: string,
  record: Record<string, JsonValue>,
  options: { now?: Date; reader: RecordReader },
): Promise<FieldError[]> {
  const entity = findEntity(model, entityName);
  if (!entity) return [];
  const stored = withoutNulls(record);
  const broken = await brokenRecordRules(model, entity, stored, {
    ...atRest(stored, options.now),
    reader: options.reader,
  });
  return dedupe(broken.filter(({ rule }) => heldAtRest(rule)).map(({ error }) => error));
}

async function brokenRecordRules(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  options: ValidateOptions & { reader: RecordReader },
): Promise<Array<{ rule: Rule; error: FieldError }>> {
  const env = rulesEnvironment(model, entity);
  const broken: Array<{ rule: Rule; error: FieldError }> = [];
  for (const rule of applicableRules(model, entity, options.mode, options.transition)) {
    if (!expressionReadsRecords(rule.check, env)) continue;
    for (const part of ruleParts(env, rule, record)) {
      const context = part.context(ruleContext(record, options));
      const result: EvaluateExpressionResult = await evaluateWithRecords(
        part.check,
        env,
        context,
        options.reader,
      );
      if (result.ok && result.value === false) {
        // The values the check bound (`cel.bind(open, count(…), …)`), for a message that says `{open}`.
        const bound: Record<string, unknown> = {};
        for (const binding of topBindings(env.cel, rule.check)) {
          const value = await evaluateWithRecords(binding.expression, env, context, options.reader);
          if (value.ok) bound[binding.name] = value.value;
        }
        broken.push({ rule, error: ruleError(model, rule, part.pointer, record, options, bound) });
      }
    }
  }
  return broken;
}

/** Whether any rule of point 5 for this entity reads other records (then the API needs a transaction). */
export function hasRecordRules(
  model: Model,
  entityName: string,
  mode: 'create' | 'update',
  transition?: string,
): boolean {
  const entity = findEntity(model, entityName);
  if (!entity) return false;
  const env = rulesEnvironment(model, entity);
  return applicableRules(model, entity, mode, transition).some((rule) =>
    expressionReadsRecords(rule.check, env),
  );
}

/**
 * Whether a rule of point 5 reads other records (`count(…)`, `lookup(…)`): `validateRecord` leaves it to
 * the API, which asks it in the write's transaction, and a caller without the records cannot decide it.
 */
export function ruleReadsRecords(model: Model, rule: Rule): boolean {
  const entity = findEntity(model, rule.entity);
  return entity !== undefined && expressionReadsRecords(rule.check, rulesEnvironment(model, entity));
}

function rulesEnvironment(model: Model, entity: Entity): ExpressionEnvironment {
  return expressionEnvironment(model, {
    entity: entity.name,
    variables: ['record', 'old', 'user', 'now', 'today'],
  });
}

/**
 * The rules for a write: those on its mode, or for a transition those that name it. A rule on update is
 * not asked of a transition: a transition is the machine's step, not an edit, and a rule written for
 * edits would stand in its way (the shop's stock rule would refuse to cancel a placed order, whose stock
 * is taken until the cancel gives it back).
 */
function applicableRules(
  model: Model,
  entity: Entity,
  mode: 'create' | 'update',
  transition: string | undefined,
): Rule[] {
  if (!model.validation.shown) return [];
  return model.validation.rules.filter(
    (rule) =>
      rule.entity === entity.name &&
      (transition === undefined ? rule.on.includes(mode) : (rule.transitions ?? []).includes(transition)),
  );
}

function ruleContext(record: Record<string, JsonValue>, options: ValidateOptions): ExpressionContext {
  return {
    record,
    ...(options.old ? { old: options.old } : {}),
    ...(options.user ? { user: options.user } : {}),
    now: options.now ?? new Date(),
  };
}

interface RulePart {
  check: string;
  pointer: string;
  context(base: ExpressionContext): ExpressionContext;
}

/**
 * A rule over every item of a list whose field names a field of the items (`lines.quantity` with
 * `record.lines.all(l, …)`) is checked item by item, so that a refusal lands on the item's own input
 * (`/lines/2/quantity`); any other rule is one part, at its field.
 */
function ruleParts(env: ExpressionEnvironment, rule: Rule, record: Record<string, JsonValue>): RulePart[] {
  const [list = '', ...below] = (rule.field ?? '').split('.');
  const whole: RulePart = {
    check: rule.check,
    pointer: list ? toPointer([list]) : '',
    context: (base) => base,
  };
  const items = record[list];
  if (below.length === 0 || !Array.isArray(items) || perItemList(env, rule.check) !== list) {
    return [whole];
  }
  // The rule sees one item at a time as the whole list, so it is typed and worded as written.
  return items.map((item, index) => ({
    check: rule.check,
    pointer: toPointer([list, String(index), ...below]),
    context: (base) => ({ ...base, record: { ...(base.record as object), [list]: [item] } }),
  }));
}

function ruleError(
  model: Model,
  rule: Rule,
  pointer: string,
  record: Record<string, JsonValue>,
  options: ValidateOptions,
  bound: Record<string, unknown>,
): FieldError {
  return {
    pointer,
    code: 'rule',
    message: fillMessage(rule.message, model, { record, user: options.user, bound }),
    ...(rule.code === undefined ? {} : { ruleCode: rule.code }),
  };
}

/** The field (and its bounds) a schema error points at: `/lines/0/quantity` -> OrderLine.quantity. */
function fieldAt(
  model: Model,
  entity: Entity,
  pointer: string,
): { field: Field; bounds: Bounds; pointer: string } | undefined {
  const segments = fromPointer(pointer);
  let current: Entity | undefined = entity;
  let root = entity.name;
  let path: string[] = [];
  let found: { field: Field; bounds: Bounds; pointer: string } | undefined;
  let consumed = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment) && found?.field.kind === 'list') {
      consumed += `/${segment}`;
      // Items of a list of objects carry their own entity's constraints only.
      const nested = embeddedEntity(model, found.field);
      if (nested) {
        current = nested;
        root = nested.name;
        path = [];
      }
      continue;
    }
    const field: Field | undefined = current?.fields.find((candidate) => candidate.name === segment);
    if (!field || !current) return found;
    path = [...path, field.name];
    consumed += toPointer([segment]);
    found = { field, bounds: boundsOf(model, root, path, current.name), pointer: consumed };
    current = field.kind === 'object' ? embeddedEntity(model, field) : current;
  }
  return found;
}

function embeddedEntity(model: Model, field: Field): Entity | undefined {
  if (field.kind === 'object') return findEntity(model, field.entity);
  if (field.kind === 'list' && field.of.kind === 'object') return findEntity(model, field.of.entity);
  return undefined;
}

function withoutNulls(record: Record<string, JsonValue>): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}

function isEmpty(value: JsonValue | undefined): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    // Rules of different codes on one field are different refusals, each matched on its own.
    const key = `${error.pointer}|${error.code}|${error.ruleCode ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function perItemList(env: ExpressionEnvironment, check: string): string | undefined {
  const ast = expressionAst(check, env);
  return ast === undefined ? undefined : listCheckedPerItem(ast);
}
