import {
  type Entity,
  exhaustiveSwitchError,
  type Field,
  type FieldType,
  findEntity,
  hasNumericKey,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import { isWritable } from './form-fields';

/**
 * What a form holds while the person types. Inputs are uncontrolled, so values stay the way the DOM
 * gives them: text for numbers, dates and references, booleans for check boxes, a `File` or the stored
 * file object for files, nested objects for embedded entities, and arrays for lists (scalar items wrapped
 * as `{ value }`, because a field array needs objects to keep each item's identity).
 */
export type FormValues = Record<string, unknown>;

/** A record's value on its way to the API: JSON, except that a newly chosen file is the `File` itself. */
export type OutgoingValue = JsonValue | File | OutgoingValue[] | { [key: string]: OutgoingValue };
export type OutgoingRecord = Record<string, OutgoingValue>;

/** A file as the API stores it. */
export interface StoredFile {
  name: string;
  type?: string;
  size?: number;
  url?: string;
  id?: string;
}

export function isStoredFile(value: unknown): value is StoredFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { name?: unknown }).name === 'string'
  );
}

export function isFile(value: unknown): value is File {
  return typeof File !== 'undefined' && value instanceof File;
}

/** The entity a field embeds: an object's, or the items' of a list of objects. */
export function embeddedEntity(model: Model, type: FieldType): Entity | undefined {
  if (type.kind === 'object') return findEntity(model, type.entity);
  if (type.kind === 'list' && type.of.kind === 'object') return findEntity(model, type.of.entity);
  return undefined;
}

/**
 * The form's starting values: the record's (on edit), else each field's default (on create), else empty.
 *
 * @example
 * toFormValues(model, customer, fields, undefined, { defaults: true }) // { name: '', active: true, ... }
 */
export function toFormValues(
  model: Model,
  fields: readonly Field[],
  record: Record<string, JsonValue> | undefined,
  options: { defaults: boolean },
): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    // A write-only value (a password) is never shown back, even if an API answers it.
    const stored = field.writeOnly ? undefined : record?.[field.name];
    const start = stored === undefined && options.defaults ? field.default : stored;
    values[field.name] = toFormValue(model, field, start, options, 0);
  }
  return values;
}

/** Embedded entities nest; past this depth a form shows no further inputs (as the JSON Schema stops). */
const MAX_DEPTH = 8;

/** The form value of one field, from a stored value (or undefined for an empty one). */
export function toFormValue(
  model: Model,
  type: FieldType,
  value: JsonValue | undefined,
  options: { defaults: boolean },
  depth = 0,
): unknown {
  switch (type.kind) {
    case 'text':
    case 'markdown':
    case 'enum':
    case 'date':
      return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
    case 'number':
    case 'integer':
    case 'money':
      return typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
    case 'boolean':
      return value === true;
    case 'datetime':
      return typeof value === 'string' ? toLocalDateTime(value) : '';
    case 'reference':
      return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
    case 'file':
      return isStoredFile(value) ? value : null;
    case 'object': {
      const entity = findEntity(model, type.entity);
      if (!entity || depth >= MAX_DEPTH) return {};
      const record = isRecord(value) ? (value as Record<string, JsonValue>) : undefined;
      const nested: FormValues = {};
      for (const field of entity.fields.filter(isWritable)) {
        const stored = record?.[field.name];
        const start = stored === undefined && options.defaults && !record ? field.default : stored;
        nested[field.name] = toFormValue(model, field, start, options, depth + 1);
      }
      return nested;
    }
    case 'list':
      if (!Array.isArray(value)) return [];
      return value.map((item) => newListItem(model, type.of, item, depth + 1));
    default:
      return exhaustiveSwitchError(type);
  }
}

/**
 * A list item as the form holds it: an embedded object's values, or a scalar wrapped as `{ value }`.
 * Without a stored item, a new one starts from the item entity's defaults (an order line's quantity 1).
 */
export function newListItem(model: Model, of: FieldType, item?: JsonValue, depth = 0): unknown {
  if (of.kind === 'object') return toFormValue(model, of, item, { defaults: item === undefined }, depth);
  return { value: toFormValue(model, of, item, { defaults: false }, depth) };
}

