import type {
  AccessDenial,
  CrudAction,
  Entity,
  Model,
  StateMachine,
  Transition,
  TransitionVerdict,
} from '@ninefold/model';
import type { ApiRecord, DataProvider } from '../data/data-provider';
import { actionOffer } from '../form/action-offer';
import { transitionChoices } from '../form/transition-choices';
import type { SessionValue } from '../session/SessionContext';
import { actionsOn } from './actions-on';
import type { ActionContext, ActionDefinition } from './types';

/** What an action does when pressed. */
export type ActionRun =
  | { kind: 'update'; body: (record: ApiRecord) => Record<string, unknown> }
  | { kind: 'delete' }
  | { kind: 'transition'; transition: string }
  | { kind: 'code'; code: (context: ActionContext) => Promise<void> | void };

/** Why an action a role may take cannot be taken on this record now. */
export type ActionBlock =
  | { kind: 'access'; action: CrudAction; reason: AccessDenial }
  | {
      kind: 'transition';
      machine: StateMachine;
      transition: Transition;
      verdict: Extract<TransitionVerdict, { allowed: false }>;
    };

export interface ActionPlan {
  name: string;
  definition: ActionDefinition;
  run: ActionRun;
  offer: { kind: 'enabled' } | { kind: 'disabled'; block: ActionBlock };
}

/**
 * The extension's actions a record offers a person at a place, decided by the same rules as the
 * built-in actions: an update, a delete or a `run` by the role's grant of that permission on this
 * record (point 6), a transition by point 4's state, guard and roles. Left out: actions of another
 * entity or place, those whose `when` says no, those the role may never take, and those whose call
 * this client cannot run (`check` says which).
 *
 * @example
 * planActions(shop, data, clerk, { restock }, product, record, 'row', new Date());
 * // [{ name: 'restock', run: { kind: 'update', … }, offer: { kind: 'enabled' } }]
 */
export function planActions(
  model: Model,
  data: DataProvider,
  session: SessionValue,
  actions: Readonly<Record<string, ActionDefinition>>,
  entity: Entity,
  record: ApiRecord,
  place: 'row' | 'detail',
  now: Date,
): ActionPlan[] {
  const plans: ActionPlan[] = [];
  for (const [name, definition] of actionsOn(actions, entity.name, record, place)) {
    const plan = planOne(model, data, session, name, definition, entity, record, now);
    if (plan) plans.push(plan);
  }
  return plans;
}

function planOne(
  model: Model,
  data: DataProvider,
  session: SessionValue,
  name: string,
  definition: ActionDefinition,
  entity: Entity,
  record: ApiRecord,
  now: Date,
): ActionPlan | undefined {
  const byAccess = (action: CrudAction, run: ActionRun): ActionPlan | undefined => {
    const offer = actionOffer(model, session, entity.name, action, record);
    switch (offer.kind) {
      case 'hidden':
        return undefined;
      case 'enabled':
        return { name, definition, run, offer };
      case 'disabled':
        return {
          name,
          definition,
          run,
          offer: { kind: 'disabled', block: { kind: 'access', action, reason: offer.reason } },
        };
    }
  };
  if (definition.run && definition.call === undefined) {
    return byAccess(definition.permission ?? 'read', { kind: 'code', code: definition.run });
  }
  if (definition.call === undefined) return undefined;
  const calls = data.calls(entity.name);
  const call = calls.all.find((candidate) => candidate.name === definition.call);
  if (!call) return undefined;
  switch (call.purpose) {
    case 'update':
      return definition.body ? byAccess('update', { kind: 'update', body: definition.body }) : undefined;
    case 'delete':
      return byAccess('delete', { kind: 'delete' });
    case 'transition': {
      const transitionName = Object.entries(calls.transitions).find(([, each]) => each === call)?.[0];
      const machine = model.states.shown
        ? model.states.machines.find((each) => each.entity === entity.name)
        : undefined;
      if (transitionName === undefined || !machine) return undefined;
      const choice = transitionChoices(model, machine, calls, record, session, now).find(
        (each) => each.transition.name === transitionName,
      );
      if (!choice) return undefined;
      const run: ActionRun = { kind: 'transition', transition: transitionName };
      if (!choice.block) return { name, definition, run, offer: { kind: 'enabled' } };
      const block: ActionBlock =
        choice.block.kind === 'access'
          ? { kind: 'access', action: 'update', reason: choice.block.reason }
          : { kind: 'transition', machine, transition: choice.transition, verdict: choice.block.verdict };
      return { name, definition, run, offer: { kind: 'disabled', block } };
    }
    default:
      // A list, get, create or other call has no record to act on here; `check` reports it.
      return undefined;
  }
}
