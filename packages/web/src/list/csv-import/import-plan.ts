// What a file's columns can be to an entity, for a role: the fields it may write, those that find an
// existing record, and the column that holds each field at first (by name or label, any case).
import {
  type Entity,
  fieldAccess,
  fieldLabel,
  type Model,
  type Principal,
  uniqueFields,
} from '@ninefold/model';

export interface ImportTarget {
  /** The fields a column may fill: written by this role, not set by the API, not files. */
  writable: Array<{ name: string; label: string }>;
  /** Fields no two records share (point 5's unique, and the key): what a row may be matched on. */
  unique: Array<{ name: string; label: string }>;
}

export function importTarget(model: Model, entity: Entity, principal: Principal): ImportTarget {
  const access = fieldAccess(model, principal, entity.name);
  const machine = model.states.shown
    ? model.states.machines.find((candidate) => candidate.entity === entity.name)
    : undefined;
  const writable = entity.fields
    .filter(
      (field) =>
        !field.readOnly &&
        field.derived === undefined &&
        field.kind !== 'file' &&
        field.name !== machine?.field &&
        !access.hidden.has(field.name) &&
        !access.readOnly.has(field.name),
    )
    .map((field) => ({ name: field.name, label: fieldLabel(field) }));
  const uniqueNames = new Set(uniqueFields(model, entity));
  const unique = entity.fields
    .filter((field) => uniqueNames.has(field.name) && !access.hidden.has(field.name))
    .map((field) => ({ name: field.name, label: fieldLabel(field) }));
  return { writable, unique };
}

/**
 * The field each column holds at first: the one named like it (name or label, any case), each field
 * taken once; a column matching none, or a key column that may only find records, holds none.
 *
 * @example
 * firstMatches(target, ['E-mail', 'Name', 'Colour']); // ['email', 'name', undefined] when email is labelled "E-mail"
 */
export function firstMatches(target: ImportTarget, headers: readonly string[]): Array<string | undefined> {
  const taken = new Set<string>();
  const fields = [...target.writable, ...target.unique];
  const plain = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const pick = (test: (field: { name: string; label: string }) => boolean) => {
    const found = fields.find((field) => !taken.has(field.name) && test(field));
    if (found) taken.add(found.name);
    return found?.name;
  };
  // Exact names and labels first, so that a looser match never takes a field another column names.
  const exact = headers.map((header) => {
    const wanted = header.trim().toLowerCase();
    return pick((field) => field.name.toLowerCase() === wanted || field.label.toLowerCase() === wanted);
  });
  // Then the same words without spaces and punctuation, or a header that starts with them
  // ("E-mail address" holds the email).
  return headers.map((header, index) => {
    if (exact[index] !== undefined) return exact[index];
    const wanted = plain(header);
    if (wanted === '') return undefined;
    const names = (field: { name: string; label: string }) => [plain(field.name), plain(field.label)];
    return (
      pick((field) => names(field).includes(wanted)) ??
      pick((field) => names(field).some((name) => name.length >= 3 && wanted.startsWith(name)))
    );
  });
}
