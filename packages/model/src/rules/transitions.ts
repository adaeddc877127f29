import {
  type EvaluateExpressionResult,
  evaluateExpression,
  evaluateWithRecords,
  expressionEnvironment,
  expressionReadsRecords,
  expressionReadsVariable,
} from '../cel';
import { exhaustiveSwitchError } from '../exhaustive';
import { findEntity } from '../lookup';
import type { JsonValue, Model, StateMachine, Transition } from '../model';
import { fillMessage } from './messages';
import type { RecordReader } from './records';

/** Who takes a transition and when; the role is checked only when given (sign-in arrives with point 6). */
export interface TransitionContext {
  now: Date;
  user?: Record<string, JsonValue>;
  role?: string;
}

export type TransitionVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /** `error`: the guard could not be evaluated, which is the specification's fault, not the record's. */
      reason: 'state' | 'role' | 'guard' | 'error';
      message: string;
      /** A guard's own problem code (`guardCode`), answered in place of `GUARD_FAILED`. */
      code?: string;
    };

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
    const env = guardEnvironment(model, machine);
    // A guard that reads other records (a count, a look-up) is the API's to decide, in its transaction.
    if (expressionReadsRecords(transition.guard, env)) return { allowed: true };
    const result = evaluateExpression(transition.guard, env, guardContext(record, context));
    if (!result.ok && !result.missing) return guardFailure(transition, result.message);
    if (!result.ok || result.value !== true) return guardRefusal(model, transition, record, context);
  }
  return { allowed: true };
}

/**
 * A guard that threw (a comparison of a date with a text, say): never a quiet "not possible now", which
 * would close the step for good with nobody told why; the API answers 500 and logs it.
 */
function guardFailure(transition: Transition, message: string): TransitionVerdict {
  const name = transition.label ?? transition.name;
  return {
    allowed: false,
    reason: 'error',
    message: `The condition of "${name}" could not be evaluated (${message}); the specification must be corrected.`,
  };
}

/**
 * The guard of a transition that reads other records, evaluated with `reader` (the prototype API's, in
 * the transition's transaction). Allowed when the guard reads none: `checkTransition` decided those.
 */
export async function checkGuardWithRecords(
  model: Model,
  machine: StateMachine,
  transition: Transition,
  record: Record<string, JsonValue>,
  context: TransitionContext,
  reader: RecordReader,
): Promise<TransitionVerdict> {
  if (!transition.guard) return { allowed: true };
  const env = guardEnvironment(model, machine);
  if (!expressionReadsRecords(transition.guard, env)) return { allowed: true };
  const result: EvaluateExpressionResult = await evaluateWithRecords(
    transition.guard,
    env,
    guardContext(record, context),
    reader,
  );
  if (!result.ok && !result.missing) return guardFailure(transition, result.message);
  return result.ok && result.value === true
    ? { allowed: true }
    : guardRefusal(model, transition, record, context);
}

/** Whether a transition's guard reads other records (then the API checks it inside its transaction). */
export function guardReadsRecords(model: Model, machine: StateMachine, transition: Transition): boolean {
  return (
    transition.guard !== undefined &&
    expressionReadsRecords(transition.guard, guardEnvironment(model, machine))
  );
}

/** Whether a transition's guard reads the person taking the step (`user`), which only a write can tell. */
export function guardReadsUser(model: Model, machine: StateMachine, transition: Transition): boolean {
  return (
    transition.guard !== undefined &&
    expressionReadsVariable(transition.guard, guardEnvironment(model, machine), 'user')
  );
}

function guardEnvironment(model: Model, machine: StateMachine) {
  return expressionEnvironment(model, {
    entity: machine.entity,
    variables: ['record', 'user', 'now', 'today'],
  });
}

function guardContext(record: Record<string, JsonValue>, context: TransitionContext) {
  return { record, now: context.now, ...(context.user ? { user: context.user } : {}) };
}

function guardRefusal(
  model: Model,
  transition: Transition,
  record: Record<string, JsonValue>,
  context: TransitionContext,
): TransitionVerdict {
  const name = transition.label ?? transition.name;
  const message = transition.guardMessage ?? `"${name}" is not possible now.`;
  return {
    allowed: false,
    reason: 'guard',
    message: fillMessage(message, model, { record, user: context.user }),
    ...(transition.guardCode ? { code: transition.guardCode } : {}),
  };
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
export function transitionRefusal(reason: 'state' | 'role' | 'guard' | 'error'): {
  status: 403 | 409 | 500;
  code: string;
} {
  switch (reason) {
    case 'error':
      return { status: 500, code: 'EVALUATION_FAILED' };
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
  const env = expressionEnvironment(model, {
    entity: machine.entity,
    variables: ['record', 'user', 'now', 'today'],
  });
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
