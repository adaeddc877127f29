import { type ExpressionEnvironment, evaluateExpression, expressionEnvironment } from '../cel';
import type { CrudAction, Grant, JsonValue, Model, StateMachine, Transition } from '../model';
import {
  type AccessVerdict,
  ALLOWED,
  actingRole,
  checkGrant,
  fieldAccess,
  grantFor,
  type Principal,
  permissionsApply,
  pluralOf,
  roleLabel,
  transitionGrant,
  verb,
} from './grants';

/**
 * Whether a principal may take an action on an entity's records, and, given a record, on that one: the
 * role's grant must name the action, and its condition must hold for the record and the user. Without a
 * record the condition is not checked (a list asks per record; a screen asks whether to offer the
 * action at all). For a create, the record is the one as it will be stored (values set on create
 * included), and for an update it is asked twice, before and after: a grant's condition is never only
 * about records that exist, or a role could create one in another person's name or move one out of
 * its reach. The client hides or disables from it; the prototype API refuses with it.
 *
 * @example
 * ```ts
 * checkAction(model, { role: 'clerk', user: { id: 1 } }, 'Order', 'delete');
 * // { allowed: false, reason: 'no-grant', message: 'The role Counter clerk may not delete orders.' }
 * ```
 */
export function checkAction(
  model: Model,
  principal: Principal,
  entity: string,
  action: CrudAction,
  record?: Record<string, JsonValue>,
): AccessVerdict {
  const granted = checkGrant(model, principal, entity, action);
  if (!granted.allowed || record === undefined || !permissionsApply(model)) return granted;
  // checkGrant allowed it, so there is a role acting.
  const role = actingRole(model, principal) as string;
  const grant = grantFor(model, role, entity);
  if (grant && !conditionHolds(model, grant, record, principal)) {
    return {
      allowed: false,
      reason: 'condition',
      message: `The role ${roleLabel(model, role)} may ${verb(action)} only some ${pluralOf(model, entity)}, and not this one.`,
    };
  }
  return ALLOWED;
}

/**
 * Whether a principal's role may take a transition of this record at all, before its state and guard are
 * asked (`checkTransition`): a transition that names its roles is for those roles only, and they must be
 * able to see the record; one that names none is for whoever may update the record.
 *
 * @example
 * ```ts
 * transitionAccess(model, { role: 'warehouse', user: { id: 'u3' } }, machine, ship, order);
 * // { allowed: true }: Ship names the warehouse, which may read orders
 * ```
 */
export function transitionAccess(
  model: Model,
  principal: Principal,
  machine: StateMachine,
  transition: Transition,
  record?: Record<string, JsonValue>,
): AccessVerdict {
  if (transition.roles === undefined || !model.roles.shown) {
    return checkAction(model, principal, machine.entity, 'update', record);
  }
  const granted = transitionGrant(model, principal, machine, transition);
  return granted.allowed ? checkAction(model, principal, machine.entity, 'read', record) : granted;
}

/**
 * One CEL environment per model and entity: a list asks about every record it answers, and building the
 * environment (types of every field, the constants) costs far more than an evaluation.
 */
const environments = new WeakMap<Model, Map<string, ExpressionEnvironment>>();

function conditionEnvironment(model: Model, entity: string): ExpressionEnvironment {
  let byEntity = environments.get(model);
  if (!byEntity) {
    byEntity = new Map();
    environments.set(model, byEntity);
  }
  let env = byEntity.get(entity);
  if (!env) {
    env = expressionEnvironment(model, { entity, variables: ['record', 'user'] });
    byEntity.set(entity, env);
  }
  return env;
}

/** A condition that cannot be evaluated (a user without the field it reads) does not hold. */
function conditionHolds(
  model: Model,
  grant: Grant,
  record: Record<string, JsonValue>,
  principal: Principal,
): boolean {
  if (grant.where === undefined) return true;
  const env = conditionEnvironment(model, grant.entity);
  const result = evaluateExpression(grant.where, env, { record, user: principal.user ?? {} });
  return result.ok && result.value === true;
}

/**
 * The fields hidden from the role under a condition (point 6's `Hidden while`) that this record shows it:
 * those whose condition does not hold for the record as it is. A condition that cannot be evaluated
 * hides, as one that holds: a value is never sent by mistake.
 */
export function conditionallyShown(
  model: Model,
  principal: Principal,
  entity: string,
  record: Record<string, JsonValue>,
): ReadonlySet<string> {
  const { hiddenWhile } = fieldAccess(model, principal, entity);
  if (!hiddenWhile) return NONE;
  const env = conditionEnvironment(model, entity);
  const result = evaluateExpression(hiddenWhile.when, env, { record, user: principal.user ?? {} });
  return result.ok && result.value === false ? hiddenWhile.fields : NONE;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * A record as the principal may see it: without the fields its role may not read, and with those hidden
 * under a condition where it does not hold for this record. The prototype API and the tab's API send only
 * this, so a hidden value never reaches the browser.
 */
export function recordAsSeen(
  model: Model,
  principal: Principal,
  entity: string,
  record: Record<string, JsonValue>,
): Record<string, JsonValue> {
  const { hidden } = fieldAccess(model, principal, entity);
  if (hidden.size === 0) return record;
  const shown = conditionallyShown(model, principal, entity, record);
  const visible: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(record))
    if (!hidden.has(name) || shown.has(name)) visible[name] = value;
  return visible;
}

/**
 * Whether a person may learn who changed a record or took its transitions (the history's `by`, a live
 * event's author): only a role that may change the record too, as it is now. Editors need it, to know
 * whose change they might overwrite; a role that only reads the record (a customer following an order, a
 * reviewer who must not learn an author) does not learn the names of those who work on it. Hiding the
 * field that holds an author is not enough on its own: this keeps the history from naming them.
 *
 * @example
 * ```ts
 * mayKnowWhoActed(model, { role: 'customer', user }, 'Order', order); // false: customers only read orders
 * ```
 */
export function mayKnowWhoActed(
  model: Model,
  principal: Principal,
  entity: string,
  /** The record as it is now; without one (a change of an entity's records at large), the role's grant. */
  record?: Record<string, JsonValue>,
): boolean {
  return !permissionsApply(model) || checkAction(model, principal, entity, 'update', record).allowed;
}
