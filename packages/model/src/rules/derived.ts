import {
  evaluateExpression,
  evaluateWithRecords,
  expressionEnvironment,
  expressionReadsRecords,
} from '../cel';
import { findEntity } from '../lookup';
import type { Field, JsonValue, Model } from '../model';
import type { RecordReader } from './records';

type Derived = { derived: Field[]; env?: ReturnType<typeof expressionEnvironment> };

/** Per model and entity: every record of every answer asks, and a model never changes. */
const derivedCache = new WeakMap<Model, Map<string, Derived>>();

function derivedFieldsOf(model: Model, entityName: string): Derived {
  let known = derivedCache.get(model);
  if (!known) {
    known = new Map();
    derivedCache.set(model, known);
  }
  let found = known.get(entityName);
  if (!found) {
    const derived =
      findEntity(model, entityName)?.fields.filter((field) => field.derived !== undefined) ?? [];
    found =
      derived.length === 0
        ? { derived }
        : { derived, env: expressionEnvironment(model, { entity: entityName, variables: ['record'] }) };
    known.set(entityName, found);
  }
  return found;
}

/**
 * The values of an entity's derived fields for a record, computed with their CEL expressions. A value
 * that cannot be computed (a field it reads is empty) is left out rather than guessed.
 *
 * @example
 * ```ts
 * derivedValues(model, 'Order', { lines: [{ quantity: 2, unitPrice: 24.5 }] }); // { total: 49 }
 * ```
 */
export function derivedValues(
  model: Model,
  entityName: string,
  record: Record<string, JsonValue>,
): Record<string, JsonValue> {
  const { derived, env } = derivedFieldsOf(model, entityName);
  if (derived.length === 0 || !env) return {};
  const values: Record<string, JsonValue> = {};
  for (const field of derived) {
    const result = evaluateExpression(field.derived ?? '', env, { record });
    if (result.ok && result.value !== undefined && result.value !== null)
      values[field.name] = result.value as JsonValue;
  }
  return values;
}

/**
 * The values of an entity's fields that are set on create (`setOnCreate`), for the user creating the
 * record. A value that cannot be computed (nobody is signed in, so `user.id` is missing) is left out
 * rather than failing the create.
 *
 * @example
 * ```ts
 * createdValues(model, 'Order', { user: { id: 'u7' }, now: new Date() }); // { ownerId: 'u7' }
 * ```
 */
export function createdValues(
  model: Model,
  entityName: string,
  context: { user: Record<string, JsonValue>; now: Date; record?: Record<string, JsonValue> },
): Record<string, JsonValue> {
  const entity = findEntity(model, entityName);
  const set = entity?.fields.filter((field) => field.setOnCreate !== undefined) ?? [];
  if (set.length === 0) return {};
  const env = createdEnvironment(model, entityName);
  const values: Record<string, JsonValue> = {};
  for (const field of set) {
    // One that reads other records is the API's to set, inside the create's transaction.
    if (expressionReadsRecords(field.setOnCreate ?? '', env)) continue;
    const result = evaluateExpression(field.setOnCreate ?? '', env, {
      ...context,
      record: context.record ?? {},
    });
    if (result.ok && result.value !== undefined && result.value !== null)
      values[field.name] = result.value as JsonValue;
  }
  return values;
}

/** Values set on create see the record as sent (defaults in), the person, `now` and `today`. */
export function createdEnvironment(model: Model, entityName: string) {
  return expressionEnvironment(model, { entity: entityName, variables: ['record', 'user', 'now', 'today'] });
}

/**
 * A new record as it will be stored, from the values a create sends (already validated): each field's
 * default where no value is given, the values set on create, the state machine's initial state, and the
 * derived values. The prototype API stores exactly this, and the client and the API ask a grant's
 * condition of it, so that "own records only" also holds for the records a role creates.
 *
 * @example
 * ```ts
 * recordToCreate(model, 'Order', { customer: 1, lines: [] }, { user: { id: 'u7' }, now });
 * // { customer: 1, lines: [], status: 'draft', ownerId: 'u7', total: 0 }
 * ```
 */
export function recordToCreate(
  model: Model,
  entityName: string,
  values: Record<string, JsonValue>,
  context: { user: Record<string, JsonValue>; now: Date },
): Record<string, JsonValue> {
  const entity = findEntity(model, entityName);
  const record: Record<string, JsonValue> = { ...values };
  for (const field of entity?.fields ?? []) {
    if (field.default !== undefined && record[field.name] === undefined) record[field.name] = field.default;
  }
  Object.assign(record, createdValues(model, entityName, { ...context, record: { ...record } }));
  const machine = model.states.shown
    ? model.states.machines.find((candidate) => candidate.entity === entityName)
    : undefined;
  if (machine) record[machine.field] = machine.initial;
  Object.assign(record, derivedValues(model, entityName, record));
  return record;
}

/**
 * The values set on create that read other records (`count(Order, o, o.customer == record.customer) +
 * 1`), computed with `reader` (the prototype API's, in the create's transaction). A value that cannot
 * be computed is an error here, not left out: it was meant to count something that is there.
 */
export async function createdValuesWithRecords(
  model: Model,
  entityName: string,
  context: { user: Record<string, JsonValue>; now: Date; record: Record<string, JsonValue> },
  reader: RecordReader,
): Promise<{ ok: true; values: Record<string, JsonValue> } | { ok: false; field: string; message: string }> {
  const entity = findEntity(model, entityName);
  const env = createdEnvironment(model, entityName);
  const values: Record<string, JsonValue> = {};
  for (const field of entity?.fields ?? []) {
    if (field.setOnCreate === undefined || !expressionReadsRecords(field.setOnCreate, env)) continue;
    const result = await evaluateWithRecords(field.setOnCreate, env, context, reader);
    if (!result.ok) return { ok: false, field: field.name, message: result.message };
    if (result.value !== undefined && result.value !== null) values[field.name] = result.value as JsonValue;
  }
  return { ok: true, values };
}

/** Whether some value set on create reads other records (then the API needs a transaction). */
export function createdValuesReadRecords(model: Model, entityName: string): boolean {
  const entity = findEntity(model, entityName);
  const env = createdEnvironment(model, entityName);
  return (entity?.fields ?? []).some(
    (field) => field.setOnCreate !== undefined && expressionReadsRecords(field.setOnCreate, env),
  );
}
