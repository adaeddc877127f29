import { type ExpressionEnvironment, evaluateExpression, expressionEnvironment } from '../cel';
import { exhaustiveSwitchError } from '../exhaustive';
import { entityPlural, findEntity } from '../lookup';
import type { CrudAction, Grant, JsonValue, Model, Screen, StateMachine, Transition } from '../model';

/**
 * Who is asking: the role of the signed-in user and the user as conditions see it (`user.id`,
 * `user.customerId`). Someone who has not signed in has no role.
 */
export interface Principal {
  role?: string;
  user?: Record<string, JsonValue>;
}

/** Why something is refused, as data: the client words it, the prototype API answers 401 or 403. */
export type AccessDenial =
  /** Permissions apply and nobody is signed in. */
  | 'not-signed-in'
  /** The screen names the roles that may see it, and this is not one of them. */
  | 'role'
  /** The role has no grant of this action on the entity. */
  | 'no-grant'
  /** The grant's condition (`where`) does not hold for this record and user. */
  | 'condition';

export type AccessVerdict = { allowed: true } | { allowed: false; reason: AccessDenial; message: string };

const ALLOWED: AccessVerdict = { allowed: true };

/**
 * Whether point 6 restricts anything: it is shown and grants at least one permission. A specification
 * that names roles but writes no permissions table restricts nothing by entity (only screens that name
 * their roles, and transitions that do), rather than forbidding everything to everyone.
 */
export function permissionsApply(model: Model): boolean {
  return model.roles.shown && model.roles.grants.length > 0;
}

/** The grant of a role on an entity (at most one: the model's check refuses duplicates). */
export function grantFor(model: Model, role: string, entity: string): Grant | undefined {
  return model.roles.shown
    ? model.roles.grants.find((grant) => grant.role === role && grant.entity === entity)
    : undefined;
}

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
  if (!permissionsApply(model)) return ALLOWED;
  const things = pluralOf(model, entity);
  if (principal.role === undefined) {
    return { allowed: false, reason: 'not-signed-in', message: `Sign in to ${verb(action)} ${things}.` };
  }
  const grant = grantFor(model, principal.role, entity);
  if (!grant?.actions.includes(action)) {
    return {
      allowed: false,
      reason: 'no-grant',
      message: `The role ${roleLabel(model, principal.role)} may not ${verb(action)} ${things}.`,
    };
  }
  if (record !== undefined && !conditionHolds(model, grant, record, principal)) {
    return {
      allowed: false,
      reason: 'condition',
      message: `The role ${roleLabel(model, principal.role)} may ${verb(action)} only some ${things}, and not this one.`,
    };
  }
  return ALLOWED;
}

/**
 * Whether a principal may see a screen: one of the roles it names, if it names any, and for a screen of
 * an entity the action it needs (read for lists and details, create and update for forms).
 */
export function checkScreen(model: Model, principal: Principal, screen: Screen): AccessVerdict {
  if (screen.roles !== undefined && model.roles.shown) {
    if (principal.role === undefined) {
      return { allowed: false, reason: 'not-signed-in', message: 'Sign in to see this page.' };
    }
    if (!screen.roles.includes(principal.role)) {
      return {
        allowed: false,
        reason: 'role',
        message: `The role ${roleLabel(model, principal.role)} may not see this page.`,
      };
    }
  }
  switch (screen.kind) {
    case 'list':
    case 'detail':
      return checkAction(model, principal, screen.entity, 'read');
    case 'create':
      return checkAction(model, principal, screen.entity, 'create');
    case 'edit':
      return checkAction(model, principal, screen.entity, 'update');
    case 'dashboard':
    case 'sign-in':
    case 'custom':
      return ALLOWED;
    default:
      return exhaustiveSwitchError(screen);
  }
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
  const name = transition.label ?? transition.name;
  if (principal.role === undefined) {
    return { allowed: false, reason: 'not-signed-in', message: `Sign in to "${name}".` };
  }
  if (!transition.roles.includes(principal.role)) {
    return {
      allowed: false,
      reason: 'role',
      message: `The role ${roleLabel(model, principal.role)} may not "${name}".`,
    };
  }
  return checkAction(model, principal, machine.entity, 'read', record);
}

/** The fields of an entity a principal may not read, and those it may read but not write. */
export interface FieldAccess {
  hidden: ReadonlySet<string>;
  readOnly: ReadonlySet<string>;
}

const OPEN: FieldAccess = { hidden: new Set(), readOnly: new Set() };

/** Per model, by `role entity`: a list answer asks once per record, and a model never changes. */
const fieldAccessCache = new WeakMap<Model, Map<string, FieldAccess>>();

/** What the principal's grant on the entity says of its fields; nothing when permissions do not apply. */
export function fieldAccess(model: Model, principal: Principal, entity: string): FieldAccess {
  if (!permissionsApply(model) || principal.role === undefined) return OPEN;
  let known = fieldAccessCache.get(model);
  if (!known) {
    known = new Map();
    fieldAccessCache.set(model, known);
  }
  const key = `${principal.role} ${entity}`;
  const cached = known.get(key);
  if (cached) return cached;
  const grant = grantFor(model, principal.role, entity);
  const access = grant ? { hidden: new Set(grant.hidden), readOnly: new Set(grant.readOnly) } : OPEN;
  known.set(key, access);
  return access;
}

/**
 * A record as the principal may see it: without the fields its role may not read. The prototype API
 * sends only this, so a hidden field never reaches the browser.
 */
export function visibleRecord(
  model: Model,
  principal: Principal,
  entity: string,
  record: Record<string, JsonValue>,
): Record<string, JsonValue> {
  const { hidden } = fieldAccess(model, principal, entity);
  if (hidden.size === 0) return record;
  const visible: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(record)) if (!hidden.has(name)) visible[name] = value;
  return visible;
}

/** A field in a body that the principal may not write, and why. */
export interface WriteViolation {
  field: string;
  reason: 'hidden' | 'read-only';
  message: string;
}

/**
 * The fields of a body that the principal may not write: hidden ones and read-only ones. They are
 * refused, never dropped silently, so that a client and its API cannot disagree unseen.
 */
export function writeViolations(
  model: Model,
  principal: Principal,
  entity: string,
  body: Record<string, unknown>,
): WriteViolation[] {
  const { hidden, readOnly } = fieldAccess(model, principal, entity);
  if (hidden.size === 0 && readOnly.size === 0) return [];
  const role = principal.role === undefined ? '' : roleLabel(model, principal.role);
  const violations: WriteViolation[] = [];
  for (const field of Object.keys(body)) {
    if (hidden.has(field)) {
      violations.push({ field, reason: 'hidden', message: `The role ${role} may not set this field.` });
    } else if (readOnly.has(field)) {
      violations.push({ field, reason: 'read-only', message: `The role ${role} may not change this field.` });
    }
  }
  return violations;
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

function roleLabel(model: Model, role: string): string {
  const found = model.roles.shown ? model.roles.roles.find((r) => r.name === role) : undefined;
  return found?.label ?? role;
}

function pluralOf(model: Model, name: string): string {
  const entity = findEntity(model, name);
  if (!entity) return name;
  return entityPlural(entity).toLowerCase();
}

function verb(action: CrudAction): string {
  switch (action) {
    case 'read':
      return 'see';
    case 'create':
      return 'create';
    case 'update':
      return 'change';
    case 'delete':
      return 'delete';
    default:
      return exhaustiveSwitchError(action);
  }
}
