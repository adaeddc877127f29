import { exhaustiveSwitchError, type Field, type JsonValue } from '@ninefold/model';
import { isRecord, list, type SchemaLike, text } from './document';

// What one property's schema says beside its type: its annotations and flags, the default it may
// take, the bounds it gives, and which field an item path's parameter names. Read while entities are
// built (entities.ts), which stays about the building.

/** Keywords that describe a value without constraining its shape. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'example',
  'examples',
  'nullable',
  'readOnly',
  'writeOnly',
  'deprecated',
  'default',
  'externalDocs',
]);

export function isAnnotationOnly(part: unknown): boolean {
  if (!isRecord(part)) return false;
  for (const key in part) if (!ANNOTATIONS.has(key) && !key.startsWith('x-')) return false;
  return true;
}

/** The index of the one part of an allOf that is not annotation only, if there is exactly one. */
export function onlyStructuralPart(parts: readonly unknown[]): number | undefined {
  let found: number | undefined;
  for (let index = 0; index < parts.length; index++) {
    if (isAnnotationOnly(parts[index])) continue;
    if (found !== undefined) return undefined;
    found = index;
  }
  return found;
}

/** A property's own annotation, or that of an annotation-only part of its allOf. */
export function annotation(property: SchemaLike, key: 'title' | 'description'): string | undefined {
  const own = text(property[key]);
  if (own !== undefined) return own;
  for (const part of list(property.allOf)) {
    const value = isAnnotationOnly(part) ? text((part as SchemaLike)[key]) : undefined;
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Whether a property, or an annotation-only part of its allOf, sets a flag such as readOnly. */
export function flagged(property: SchemaLike, key: 'readOnly' | 'writeOnly'): boolean {
  if (property[key] === true) return true;
  return list(property.allOf).some((part) => isAnnotationOnly(part) && (part as SchemaLike)[key] === true);
}

export function isEnumValue(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

export function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function isUnicodeRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A default only when it fits the field: a wrong default would be written into new records. */
export function defaultFor(field: Field, value: unknown): JsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  switch (field.kind) {
    case 'text':
    case 'markdown':
    case 'date':
    case 'datetime':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'number':
    case 'money':
      return typeof value === 'number' ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'enum':
      return field.values.some((v) => v.value === String(value)) ? String(value) : undefined;
    case 'file':
    case 'reference':
    case 'object':
    case 'list':
      return undefined;
    default:
      return exhaustiveSwitchError(field);
  }
}

/**
 * The field an item path's parameter is filled by: the field of that name, else of that name in another
 * case or spelling (`Sid` for `sid`, `fine_tune_id` for `fineTuneId`), else the longest field the
 * parameter ends with (`widgetKey` by `key`, `AccountSid` by `sid`, `petId` by `id`).
 *
 * @example
 * keyFieldFor('widgetKey', ['id', 'key', 'name']); // 'key'
 */
export function keyFieldFor(param: string, fields: readonly string[]): string | undefined {
  if (fields.includes(param)) return param;
  const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const wanted = plain(param);
  const same = fields.find((field) => plain(field) === wanted);
  if (same !== undefined) return same;
  const endings = fields.filter((field) => plain(field).length >= 2 && wanted.endsWith(plain(field)));
  return endings.sort((a, b) => plain(b).length - plain(a).length)[0];
}
