import { exhaustiveSwitchError } from '../exhaustive';
import { entityPlural, findEntity } from '../lookup';
import type { CrudAction, Grant, JsonValue, Model, Role, Screen, StateMachine, Transition } from '../model';

/**
 * Who is asking: the role of the signed-in user and the user as conditions see it (`user.id`,
 * `user.customerId`). Someone who has not signed in has no role; the grants that apply to them are the
 * visitor role's, when point 6 names one (`actingRole`).
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

export const ALLOWED: AccessVerdict = { allowed: true };

/**
 * Whether point 6 restricts anything: it is shown and grants at least one permission. A specification
 * that names roles but writes no permissions table restricts nothing by entity (only screens that name
 * their roles, and transitions that do), rather than forbidding everything to everyone.
 */
export function permissionsApply(model: Model): boolean {
  return model.roles.shown && model.roles.grants.length > 0;
}

/** The role of people who have not signed in, when point 6 names one (`Role.signedOut`). */
export function visitorRole(model: Model): Role | undefined {
  return model.roles.shown ? model.roles.roles.find((role) => role.signedOut) : undefined;
}

/**
 * Whether a principal's role manages people (`Role.managesPeople`): lists, invites, changes, deactivates
 * and signs out the people of the prototype API's own sign-in. Nobody does unless point 6 says so.
 */
export function managesPeople(model: Model, principal: Principal): boolean {
  if (!model.roles.shown || principal.role === undefined) return false;
  return model.roles.roles.some((role) => role.name === principal.role && role.managesPeople === true);
}

/** The roles people sign in with: every role but the visitor role, which is for those who do not. */
export function signInRoles(model: Model): string[] {
  return model.roles.shown
    ? model.roles.roles.filter((role) => !role.signedOut).map((role) => role.name)
    : [];
}

/**
 * The role whose grants, screens and transitions apply to a principal: its own once signed in; before,
 * the visitor role when point 6 names one, and none otherwise. Every check of this module and of
 * `checkAction` asks it, so a visitor's reads follow the same rules as anyone's, in every channel.
 */
export function actingRole(model: Model, principal: Principal): string | undefined {
  return principal.role ?? visitorRole(model)?.name;
}

/** What refuses someone not signed in: signing in is the way on, whether or not a visitor role reads. */
function signInTo(what: string): AccessVerdict {
  return { allowed: false, reason: 'not-signed-in', message: `Sign in to ${what}.` };
}

/** The grant of a role on an entity (at most one: the model's check refuses duplicates). */
export function grantFor(model: Model, role: string, entity: string): Grant | undefined {
  return model.roles.shown
    ? model.roles.grants.find((grant) => grant.role === role && grant.entity === entity)
    : undefined;
}

/**
 * Whether a principal's role may take an action on an entity's records at all: the role's grant must name
 * the action. Whether it may on a given record, whose grant has a condition, is `checkAction`'s (which
 * evaluates the condition, and so needs the expression engine; this does not, which keeps it out of a
 * client's first load).
 *
 * @example
 * ```ts
 * checkGrant(model, { role: 'clerk', user: { id: 1 } }, 'Order', 'delete');
 * // { allowed: false, reason: 'no-grant', message: 'The role Counter clerk may not delete orders.' }
 * ```
 */
