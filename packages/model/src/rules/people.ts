import type { JsonValue, Model } from '../model';
import { managesPeople, type Principal, signInRoles } from './grants';
import type { FieldError } from './validate';
import { type Planned, validationRefusal, type WriteRefusal } from './write-plans';

// The management of people (point 6's `managesPeople`): who may, and what an invitation or a change may
// say. The prototype API runs these on every call of `/_accounts`; the client's People screen words its
// form by the same limits, so a rule lives here once.

/** Where a person stands: invited (no password yet), active, or deactivated (refused at every call). */
export type AccountStatus = 'invited' | 'active' | 'deactivated';

/** A person of the prototype API's own sign-in, as a manager of people sees them. */
export interface Account {
  id: string;
  email: string;
  role: string;
  status: AccountStatus;
  /** What permission conditions read as `user.<name>` (a customer's `customerId`). */
  attributes: Record<string, JsonValue>;
}

export interface Invitation {
  email: string;
  role: string;
  attributes: Record<string, JsonValue>;
}

/** A change of a person: each part optional, at least one given. */
export interface AccountChange {
  role?: string;
  attributes?: Record<string, JsonValue>;
  active?: boolean;
}

/** The least length of a password set by a link. Length is what makes a password strong (NIST 800-63B). */
export const PASSWORD_MIN_LENGTH = 8;
/** Longer than anyone types, short enough that hashing it costs nothing extra. */
export const PASSWORD_MAX_LENGTH = 1024;
const EMAIL = /^[^@\s:]+@[^@\s:]+\.[^@\s:]+$/;
const MAX_EMAIL = 254;
/** Names the API gives every person itself; an attribute may not pose as one of them. */
const RESERVED = new Set(['id', 'email', 'role', 'status']);

/**
 * The `user.<name>` attributes a role's conditions read (`record.customer == user.customerId`): what an
 * invitation or a change may set for a person of that role, and nothing else.
 *
 * @example
 * ```ts
 * personAttributes(shop, 'customer'); // ['customerId']
 * ```
 */
export function personAttributes(model: Model, role: string): string[] {
  if (!model.roles.shown) return [];
  const names = new Set<string>();
  for (const grant of model.roles.grants) {
    if (grant.role !== role) continue;
    for (const condition of [grant.where, grant.hiddenWhile?.when]) {
      for (const [, name] of (condition ?? '').matchAll(/\buser\.([A-Za-z_]\w*)/g)) {
        if (name && !RESERVED.has(name)) names.add(name);
      }
    }
  }
  return [...names].sort();
}

/** Refuses anyone whose role does not manage people: 401 before signing in, 403 after. */
export function planManaging(model: Model, principal: Principal): Planned<object> {
  if (principal.role === undefined) return refused(401, 'NOT_SIGNED_IN', 'Sign in to manage people.');
  if (!managesPeople(model, principal)) {
    return refused(403, 'FORBIDDEN', `Role "${principal.role}" does not manage people (point 6).`);
  }
  return { ok: true };
}

/**
 * An invitation as sent (`{ email, role, attributes? }`), checked: a manager of people, a real email, a
 * role people sign in with, and only the attributes that role's conditions read.
 *
 * @example
 * ```ts
 * planInvitation(shop, { role: 'owner' }, { email: 'ann@shop.test', role: 'customer', attributes: { customerId: 3 } });
 * // { ok: true, invitation: { email: 'ann@shop.test', role: 'customer', attributes: { customerId: 3 } } }
 * ```
 */
export function planInvitation(
  model: Model,
  principal: Principal,
  body: unknown,
): Planned<{ invitation: Invitation }> {
  const managing = planManaging(model, principal);
  if (!managing.ok) return managing;
  if (!isObject(body)) return invalid([{ pointer: '', code: 'type', message: 'Send a JSON object.' }]);
  const errors: FieldError[] = [];
  unknownKeys(body, ['email', 'role', 'attributes'], errors);
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  if (!EMAIL.test(email) || email.length > MAX_EMAIL) {
    errors.push({
      pointer: '/email',
      code: 'format',
      message: 'Enter an email address, like ann@example.com.',
    });
  }
  const role = roleOf(model, body.role, errors);
  const attributes = attributesOf(model, role, body.attributes ?? {}, errors);
  if (errors.length > 0 || role === undefined) return invalid(errors);
  return { ok: true, invitation: { email, role, attributes } };
}

/**
 * A change of a person, checked against who they are: a manager of people, a known role, the role's own
 * attributes, and never one's own role or one's own deactivation (nobody locks themselves out, or the
 * last manager out with them). `endsSessions` says when the person's sessions must end with it.
 */
