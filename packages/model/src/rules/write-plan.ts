import { entityLabel, fieldLabel } from '../lookup';
import type { Entity, JsonValue, Model, StateMachine, Transition } from '../model';

// The pieces of a write that every plan (write-plans.ts) and the seed share: which state machine an
// entity has, the defaults a new record gets, and the refusal of a state field set by hand.

/** The state machine of point 4 that an entity's records follow, if any. */
export function machineOf(model: Model, entity: Pick<Entity, 'name'>): StateMachine | undefined {
  return model.states.shown
    ? model.states.machines.find((machine) => machine.entity === entity.name)
    : undefined;
}

/**
 * The name of a transition's call when point 7 is not shown and the prototype API serves conventional
 * calls: the transition's name, then the entity's (`placeOrder`).
 */
export function conventionalTransitionCall(entity: string, transition: Pick<Transition, 'name'>): string {
  return `${transition.name}${entity}`;
}

/**
 * The record with the defaults of point 3 filled in where a value is missing: of the fields a person
 * writes, or (`readOnly`) of the read-only and derived ones, which the API fills in itself.
 */
export function withDefaults(
  entity: Entity,
  record: Record<string, JsonValue>,
  readOnly = false,
): Record<string, JsonValue> {
  const out = { ...record };
  for (const field of entity.fields) {
    const isReadOnly = Boolean(field.readOnly || field.derived);
    if (isReadOnly === readOnly && field.default !== undefined && out[field.name] === undefined)
      out[field.name] = field.default;
  }
  return out;
}

/** A refusal of one field of a create, as a 422's field error says it. */
export interface FieldRefusal {
  pointer: string;
  code: 'rule';
  message: string;
}

/** A create that sets the state field to anything but the initial state: a state is reached by transitions. */
export function createStateRefusal(
  model: Model,
  entity: Entity,
  body: Record<string, unknown>,
): FieldRefusal | undefined {
  const machine = machineOf(model, entity);
  if (!machine || body[machine.field] === undefined || body[machine.field] === machine.initial)
    return undefined;
  return {
    pointer: `/${machine.field}`,
    code: 'rule',
    message: `A new ${entityLabel(entity)} starts as ${machine.initial}; use a transition to change it.`,
  };
}

/** An update that changes the state field by hand (409 `USE_A_TRANSITION`). */
export function updateStateRefusal(
  model: Model,
  entity: Entity,
  old: Record<string, unknown>,
  change: Record<string, unknown>,
): { status: 409; code: 'USE_A_TRANSITION'; message: string } | undefined {
  const machine = machineOf(model, entity);
  if (!machine || change[machine.field] === undefined || change[machine.field] === old[machine.field])
    return undefined;
  return {
    status: 409,
    code: 'USE_A_TRANSITION',
    message: `The ${fieldLabel({ name: machine.field })} of ${entityLabel(entity)} changes only through its transitions.`,
  };
}
