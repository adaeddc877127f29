import type { Entity, Field, Model } from './model';

/** A reference field at the top of a stored entity's records, and that entity. */
export interface ReferringField {
  entity: Entity;
  field: Field;
}

/**
 * The fields that point at a record of `target`: top-level references of the entities that are stored
 * (not embedded). A role that may read one of them with a value sees that value's id, so it may also be
 * told that record's name (the prototype API's names call).
 *
 * @example
 * ```ts
 * referringFields(shop, 'Customer'); // [{ entity: Order, field: customer }]
 * ```
 */
export function referringFields(model: Model, target: string): ReferringField[] {
  if (!model.entities.shown) return [];
  const found: ReferringField[] = [];
  for (const entity of model.entities.items) {
    if (entity.embedded) continue;
    for (const field of entity.fields) {
      if (field.kind === 'reference' && field.entity === target) found.push({ entity, field });
    }
  }
  return found;
}

const USER_ID = /^\s*user\s*\.\s*id\s*$/;

/**
 * The fields that hold a person's id: set on create to `user.id` (point 3), so each names the person
 * who made the record ("Entered by"). Nothing else says a field is about people, so nothing else counts.
 *
 * @example
 * ```ts
 * personFields(order).map((field) => field.name); // ['ownerId']
 * ```
 */
export function personFields(entity: Entity): Field[] {
  return entity.fields.filter(isPersonField);
}

/** Whether a field holds the id of the person who made the record (see `personFields`). */
export function isPersonField(field: Field): boolean {
  return field.kind === 'text' && field.setOnCreate !== undefined && USER_ID.test(field.setOnCreate);
}

/**
 * How a person is named to others ("Entered by"): their `name` attribute, else their email. The API's
 * people call and the client's own name for the signed-in person say it alike.
 *
 * @example
 * ```ts
 * personName({ name: 'Dana Desk', email: 'desk@clinic.test' }); // 'Dana Desk'
 * personName({ email: 'vet@clinic.test' }); // 'vet@clinic.test'
 * ```
 */
export function personName(person: Readonly<Record<string, unknown>>): string | undefined {
  const { name, email } = person;
  if (typeof name === 'string' && name.trim() !== '') return name;
  return typeof email === 'string' && email !== '' ? email : undefined;
}
