import { evaluateExpression, expressionEnvironment } from '../cel';
import { exhaustiveSwitchError } from '../exhaustive';
import { findEntity } from '../lookup';
import type { JsonValue, Model, StateMachine, Transition } from '../model';

/** Who takes a transition and when; the role is checked only when given (sign-in arrives with point 6). */
export interface TransitionContext {
  now: Date;
  user?: Record<string, JsonValue>;
  role?: string;
}

export type TransitionVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'state' | 'role' | 'guard'; message: string };

/**
 * Whether a record may take a transition now: from its current state, for this role, with its guard
 * holding. The client shows buttons and reasons from it; the prototype API refuses with it.
 *
 * @example
 * ```ts
 * checkTransition(model, machine, place, order, { now: new Date() });
 * // { allowed: false, reason: 'guard', message: 'Add at least one line before placing the order.' }
 * ```
 */
export function checkTransition(
  model: Model,
  machine: StateMachine,
  transition: Transition,
  record: Record<string, JsonValue>,
  context: TransitionContext,
): TransitionVerdict {
  const name = transition.label ?? transition.name;
  const current = record[machine.field];
  if (typeof current !== 'string' || !transition.from.includes(current)) {
    return {
      allowed: false,
      reason: 'state',
      message: `This is ${stateLabel(machine, current)}; "${name}" is possible only from ${transition.from.map((s) => stateLabel(machine, s)).join(' or ')}.`,
    };
  }
  if (context.role !== undefined && transition.roles && !transition.roles.includes(context.role)) {
    return { allowed: false, reason: 'role', message: `Your role may not "${name}".` };
  }
  if (transition.guard) {
    const env = expressionEnvironment(model, {
      entity: machine.entity,
      variables: ['record', 'user', 'now'],
    });
    const result = evaluateExpression(transition.guard, env, {
      record,
      now: context.now,
      ...(context.user ? { user: context.user } : {}),
    });
    if (!result.ok || result.value !== true) {
      return {
        allowed: false,
        reason: 'guard',
        message: transition.guardMessage ?? `"${name}" is not possible now.`,
      };
    }
  }
  return { allowed: true };
}

/**
 * How a refused transition is answered, the same by the prototype API and the client's in-memory fake:
 * a 403 for a role that may not take it, a 409 for a record that is not in a state or condition to.
 *
 * @example
 * ```ts
 * transitionRefusal('guard'); // { status: 409, code: 'GUARD_FAILED' }
 * ```
 */
export function transitionRefusal(reason: 'state' | 'role' | 'guard'): { status: 403 | 409; code: string } {
  switch (reason) {
    case 'state':
      return { status: 409, code: 'ILLEGAL_TRANSITION' };
    case 'guard':
      return { status: 409, code: 'GUARD_FAILED' };
    case 'role':
      return { status: 403, code: 'FORBIDDEN' };
    default:
      return exhaustiveSwitchError(reason);
  }
}

export type TransitionChange =
  | { ok: true; change: Record<string, JsonValue> }
  | { ok: false; message: string };

/**
 * The change a transition makes: the new state, and the effects of its `set` expressions (a `now`
 * written to a date field is that day).
 *
 * @example
 * ```ts
 * transitionChange(model, machine, pay, order, { now });
 * // { ok: true, change: { status: 'paid', paidAt: '2026-06-01T12:00:00.000Z' } }
 * ```
 */
export function transitionChange(
  model: Model,
  machine: StateMachine,
  transition: Transition,
  record: Record<string, JsonValue>,
  context: TransitionContext,
): TransitionChange {
  const change: Record<string, JsonValue> = { [machine.field]: transition.to };
  if (transition.set.length === 0) return { ok: true, change };
  const env = expressionEnvironment(model, { entity: machine.entity, variables: ['record', 'user', 'now'] });
  const fields = findEntity(model, machine.entity)?.fields ?? [];
  for (const assignment of transition.set) {
    const value = evaluateExpression(assignment.expression, env, {
      record,
      now: context.now,
      ...(context.user ? { user: context.user } : {}),
    });
    if (!value.ok)
      return {
        ok: false,
        message: `The effect on ${assignment.field} could not be computed: ${value.message}`,
      };
    const kind = fields.find((field) => field.name === assignment.field)?.kind;
    change[assignment.field] =
      kind === 'date' && typeof value.value === 'string'
        ? value.value.slice(0, 10)
        : (value.value as JsonValue);
  }
  return { ok: true, change };
}

function stateLabel(machine: StateMachine, state: unknown): string {
  const info = machine.states.find((candidate) => candidate.name === state);
  return info?.label?.toLowerCase() ?? String(state);
}