export function planAccountChange(
  model: Model,
  principal: Principal & { user?: Record<string, JsonValue> },
  account: Account,
  body: unknown,
): Planned<{ change: AccountChange; endsSessions: boolean }> {
  const managing = planManaging(model, principal);
  if (!managing.ok) return managing;
  if (!isObject(body)) return invalid([{ pointer: '', code: 'type', message: 'Send a JSON object.' }]);
  const errors: FieldError[] = [];
  unknownKeys(body, ['role', 'attributes', 'active'], errors);
  if (body.role === undefined && body.attributes === undefined && body.active === undefined) {
    errors.push({ pointer: '', code: 'required', message: 'Send a role, attributes or active to change.' });
  }
  const role = body.role === undefined ? account.role : roleOf(model, body.role, errors);
  if (body.active !== undefined && typeof body.active !== 'boolean') {
    errors.push({ pointer: '/active', code: 'type', message: 'Active is true or false.' });
  }
  // A new role keeps only the attributes its conditions read; new attributes replace the old ones.
  const attributes =
    body.attributes === undefined
      ? keep(account.attributes, personAttributes(model, role ?? account.role))
      : attributesOf(model, role, body.attributes, errors);
  if (errors.length > 0 || role === undefined) return invalid(errors);
  const own = principal.user?.id !== undefined && String(principal.user.id) === account.id;
  const deactivates = body.active === false && account.status !== 'deactivated';
  if (own && (role !== account.role || deactivates)) {
    return refused(
      409,
      'OWN_ACCOUNT',
      'You cannot change your own role or deactivate yourself: ask another person who manages people.',
    );
  }
  const change: AccountChange = {
    ...(role !== account.role ? { role } : {}),
    ...(same(attributes, account.attributes) ? {} : { attributes }),
    ...(typeof body.active === 'boolean' && body.active !== (account.status !== 'deactivated')
      ? { active: body.active }
      : {}),
  };
  return { ok: true, change, endsSessions: change.role !== undefined || change.active === false };
}

/**
 * An attribute typed as text (`--user …:customerId=3`, the People form): a whole number when it looks like
 * one, since references compared with it usually are, and the text otherwise.
 *
 * @example
 * ```ts
 * attributeValue('3'); // 3
 * attributeValue('alto'); // 'alto'
 * ```
 */
export function attributeValue(text: string): string | number {
  return /^-?\d{1,15}$/.test(text.trim()) ? Number(text) : text;
}

/** A password a link sets: long enough, and not absurdly long. */
export function passwordError(password: string): FieldError | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return {
      pointer: '/password',
      code: 'min',
      message: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
    };
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return { pointer: '/password', code: 'max', message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` };
  }
  return undefined;
}

function roleOf(model: Model, value: unknown, errors: FieldError[]): string | undefined {
  const roles = signInRoles(model);
  if (typeof value === 'string' && roles.includes(value)) return value;
  errors.push({ pointer: '/role', code: 'enum', message: `Choose one of the roles: ${roles.join(', ')}.` });
  return undefined;
}

function attributesOf(
  model: Model,
  role: string | undefined,
  value: unknown,
  errors: FieldError[],
): Record<string, JsonValue> {
  if (!isObject(value)) {
    errors.push({ pointer: '/attributes', code: 'type', message: 'Attributes are a JSON object.' });
    return {};
  }
  const allowed = role === undefined ? [] : personAttributes(model, role);
  const attributes: Record<string, JsonValue> = {};
  for (const [name, each] of Object.entries(value)) {
    const pointer = `/attributes/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (!allowed.includes(name)) {
      errors.push({
        pointer,
        code: 'unknown-field',
        message: allowed.length
          ? `Role "${role}" reads only ${allowed.join(', ')}.`
          : `No condition of role "${role ?? '?'}" reads an attribute.`,
      });
    } else if (each === '' || each === null) {
      // Left empty: not set, so the conditions that read it hold for nothing.
    } else if (typeof each === 'string' || typeof each === 'number' || typeof each === 'boolean') {
      attributes[name] = typeof each === 'string' ? attributeValue(each) : each;
    } else {
      errors.push({ pointer, code: 'type', message: 'An attribute is text, a number, or true or false.' });
    }
  }
  return attributes;
}

function unknownKeys(body: Record<string, unknown>, known: string[], errors: FieldError[]): void {
  for (const key of Object.keys(body)) {
    if (!known.includes(key)) {
      errors.push({ pointer: `/${key}`, code: 'unknown-field', message: `"${key}" is not taken here.` });
    }
  }
}

function keep(attributes: Record<string, JsonValue>, names: string[]): Record<string, JsonValue> {
  return Object.fromEntries(Object.entries(attributes).filter(([name]) => names.includes(name)));
}

function same(a: Record<string, JsonValue>, b: Record<string, JsonValue>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function invalid(errors: FieldError[]): { ok: false; refusal: WriteRefusal } {
  return { ok: false, refusal: validationRefusal(errors) };
}

function refused(
  status: WriteRefusal['status'],
  code: string,
  message: string,
): { ok: false; refusal: WriteRefusal } {
  return { ok: false, refusal: { status, code, message, errors: [] } };
}
