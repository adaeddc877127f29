import type { Entity, FieldType } from '@ninefold/model';
import { type ConstraintIndex, type FieldPlace, placeOf } from './seed-constraints';

/** Objects nest at most this deep in seeded records; deeper ones are left out. */
export const MAX_OBJECT_DEPTH = 3;

interface Dependency {
  target: string;
  /** Every field on the way to the reference is required, so leaving it out would break validation. */
  required: boolean;
}

/**
 * The non-embedded entities, each after the entities it references, so that a reference can always
 * point at a record that is already there. Otherwise the model's order is kept. A cycle is broken at an
 * entity whose unmet references are all optional (they are left out); only a cycle of required
 * references has to be broken at a required one.
 */
export function dependencyOrder(entities: readonly Entity[], index: ConstraintIndex): Entity[] {
  const pending = entities.filter((entity) => !entity.embedded);
  const names = new Set(pending.map((entity) => entity.name));
  const dependencies = new Map(
    pending.map((entity) => [
      entity.name,
      references(entity, entities, index).filter(
        (dependency) => dependency.target !== entity.name && names.has(dependency.target),
      ),
    ]),
  );
  const done = new Set<string>();
  const order: Entity[] = [];
  const unmet = (entity: Entity) =>
    (dependencies.get(entity.name) ?? []).filter((dependency) => !done.has(dependency.target));
  while (pending.length > 0) {
    const next =
      pending.find((entity) => unmet(entity).length === 0) ??
      pending.find((entity) => unmet(entity).every((dependency) => !dependency.required)) ??
      (pending[0] as Entity);
    order.push(next);
    done.add(next.name);
    pending.splice(pending.indexOf(next), 1);
  }
  return order;
}

function references(entity: Entity, entities: readonly Entity[], index: ConstraintIndex): Dependency[] {
  const found: Dependency[] = [];
  const visitFields = (owner: Entity, place: FieldPlace, required: boolean, depth: number) => {
    for (const field of owner.fields) {
      if (field.derived !== undefined) continue;
      const fieldRequired = required && index.rulesAt(place, field.name, field.kind).required;
      visitType(field, field.name, place, fieldRequired, depth);
    }
  };
  const visitType = (type: FieldType, name: string, place: FieldPlace, required: boolean, depth: number) => {
    if (type.kind === 'reference') found.push({ target: type.entity, required });
    if (type.kind === 'list') visitType(type.of, name, place, required, depth);
    if (type.kind === 'object' && depth < MAX_OBJECT_DEPTH) {
      const embedded = entities.find((candidate) => candidate.name === type.entity);
      if (embedded) visitFields(embedded, index.enter(place, name, embedded.name), required, depth + 1);
    }
  };
  visitFields(entity, placeOf(entity.name), true, 0);
  return found;
}
