import type { Entity, Model, StateMachine, Transition } from '@ninefold/model';

/** How seeded records of one entity move through one state machine of point 4. */
export interface StatePlan {
  machine: StateMachine;
  /** States reachable from the initial one (the initial state first), limited to the field's enum values. */
  reachable: string[];
  /** For each reachable state, the shortest run of transitions from the initial state that reaches it. */
  paths: Map<string, Transition[]>;
  /** Every field some transition of this machine assigns (`set`), e.g. `paidAt` set by `pay`. */
  assigned: Set<string>;
}

/** The plans of the machines of an entity, in the order point 4 lists them; none when point 4 is not shown. */
export function statePlans(model: Model, entity: Entity): StatePlan[] {
  if (!model.states.shown) return [];
  const plans: StatePlan[] = [];
  for (const machine of model.states.machines) {
    if (machine.entity !== entity.name) continue;
    const field = entity.fields.find((candidate) => candidate.name === machine.field);
    if (field === undefined) continue;
    const allowed = field.kind === 'enum' ? new Set(field.values.map((value) => value.value)) : undefined;
    const paths = shortestPaths(machine);
    const reachable = [...paths.keys()].filter((state) => allowed === undefined || allowed.has(state));
    if (reachable.length === 0) continue;
    const assigned = new Set(
      machine.transitions.flatMap((transition) => transition.set.map((set) => set.field)),
    );
    plans.push({ machine, reachable, paths, assigned });
  }
  return plans;
}

/** Breadth-first from the initial state, taking transitions in their listed order, so the result is stable. */
function shortestPaths(machine: StateMachine): Map<string, Transition[]> {
  const paths = new Map<string, Transition[]>([[machine.initial, []]]);
  const queue = [machine.initial];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] as string;
    const path = paths.get(state) ?? [];
    for (const transition of machine.transitions) {
      if (!transition.from.includes(state) || paths.has(transition.to)) continue;
      paths.set(transition.to, [...path, transition]);
      queue.push(transition.to);
    }
  }
  return paths;
}
