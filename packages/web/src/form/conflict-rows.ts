import type { Field, JsonValue, Model } from '@ninefold/model';
import { isSecret } from '../drafts/draft-values';
import { sameValue } from './changed-fields';
import { type FormValues, forValidation, fromFormValue, toFormValue } from './form-values';

/** One field on which the person's version and the one now on the server differ. */
export interface ConflictRow {
  field: Field;
  /** The person's value, as a display reads it (a chosen file as its name, type and size). */
  mine: JsonValue | undefined;
  theirs: JsonValue | undefined;
  /** Whether the person changed the field from the version they started from (else only they did). */
  changedByMe: boolean;
}

export type ConflictChoice = 'mine' | 'theirs';

/**
 * The fields of a form on which the person's values and the record as it is now differ, in the form's
 * order. Secrets are left out: the server never answers them, and they must not be shown.
 *
 * @example
 * conflictRows(model, fields, { email: 'a@x.io' }, { email: 'b@x.io', name: 'A' }, { email: 'c@x.io', name: 'A' })
 * // [{ field: email, mine: 'b@x.io', theirs: 'c@x.io', changedByMe: true }]
 */
export function conflictRows(
  model: Model,
  fields: readonly Field[],
  base: Record<string, JsonValue>,
  mine: FormValues,
  theirs: Record<string, JsonValue>,
): ConflictRow[] {
  const rows: ConflictRow[] = [];
  for (const field of fields) {
    if (isSecret(field)) continue;
    const value = fromFormValue(model, field, mine[field.name]);
    if (sameValue(model, field, theirs[field.name], value)) continue;
    rows.push({
      field,
      mine: value === undefined ? undefined : forValidation({ value }).value,
      theirs: theirs[field.name],
      changedByMe: !sameValue(model, field, base[field.name], value),
    });
  }
  return rows;
}

/** What each row starts as: the person's value where they changed it, else the other version's. */
export function defaultChoices(rows: readonly ConflictRow[]): Record<string, ConflictChoice> {
  return Object.fromEntries(rows.map((row) => [row.field.name, row.changedByMe ? 'mine' : 'theirs']));
}

/**
 * The form's values with the other version's taken where the person chose it; every other value (and
 * every field that did not differ) stays as the person typed it.
 */
export function mergedValues(
  model: Model,
  fields: readonly Field[],
  mine: FormValues,
  theirs: Record<string, JsonValue>,
  choices: Readonly<Record<string, ConflictChoice>>,
): FormValues {
  const merged: FormValues = { ...mine };
  for (const field of fields) {
    if (choices[field.name] === 'theirs') {
      merged[field.name] = toFormValue(model, field, theirs[field.name], { defaults: false });
    }
  }
  return merged;
}
