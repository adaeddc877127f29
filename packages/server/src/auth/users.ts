import { createHash, randomBytes } from 'node:crypto';
import { attributeValue, type JsonValue, type Model, signInRoles } from '@ninefold/model';
import type { Store, StoredUser } from '../store/store';
import { hashPassword } from './passwords';

/** A user to create, as `--user EMAIL:ROLE[:NAME=VALUE,...]` gives it. */
export interface UserRequest {
  email: string;
  role: string;
  attributes: Record<string, JsonValue>;
}

const EMAIL = /^[^@\s:]+@[^@\s:]+$/;
const ATTRIBUTE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names the API gives every user itself; an attribute may not pose as one of them. */
const RESERVED = new Set(['id', 'email', 'role']);

/**
 * Reads `ann@shop.test:customer:customerId=3`: the email, a role of point 6, and optional attributes
 * that permission conditions read as `user.<name>` (numbers when they look like numbers).
 *
 * @example
 * ```ts
 * parseUserOption('ann@shop.test:customer:customerId=3', model);
 * // { ok: true, user: { email: 'ann@shop.test', role: 'customer', attributes: { customerId: 3 } } }
 * ```
 */
export function parseUserOption(
  text: string,
  model: Model,
): { ok: true; user: UserRequest } | { ok: false; message: string } {
  const [email = '', role = '', extra, ...rest] = text.split(':');
  const usage = `--user takes EMAIL:ROLE or EMAIL:ROLE:NAME=VALUE,...; "${clipped(text)}" is not that.`;
  if (rest.length > 0 || !EMAIL.test(email) || role === '') return { ok: false, message: usage };
  if (!model.roles.shown) {
    return { ok: false, message: 'Point 6 (roles and permissions) is not shown: there are no users.' };
  }
  const roles = signInRoles(model);
  if (!roles.includes(role)) {
    return {
      ok: false,
      message: `--user ${email}: "${clipped(role)}" is not a role of point 6. Use one of: ${roles.join(', ')}.`,
    };
  }
  const attributes: Record<string, JsonValue> = {};
  for (const pair of extra ? extra.split(',') : []) {
    const [name = '', value] = pair.split('=');
    if (!ATTRIBUTE_NAME.test(name) || value === undefined || RESERVED.has(name)) {
      return { ok: false, message: `${usage} (${clipped(pair)})` };
    }
    attributes[name] = attributeValue(value);
  }
  return { ok: true, user: { email, role, attributes } };
}

/** A password or an API key, 128 bits, readable in a terminal. */
export function generateSecret(): string {
  return randomBytes(16).toString('base64url');
}

/** API keys are stored as SHA-256: they are long and random, so a slow hash buys nothing. */
export function apiKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export type AddedUser =
  | { ok: true; user: StoredUser; password: string; apiKey: string }
  | { ok: false; message: string };

/**
 * Adds a user with a password and an API key (whichever point 6's sign-in uses), generating those not
 * given. The secrets are returned once, to be shown to the person running the server; only hashes stay.
 * A caller that adds many users with one password may hash it once (`hashPassword`) and pass the hash
 * beside it: scrypt is the slow part of adding a user.
 */
export async function addUser(
  store: Store,
  request: UserRequest,
  secrets:
    | { password?: string; apiKey?: string }
    | { password: string; passwordHash: string; apiKey?: string } = {},
): Promise<AddedUser> {
  const password = secrets.password ?? generateSecret();
  const apiKey = secrets.apiKey ?? generateSecret();
  const created = await store.createUser({
    email: request.email,
    role: request.role,
    attributes: request.attributes,
    passwordHash: 'passwordHash' in secrets ? secrets.passwordHash : await hashPassword(password),
    apiKeyHash: apiKeyHash(apiKey),
  });
  if (created === 'exists') {
    return {
      ok: false,
      message: `A user ${request.email.toLowerCase()} exists already; it is kept as it is.`,
    };
  }
  return { ok: true, user: created, password, apiKey };
}

/** The user as the client and permission conditions see it: never a hash. */
export function userView(
  user: Pick<StoredUser, 'id' | 'email' | 'role' | 'attributes'>,
): Record<string, JsonValue> {
  return { ...user.attributes, id: user.id, email: user.email, role: user.role };
}

function clipped(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
