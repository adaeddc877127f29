// What a list offers to do to many records at once, and what each selected record allows: the same
// rules as a record's own screen (the role's grant, the grant's condition, the state machine and its
// guards), decided here before anything is sent, and again by the API as each record is written.
import {
  type Entity,
  exhaustiveSwitchError,
  type JsonValue,
  type Model,
  type StateMachine,
  type Transition,
} from '@ninefold/model';
import type { EntityCalls } from '../data/data-provider';
import { actionOffer } from '../form/action-offer';
import { transitionChoices } from '../form/transition-choices';
import type { I18n } from '../i18n/I18nProvider';
import { refusalText, transitionRefusalText } from '../screens/access-text';
import type { SessionValue } from '../session/SessionContext';

export type BulkAction =
  | { kind: 'delete' }
  | { kind: 'transition'; machine: StateMachine; transition: Transition };

/** A stable name of an action, for keys and for telling actions apart. */
export function actionName(action: BulkAction): string {
  switch (action.kind) {
    case 'delete':
      return 'delete';
    case 'transition':
      return `transition-${action.transition.name}`;
    default:
      return exhaustiveSwitchError(action);
  }
}

/**
 * The actions a role may take on some records of the entity: delete, where it has a delete call and a
 * delete grant, and each transition it may take that has a call. Whether a given record allows one is
 * `refusal`'s to say.
 *
 * @example
 * bulkActions(shop, order, calls, clerkSession); // [place, pay, cancel] (a clerk may not delete orders)
 */
export function bulkActions(
  model: Model,
  entity: Entity,
  calls: EntityCalls,
  session: SessionValue,
): BulkAction[] {
  const actions: BulkAction[] = [];
  const machine = model.states.shown
    ? model.states.machines.find((candidate) => candidate.entity === entity.name)
    : undefined;
  if (machine) {
    // Asked of a record in no state, only the role's access is decided: every transition it may take.
    for (const choice of transitionChoices(model, machine, calls, {}, session, new Date())) {
      if (choice.block?.kind !== 'access')
        actions.push({ kind: 'transition', machine, transition: choice.transition });
    }
  }
  if (calls.delete && actionOffer(model, session, entity.name, 'delete', {}).kind !== 'hidden') {
    actions.push({ kind: 'delete' });
  }
  return actions;
}

/**
 * Why this record refuses the action, in the words its own screen would use, or undefined when it
 * allows it. Nothing refused here is sent.
 */
export function refusal(
  model: Model,
  entity: Entity,
  calls: EntityCalls,
  session: SessionValue,
  i18n: Pick<I18n, 't' | 'locale'>,
  action: BulkAction,
  record: Record<string, JsonValue>,
  now: Date,
): string | undefined {
  switch (action.kind) {
    case 'delete': {
      const offer = actionOffer(model, session, entity.name, 'delete', record);
      if (offer.kind === 'enabled') return undefined;
      return refusalText(
        i18n,
        model,
        session.principal,
        offer.kind === 'hidden' ? 'no-grant' : offer.reason,
        {
          entity: entity.name,
          action: 'delete',
        },
      );
    }
    case 'transition': {
      const choice = transitionChoices(model, action.machine, calls, record, session, now).find(
        (candidate) => candidate.transition.name === action.transition.name,
      );
      if (!choice)
        return refusalText(i18n, model, session.principal, 'no-grant', {
          entity: entity.name,
          action: 'update',
        });
      const block = choice.block;
      if (block === undefined) return undefined;
      switch (block.kind) {
        case 'transition':
          return transitionRefusalText(
            i18n,
            model,
            session.principal,
            action.machine,
            action.transition,
            block.verdict,
          );
        case 'access':
          return refusalText(i18n, model, session.principal, block.reason, {
            entity: entity.name,
            action: 'update',
          });
        default:
          return exhaustiveSwitchError(block);
      }
    }
    default:
      return exhaustiveSwitchError(action);
  }
}