export function checkGrant(
  model: Model,
  principal: Principal,
  entity: string,
  action: CrudAction,
): AccessVerdict {
  if (!permissionsApply(model)) return ALLOWED;
  const things = pluralOf(model, entity);
  const role = actingRole(model, principal);
  // A visitor role only reads (check refuses a grant of more): a change needs someone who answers for it.
  if (role === undefined || (principal.role === undefined && action !== 'read')) {
    return signInTo(`${verb(action)} ${things}`);
  }
  const grant = grantFor(model, role, entity);
  if (!grant?.actions.includes(action)) {
    if (principal.role === undefined) return signInTo(`${verb(action)} ${things}`);
    return {
      allowed: false,
      reason: 'no-grant',
      message: `The role ${roleLabel(model, role)} may not ${verb(action)} ${things}.`,
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
    const role = actingRole(model, principal);
    if (role === undefined || (principal.role === undefined && !screen.roles.includes(role))) {
      return signInTo('see this page');
    }
    if (!screen.roles.includes(role)) {
      return {
        allowed: false,
        reason: 'role',
        message: `The role ${roleLabel(model, role)} may not see this page.`,
      };
    }
  }
  switch (screen.kind) {
    case 'list':
    case 'detail':
      return checkGrant(model, principal, screen.entity, 'read');
    case 'create':
      return checkGrant(model, principal, screen.entity, 'create');
    case 'edit':
      return checkGrant(model, principal, screen.entity, 'update');
    case 'dashboard':
    case 'sign-in':
    case 'custom':
      return ALLOWED;
    default:
      return exhaustiveSwitchError(screen);
  }
}

/** The fields of an entity a principal may not read, and those it may read but not write. */
export interface FieldAccess {
  /**
   * Every field the role may not read in general, those hidden only under a condition included: a list's
   * filters, sorting and search, names, figures, imports and writes treat them all alike.
   */
  hidden: ReadonlySet<string>;
  readOnly: ReadonlySet<string>;
  /**
   * The fields of `hidden` that a record shows where its condition (CEL over `record` and `user`) does
   * not hold (`conditionallyShown` in permissions.ts).
   */
  hiddenWhile?: { fields: ReadonlySet<string>; when: string };
}

const OPEN: FieldAccess = { hidden: new Set(), readOnly: new Set() };

/** Per model, by `role entity`: a list answer asks once per record, and a model never changes. */
const fieldAccessCache = new WeakMap<Model, Map<string, FieldAccess>>();

/** What the principal's grant on the entity says of its fields; nothing when permissions do not apply. */
export function fieldAccess(model: Model, principal: Principal, entity: string): FieldAccess {
  const role = actingRole(model, principal);
  if (!permissionsApply(model) || role === undefined) return OPEN;
  let known = fieldAccessCache.get(model);
  if (!known) {
    known = new Map();
    fieldAccessCache.set(model, known);
  }
  const key = `${role} ${entity}`;
  const cached = known.get(key);
  if (cached) return cached;
  const grant = grantFor(model, role, entity);
  const access: FieldAccess = grant
    ? {
        hidden: new Set([...grant.hidden, ...(grant.hiddenWhile?.fields ?? [])]),
        readOnly: new Set(grant.readOnly),
        ...(grant.hiddenWhile
          ? { hiddenWhile: { fields: new Set(grant.hiddenWhile.fields), when: grant.hiddenWhile.when } }
          : {}),
      }
    : OPEN;
  known.set(key, access);
  return access;
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
  const acting = actingRole(model, principal);
  const role = acting === undefined ? '' : roleLabel(model, acting);
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

export function roleLabel(model: Model, role: string): string {
  const found = model.roles.shown ? model.roles.roles.find((r) => r.name === role) : undefined;
  return found?.label ?? role;
}

export function pluralOf(model: Model, name: string): string {
  const entity = findEntity(model, name);
  if (!entity) return name;
  return entityPlural(entity).toLowerCase();
}

export function verb(action: CrudAction): string {
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

/**
 * Whether a principal's role may take a transition on some record, before any record's condition: the
 * roles the transition names, else whoever may update records of the entity. A screen that decides
 * without a record (whether to offer a selection) asks this, without the expression engine that
 * `transitionAccess` brings to ask the record.
 */
export function transitionGrant(
  model: Model,
  principal: Principal,
  machine: StateMachine,
  transition: Transition,
): AccessVerdict {
  if (transition.roles === undefined || !model.roles.shown) {
    return checkGrant(model, principal, machine.entity, 'update');
  }
  const name = transition.label ?? transition.name;
  // Someone not signed in takes no step, whatever a visitor role may read: a step is a change.
  const role = principal.role;
  if (role === undefined) {
    return { allowed: false, reason: 'not-signed-in', message: `Sign in to "${name}".` };
  }
  if (!transition.roles.includes(role)) {
    return {
      allowed: false,
      reason: 'role',
      message: `The role ${roleLabel(model, role)} may not "${name}".`,
    };
  }
  return checkGrant(model, principal, machine.entity, 'read');
}
