import type { Entity, StateMachine, Transition } from '@ninefold/model';
import type { MappedCall } from './calls';
import type { MapContext } from './context';
import { IDENTIFIER, pointer } from './document';

const STATE_FIELDS = ['status', 'state'];

/**
 * Point 4: a state machine for each resource entity with an enum `status`/`state` field and at least
 * one action operation (`POST /orders/{id}/cancel`) whose name matches one of its states (`cancelled`).
 * An action whose target state is not named is reported, never guessed.
 *
 * @example
 * ```ts
 * mapStates(context, calls, entities)[0].transitions[0];
 * // { name: 'cancel', from: ['placed', 'paid'], to: 'cancelled', call: 'cancelOrder', set: [] }
 * ```
 */
export function mapStates(
  context: MapContext,
  calls: MappedCall[],
  entities: Map<string, Entity>,
  pointerOf: (entity: string) => string | undefined = () => undefined,
): StateMachine[] {
  const machines: StateMachine[] = [];
  for (const entity of entities.values()) {
    if (entity.embedded === true) continue;
    const field = entity.fields.find((f) => STATE_FIELDS.includes(f.name) && f.kind === 'enum');
    if (field === undefined || field.kind !== 'enum') continue;
    const states = field.values.map((v) => v.value);
    const actions = calls.filter((c) => c.action !== undefined && c.call.entity === entity.name);
    const at = pointerOf(entity.name) ?? pointer('components', 'schemas', entity.name);
    if (actions.length === 0) {
      context.report.add(
        'states',
        'not-shown',
        at,
        `"${entity.name}.${field.name}" is an enum of states, but no action operation (POST /…/{id}/action) works on "${entity.name}", so its transitions are not known`,
      );
      continue;
    }
    const transitions: Transition[] = [];
    const names = new Set<string>();
    for (const { call, info, action } of actions) {
      const verb = (action ?? '').toLowerCase();
      const target = states.find((state) => pastForms(verb).includes(state.toLowerCase()));
      if (target === undefined) {
        context.report.add(
          'states',
          'skipped',
          info.pointer,
          `action "${action}" (${call.method} ${call.path}) is not a transition: no state of "${entity.name}.${field.name}" (${states.join(', ')}) is its target, and it is not guessed`,
        );
        continue;
      }
      const name = IDENTIFIER.test(action ?? '') ? (action as string) : call.name;
      if (names.has(name)) continue;
      names.add(name);
      const from = states.filter((state) => state !== target);
      transitions.push({ name, from, to: target, call: call.name, set: [] });
      context.report.add(
        'states',
        'inferred',
        info.pointer,
        `transition "${name}" to "${target}" (its name matches the action); allowed from every other state, since the document does not say from which`,
      );
    }
    if (transitions.length === 0) continue;
    const initial =
      typeof field.default === 'string' && states.includes(field.default) ? field.default : states[0];
    if (initial === undefined) continue;
    if (field.default !== initial)
      context.report.add(
        'states',
        'inferred',
        at,
        `initial state of "${entity.name}.${field.name}" is "${initial}", its first value (no default is given)`,
      );
    machines.push({
      entity: entity.name,
      field: field.name,
      initial,
      states: states.map((name) => ({ name })),
      transitions,
    });
    context.report.add(
      'states',
      'mapped',
      at,
      `state machine "${entity.name}.${field.name}" with ${states.length} states and ${transitions.length} transitions`,
    );
  }
  return machines;
}

/** The state names an action verb may lead to: cancel -> cancel, cancelled, canceled; ship -> shipped. */
export function pastForms(verb: string): string[] {
  const forms = [verb, `${verb}ed`, `${verb}d`, `${verb}${verb.slice(-1)}ed`];
  if (verb.endsWith('y')) forms.push(`${verb.slice(0, -1)}ied`);
  const irregular: Record<string, string> = {
    send: 'sent',
    pay: 'paid',
    begin: 'begun',
    run: 'running',
    hold: 'held',
    close: 'closed',
    start: 'started',
    stop: 'stopped',
    reopen: 'open',
  };
  const special = irregular[verb];
  if (special !== undefined) forms.push(special);
  return forms;
}
