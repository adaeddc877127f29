import type { Entity, Field, FieldAccess, FormScreen } from '@ninefold/model';

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

/** A role's limits on fields when none are given: every field may be read and written. */
const NO_LIMITS: FieldAccess = { hidden: new Set(), readOnly: new Set() };

/**
 * The fields of a create or edit screen: the screen's own list in its order, else every writable field.
 * Listed read-only fields are shown without an input on edit (there is nothing to show before the record
 * exists). Derived fields are always shown, computed live from what is typed (an order's total from its
 * lines), because they answer "what will this come to" while typing; they are never sent. Write-only
 * fields get an input but never show a stored value. Names the entity does not have are skipped (the
 * checker reports them). For a role (`fieldAccess`), fields it may not read are left out, and fields it may only read
 * are shown like read-only ones: the API refuses both rather than ignoring them.
 *
 * @example
 * formLayout(order, { kind: 'create', fields: ['customer', 'lines'] })
 * // entries: customer (input), lines (input), total (shown)
 */
export function formLayout(
  entity: Entity,
  screen: Pick<FormScreen, 'fields' | 'kind'>,
  limits: FieldAccess = NO_LIMITS,
): FormLayout {
  const fields = entity.fields.filter((field) => !limits.hidden.has(field.name));
  const writable = (field: Field) => isWritable(field) && !limits.readOnly.has(field.name);
  const listed = screen.fields
    ? screen.fields.flatMap((name) => fields.filter((field) => field.name === name))
    : fields.filter((field) => !field.internal && (isWritable(field) || field.derived !== undefined));
  const entries: FormEntry[] = listed
    .filter(
      (field) =>
        writable(field) || (!field.writeOnly && (field.derived !== undefined || screen.kind === 'edit')),
    )
    .map((field) => ({ field, editable: writable(field) }));
  for (const field of fields) {
    if (field.derived !== undefined && !field.internal && !listed.includes(field))
      entries.push({ field, editable: false });
  }
  return { entries, inputs: entries.filter((entry) => entry.editable).map((entry) => entry.field) };
}

/**
 * The fields a record shows: the screen's own list in its order, else every field that can be read,
 * without those the role may not read.
 */
export function detailFields(
  entity: Entity,
  names: readonly string[] | undefined,
  hidden: ReadonlySet<string> = NO_LIMITS.hidden,
): Field[] {
  // Unlisted, a key the API makes (`id`) is left out: it is in the address, and means nothing to read;
  // so are the fields point 3 marks internal.
  const listed = names
    ? names.flatMap((name) => entity.fields.filter((field) => field.name === name))
    : entity.fields.filter((field) => !(field.name === entity.key && field.readOnly) && !field.internal);
  return listed.filter((field) => !field.writeOnly && !hidden.has(field.name));
}
