import {
  exhaustiveSwitchError,
  type Field,
  type FieldType,
  fieldLabel,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import { isWritable } from '../form/form-fields';
import { embeddedEntity, type FormValues, isFile, isRecord, isStoredFile } from '../form/form-values';

/**
 * A secret is never written to the browser's storage: a write-only field (a password), or a text whose
 * format says it is one.
 */
export function isSecret(field: Field): boolean {
  return field.writeOnly === true || /^(password|secret)$/i.test(field.format ?? '');
}

/** What of a form's values can be kept: JSON only, and the labels of the chosen files that cannot. */
export interface KeptValues {
  values: Record<string, JsonValue>;
  files: string[];
}

/** Embedded entities nest; past this depth nothing is kept (the form shows no inputs there either). */
const MAX_DEPTH = 8;

/**
 * A form's values as a draft keeps them: secrets left out, newly chosen files left out (local storage
 * holds text, and a file's bytes would not fit) with their field named so the person can be told, and
 * everything else as the form holds it, so that it goes back into the same inputs.
 *
 * @example
 * keptValues(model, fields, { name: 'Anna', password: 'x', attachment: file })
 * // { values: { name: 'Anna' }, files: ['Purchase order'] }
 */
export function keptValues(model: Model, fields: readonly Field[], values: FormValues): KeptValues {
  const files: string[] = [];
  const out: Record<string, JsonValue> = {};
  for (const field of fields) {
    if (isSecret(field)) continue;
    const kept = keptValue(model, field, values[field.name], fieldLabel(field), files, 0);
    if (kept !== undefined) out[field.name] = kept;
  }
  return { values: out, files: [...new Set(files)] };
}

function keptValue(
  model: Model,
  type: FieldType,
  value: unknown,
  label: string,
  files: string[],
  depth: number,
): JsonValue | undefined {
  if (value === undefined || depth > MAX_DEPTH) return undefined;
  switch (type.kind) {
    case 'text':
    case 'markdown':
    case 'enum':
    case 'date':
    case 'datetime':
    case 'number':
    case 'integer':
    case 'money':
    case 'reference':
      return typeof value === 'string' || typeof value === 'number' ? value : null;
    case 'boolean':
      return value === true;
    case 'file':
      if (isFile(value)) {
        files.push(label);
        return undefined;
      }
      return isStoredFile(value) ? (JSON.parse(JSON.stringify(value)) as JsonValue) : null;
    case 'object': {
      const entity = embeddedEntity(model, type);
      if (!entity || !isRecord(value)) return undefined;
      const nested: Record<string, JsonValue> = {};
      for (const field of entity.fields.filter(isWritable)) {
        if (isSecret(field)) continue;
        const kept = keptValue(model, field, value[field.name], label, files, depth + 1);
        if (kept !== undefined) nested[field.name] = kept;
      }
      return nested;
    }
    case 'list': {
      if (!Array.isArray(value)) return undefined;
      return value.map((item) => {
        if (type.of.kind === 'object') return keptValue(model, type.of, item, label, files, depth + 1) ?? {};
        const inner = isRecord(item) ? item.value : item;
        return { value: keptValue(model, type.of, inner, label, files, depth + 1) ?? null };
      });
    }
    default:
      return exhaustiveSwitchError(type);
  }
}

/**
 * The values a restored form starts from: the draft's over the form's own starting values, objects
 * merged key by key, so that what the draft could not keep (a secret, a chosen file) takes the value
 * the form would have had (empty, or the stored file) instead of going missing. A kept value whose shape
 * no longer fits its input (the specification changed since: a text became a list) is left out, as is a
 * field the form no longer has.
 */
export function restoredValues(start: FormValues, kept: Record<string, JsonValue>): FormValues {
  return mergeValues(start, kept) as FormValues;
}

function mergeValues(start: unknown, kept: unknown): unknown {
  if (kept === undefined) return start;
  if (isRecord(start) && !isStoredFile(start)) {
    if (!isRecord(kept)) return start;
    const merged: Record<string, unknown> = { ...start };
    for (const key of Object.keys(start)) merged[key] = mergeValues(start[key], kept[key]);
    return merged;
  }
  return fits(start, kept) ? kept : start;
}

/** Whether a kept value can go into the input whose starting value is `start`. */
function fits(start: unknown, kept: unknown): boolean {
  if (Array.isArray(start)) return Array.isArray(kept);
  if (typeof start === 'boolean') return typeof kept === 'boolean';
  if (typeof start === 'string') return typeof kept === 'string';
  // A file input: nothing, or a stored file.
  if (start === null || isStoredFile(start)) return kept === null || isStoredFile(kept);
  return false;
}
