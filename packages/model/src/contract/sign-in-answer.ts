// Reading what a sign-in, refresh or session call answers, as the prototype API and common APIs word
// it: the client's session and `ninefold verify` both read answers this one way.
import type { JsonValue } from '../model';
import type { Principal } from '../rules/grants';

/** A person as an answer describes them, every attribute kept with its JSON type for conditions. */
export type UserRecord = Record<string, JsonValue>;

/** What a sign-in (or refresh) answer gives: a token, maybe its expiry and the person. */
export interface TokenAnswer {
  token: string;
  /** A token to trade for a fresh one through the API's refresh call (Directus's `refresh_token`). */
  refreshToken?: string;
  /** Milliseconds since the epoch. */
  expiresAt?: number;
  user?: UserRecord;
}

/** Members that carry a token, as the prototype API (`token`) and common APIs (OAuth2's) name it. */
const TOKEN_MEMBERS = ['token', 'accessToken', 'access_token'] as const;
/** Members that say when a token ends, never attributes of a person. */
const EXPIRY_MEMBERS = new Set([
  'expires',
  'expiresAt',
  'expires_at',
  'expires_in',
  'expiresIn',
  'token_type',
]);
/** Members of a user that are credentials, never kept as attributes of the person. */
const SECRET_MEMBERS = new Set([...TOKEN_MEMBERS, 'password', 'refreshToken', 'refresh_token']);

/** Whether a member of a user answer is a credential, never kept as an attribute of the person. */
export function isSecretMember(name: string): boolean {
  return SECRET_MEMBERS.has(name);
}

/**
 * The token, expiry and user of a sign-in answer: `{ token, expiresAt, user }` as the prototype API
 * answers, or an answer that wraps the person with their token in one object (`{ user: { email, token } }`,
 * as Conduit does), which is then the person. Undefined when no token is found.
 */
export function readTokenAnswer(body: unknown, now: number): TokenAnswer | undefined {
  if (!isObject(body)) return undefined;
  const token = tokenIn(body);
  if (token !== undefined) {
    const user = isObject(body.user) ? (body.user as UserRecord) : undefined;
    const expiresAt = expiryIn(body, now);
    const refreshToken = refreshTokenIn(body);
    return {
      token,
      ...(refreshToken === undefined ? {} : { refreshToken }),
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(user ? { user } : {}),
    };
  }
  const wrappers = Object.values(body).filter((value) => isObject(value) && tokenIn(value) !== undefined);
  const wrapper = wrappers.length === 1 ? (wrappers[0] as Record<string, unknown>) : undefined;
  const wrapped = wrapper ? tokenIn(wrapper) : undefined;
  if (!wrapper || wrapped === undefined) return undefined;
  const expiresAt = expiryIn(wrapper, now) ?? expiryIn(body, now);
  // `{ data: { access_token, expires, refresh_token } }` (Directus) wraps a token, not a person.
  const person = Object.keys(wrapper).some((name) => !SECRET_MEMBERS.has(name) && !EXPIRY_MEMBERS.has(name));
  const refreshToken = refreshTokenIn(wrapper) ?? refreshTokenIn(body);
  return {
    token: wrapped,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(person ? { user: wrapper as UserRecord } : {}),
  };
}

/** The person of a session answer (`{ user, expiresAt? }`), or undefined. */
export function readSessionAnswer(
  body: unknown,
  now: number,
): { user: UserRecord; expiresAt?: number } | undefined {
  if (!isObject(body) || !isObject(body.user)) return undefined;
  const expiresAt = expiryIn(body, now);
  return { user: body.user as UserRecord, ...(expiresAt === undefined ? {} : { expiresAt }) };
}

/**
 * The principal the permission rules see: `{ role, user: { id, email, role, ...attributes } }`. The id
 * keeps the type the API gave it, so that `record.ownerId == user.id` compares like with like.
 */
export function principalOfUser(record: UserRecord): Principal {
  const user: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(record)) if (!SECRET_MEMBERS.has(name)) user[name] = value;
  const role = typeof record.role === 'string' && record.role !== '' ? record.role : undefined;
  return role === undefined ? { user } : { role, user };
}

/**
 * Seconds to wait from a `Retry-After` header: a number of seconds or an HTTP date. Undefined when absent
 * or unreadable.
 */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function tokenIn(object: Record<string, unknown>): string | undefined {
  for (const member of TOKEN_MEMBERS) {
    const value = object[member];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function refreshTokenIn(object: Record<string, unknown>): string | undefined {
  const value = object.refresh_token ?? object.refreshToken;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * `expiresAt` as an ISO date or a time since the epoch, else OAuth2's `expires_in` seconds, else a
 * number `expires`: a time since the epoch when it is that large, otherwise how long the token lasts in
 * milliseconds (Directus's `expires: 900000`).
 */
function expiryIn(object: Record<string, unknown>, now: number): number | undefined {
  const at = object.expiresAt;
  if (typeof at === 'string') {
    const parsed = Date.parse(at);
    if (!Number.isNaN(parsed)) return parsed;
  }
  // A number this small is seconds since the epoch (as a JWT's `exp`), not milliseconds.
  if (typeof at === 'number' && Number.isFinite(at) && at > 0) return at < 1e11 ? at * 1000 : at;
  const inSeconds = object.expires_in ?? object.expiresIn;
  if (typeof inSeconds === 'number' && Number.isFinite(inSeconds) && inSeconds > 0) {
    return now + inSeconds * 1000;
  }
  const expires = object.expires;
  if (typeof expires === 'number' && Number.isFinite(expires) && expires > 0) {
    if (expires >= 1e11) return expires;
    if (expires >= 1e9) return expires * 1000;
    return now + expires;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
