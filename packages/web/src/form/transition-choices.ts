import {
  type AccessDenial,
  checkTransition,
  type JsonValue,
  type Model,
  type StateMachine,
  type Transition,
  type TransitionVerdict,
  transitionAccess,
} from '@ninefold/model';
import type { EntityCalls } from '../data/data-provider';
import { settle } from '../screens/access-policy';
import type { SessionValue } from '../session/SessionContext';

/** Why a transition the role may take is not possible for this record now. */
export type TransitionBlock =
  | { kind: 'transition'; verdict: Extract<TransitionVerdict, { allowed: false }> }
  | { kind: 'access'; reason: AccessDenial };

/** A transition offered on a record: enabled when `block` is undefined. */
export interface TransitionChoice {
  transition: Transition;
  block: TransitionBlock | undefined;
}

/**
 * The transitions a record's screen offers this principal, in the machine's order. Left out: those
 * without a call (the client cannot take them), and those the role may never take (`transitionAccess`
 * of packages/model, the same rule the prototype API enforces: the roles a transition names, else the
 * update grant). The rest are blocked with the verdict of `checkTransition` (state, guard) or of
 * `transitionAccess` on this record (the grant's condition). When the client cannot know the role (see
 * `roleUnknown`), a refusal for want of one is left to the API.
 *
 * @example
 * transitionChoices(shop, orderStatus, calls, paidOrder, warehouseSession, now)
 * // [ship (enabled), deliver (blocked: state)]
 */
export function transitionChoices(
  model: Model,
  machine: StateMachine,
  calls: EntityCalls,
  record: Record<string, JsonValue>,
  session: SessionValue,
  now: Date,
): TransitionChoice[] {
  const { principal } = session;
  const choices: TransitionChoice[] = [];
  for (const transition of machine.transitions) {
    if (!Object.hasOwn(calls.transitions, transition.name)) continue;
    if (!settle(transitionAccess(model, principal, machine, transition), session).allowed) continue;
    const verdict = checkTransition(model, machine, transition, record, {
      now,
      ...(principal.role === undefined ? {} : { role: principal.role }),
      ...(principal.user === undefined ? {} : { user: principal.user }),
    });
    if (!verdict.allowed) {
      choices.push({ transition, block: { kind: 'transition', verdict } });
      continue;
    }
    const access = settle(transitionAccess(model, principal, machine, transition, record), session);
    choices.push({
      transition,
      block: access.allowed ? undefined : { kind: 'access', reason: access.reason },
    });
  }
  return choices;
}