/**
 * The record a form's values stand for: empty inputs left out, text turned back into numbers, local date
 * and time into ISO 8601, reference ids into numbers where the target's keys are numbers. A value that
 * cannot be converted is kept as typed so that validation names the field rather than losing it.
 *
 * @example
 * fromFormValues(model, fields, { name: 'Anna', creditLimit: '1500', email: '' }) // { name: 'Anna', creditLimit: 1500 }
 */
export function fromFormValues(model: Model, fields: readonly Field[], values: FormValues): OutgoingRecord {
  const record: OutgoingRecord = {};
  for (const field of fields) {
    const value = fromFormValue(model, field, values[field.name], 0);
    if (value !== undefined) record[field.name] = value;
  }
  return record;
}

/** One field's value for the API, or undefined when it is empty. */
export function fromFormValue(
  model: Model,
  type: FieldType,
  value: unknown,
  depth = 0,
): OutgoingValue | undefined {
  switch (type.kind) {
    case 'text':
    case 'markdown':
    case 'enum':
    case 'date':
      return typeof value === 'string' && value !== '' ? value : undefined;
    case 'number':
    case 'integer':
    case 'money': {
      if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
      if (typeof value !== 'string' || value.trim() === '') return undefined;
      const number = Number(value);
      return Number.isFinite(number) ? number : value;
    }
    case 'boolean':
      return value === true;
    case 'datetime': {
      if (typeof value !== 'string' || value === '') return undefined;
      const parsed = new Date(value);
      return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
    }
    case 'reference': {
      if (typeof value === 'number') return value;
      if (typeof value !== 'string' || value === '') return undefined;
      const target = findEntity(model, type.entity);
      return target && hasNumericKey(target) && /^-?\d+$/.test(value) ? Number(value) : value;
    }
    case 'file':
      if (isFile(value)) return value;
      return isStoredFile(value) ? (value as unknown as JsonValue) : undefined;
    case 'object': {
      const entity = findEntity(model, type.entity);
      if (!entity || !isRecord(value) || depth >= MAX_DEPTH) return undefined;
      const nested: Record<string, OutgoingValue> = {};
      for (const field of entity.fields.filter(isWritable)) {
        const converted = fromFormValue(model, field, value[field.name], depth + 1);
        // An unticked box alone does not make an address exist.
        if (converted !== undefined && converted !== false) nested[field.name] = converted;
      }
      if (Object.keys(nested).length === 0) return undefined;
      for (const field of entity.fields.filter(isWritable)) {
        if (field.kind === 'boolean' && nested[field.name] === undefined) nested[field.name] = false;
      }
      return nested;
    }
    case 'list': {
      if (!Array.isArray(value)) return undefined;
      const items: OutgoingValue[] = [];
      for (const item of value) {
        if (type.of.kind === 'object') {
          // A line the person added stays, even empty, so that its required fields are named.
          items.push(fromFormValue(model, type.of, item, depth + 1) ?? {});
        } else {
          const converted = fromFormValue(model, type.of, isRecord(item) ? item.value : item, depth + 1);
          if (converted !== undefined) items.push(converted);
        }
      }
      return items.length === 0 ? undefined : items;
    }
    default:
      return exhaustiveSwitchError(type);
  }
}

/**
 * The record as `validateRecord` reads it: a chosen `File` becomes its name, type and size, which is
 * what the rules about files (accepted types, largest size) look at.
 */
export function forValidation(value: OutgoingRecord): Record<string, JsonValue> {
  return toJson(value) as Record<string, JsonValue>;
}

function toJson(value: OutgoingValue): JsonValue {
  if (isFile(value)) return { name: value.name, type: value.type, size: value.size };
  if (Array.isArray(value)) return value.map(toJson);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, toJson(item as OutgoingValue)]),
    );
  }
  return value;
}

/**
 * `2024-05-01T10:30:00Z` as a `datetime-local` input shows it: in the person's own time zone, with
 * seconds only when there are some (so that saving without touching it changes nothing).
 */
export function toLocalDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  const minutes = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return date.getSeconds() === 0 ? minutes : `${minutes}:${pad(date.getSeconds())}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isFile(value);
}

/**
 * The reference inputs that the address names (`?customer=21`), as form values: how a record's page
 * starts a new record that points at it. Other fields are never taken from an address.
 */
export function referencesFrom(fields: readonly Field[], search: URLSearchParams): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const id = field.kind === 'reference' ? search.get(field.name) : null;
    if (id !== null && id.trim() !== '' && id.length <= 200) values[field.name] = id.trim();
  }
  return values;
}
