import type { Entity, Field, FormScreen } from '@ninefold/spec';

/** A field the person types into: neither set by the server nor computed. */
export function isWritable(field: Field): boolean {
  return !field.readOnly && field.derived === undefined;
}

/** One field of a form: an input, or a value it only shows. */
export interface FormEntry {
  field: Field;
  editable: boolean;
}

/** What a form shows, in order, and the fields it writes. */
export interface FormLayout {
  entries: FormEntry[];
  /** The editable fields: what the form converts, validates and sends. */
  inputs: Field[];
}

/**
 * The fields of a create or edit screen: the screen's own list in its order, else every writable field.
 * Listed read-only fields are shown without an input on edit (there is nothing to show before the record
 * exists). Derived fields are always shown, computed live from what is typed (an order's total from its
 * lines), because they answer "what will this come to" while typing; they are never sent. Write-only
 * fields get an input but never show a stored value. Names the entity does not have are skipped (the
 * checker reports them).
 *
 * @example
 * formLayout(order, { kind: 'create', fields: ['customer', 'lines'] })
 * // entries: customer (input), lines (input), total (shown)
 */
export function formLayout(entity: Entity, screen: Pick<FormScreen, 'fields' | 'kind'>): FormLayout {
  const listed = screen.fields
    ? screen.fields.flatMap((name) => entity.fields.filter((field) => field.name === name))
    : entity.fields.filter((field) => isWritable(field) || field.derived !== undefined);
  const entries: FormEntry[] = listed
    .filter(
      (field) =>
        isWritable(field) || (!field.writeOnly && (field.derived !== undefined || screen.kind === 'edit')),
    )
    .map((field) => ({ field, editable: isWritable(field) }));
  for (const field of entity.fields) {
    if (field.derived !== undefined && !listed.includes(field)) entries.push({ field, editable: false });
  }
  return { entries, inputs: entries.filter((entry) => entry.editable).map((entry) => entry.field) };
}

/** The fields a record shows: the screen's own list in its order, else every field that can be read. */
export function detailFields(entity: Entity, names: readonly string[] | undefined): Field[] {
  const listed = names
    ? names.flatMap((name) => entity.fields.filter((field) => field.name === name))
    : entity.fields;
  return listed.filter((field) => !field.writeOnly);
}
