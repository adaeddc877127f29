import {
  exhaustiveSwitchError,
  type Field,
  type FieldType,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import { embeddedEntity, isFile, isRecord, type OutgoingRecord, type OutgoingValue } from './form-values';

/**
 * The change an edit makes: only the fields whose value differs from the stored record, with `null` for
 * a field that was emptied (except write-only ones, which start empty). Values are compared by their kind, so that a date and time read back from an
 * input (`…T10:00:00.000Z`) equals the stored `…T10:00:00Z`, and a newly chosen file is always a change.
 *
 * @example
 * changedFields(model, fields, { name: 'Anna', email: 'a@x.io' }, { name: 'Anna', email: undefined })
 * // { email: null }
 */
export function changedFields(
  model: Model,
  fields: readonly Field[],
  stored: Record<string, JsonValue>,
  next: OutgoingRecord,
): OutgoingRecord {
  const change: OutgoingRecord = {};
  for (const field of fields) {
    const before = stored[field.name];
    const after = next[field.name];
    if (after === undefined) {
      // An empty write-only input (a password) means "keep it", since it was never shown.
      if (before !== undefined && before !== null && !field.writeOnly) change[field.name] = null;
    } else if (!sameValue(model, field, before, after)) {
      change[field.name] = after;
    }
  }
  return change;
}

/** Whether a stored value and a value from the form mean the same thing for a field of this type. */
export function sameValue(
  model: Model,
  type: FieldType,
  stored: JsonValue | undefined,
  next: OutgoingValue | undefined,
): boolean {
  const empty = (value: unknown) => value === undefined || value === null;
  if (empty(stored) || empty(next)) return empty(stored) && empty(next);
  if (isFile(next)) return false;
  switch (type.kind) {
    case 'datetime': {
      const a = Date.parse(String(stored));
      const b = Date.parse(String(next));
      return Number.isNaN(a) || Number.isNaN(b) ? stored === next : a === b;
    }
    case 'text':
    case 'markdown':
    case 'enum':
    case 'date':
    case 'number':
    case 'integer':
    case 'money':
    case 'boolean':
    case 'reference':
      return stored === next;
    case 'file':
      return jsonEqual(stored, next as JsonValue);
    case 'object': {
      const entity = embeddedEntity(model, type);
      if (!entity || !isRecord(stored) || !isRecord(next)) return jsonEqual(stored, next as JsonValue);
      const keys = new Set([...Object.keys(stored), ...Object.keys(next)]);
      return [...keys].every((key) => {
        const field = entity.fields.find((candidate) => candidate.name === key);
        const a = stored[key] as JsonValue | undefined;
        const b = next[key] as OutgoingValue | undefined;
        return field ? sameValue(model, field, a, b) : jsonEqual(a ?? null, (b ?? null) as JsonValue);
      });
    }
    case 'list': {
      if (!Array.isArray(stored) || !Array.isArray(next) || stored.length !== next.length) return false;
      return stored.every((item, index) => sameValue(model, type.of, item, next[index]));
    }
    default:
      return exhaustiveSwitchError(type);
  }
}

function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  }
  const left = a as Record<string, JsonValue>;
  const right = b as Record<string, JsonValue>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => jsonEqual(left[key], right[key]));
}
