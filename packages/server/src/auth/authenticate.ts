import { randomBytes } from 'node:crypto';
import {
  exhaustiveSwitchError,
  type JsonValue,
  type Model,
  type Principal,
  type SignIn,
} from '@ninefold/model';
import { ProblemError, problem } from '../problem';
import type { Store, StoredUser } from '../store/store';
import { oidcVerifierFor } from './oidc';
import { verifyPassword } from './passwords';
import { createSignInThrottle, type SignInThrottle } from './sign-in-throttle';
import { createTokenIssuer, type SessionClaims, type TokenIssuer } from './tokens';
import { apiKeyHash, userView } from './users';

/** Who a request comes from, as the prototype API found out from its credentials. */
export type Authentication =
  /** No credentials were sent. */
  | { kind: 'anonymous' }
  | {
      kind: 'user';
      principal: Principal & { role: string; user: Record<string, JsonValue> };
      /** The session token that was sent (password sign-in), for refresh and sign-out. */
      session?: { tokenId: string; expiresAt: number };
    }
  /** Credentials were sent and are not good: always a 401, whatever the call. */
  | { kind: 'refused'; code: RefusalCode; message: string; retryAfterSeconds?: number };

export type RefusalCode = 'INVALID_TOKEN' | 'SESSION_EXPIRED' | 'SIGN_IN_FAILED' | 'TOO_MANY_ATTEMPTS';

/** Checks an access token of an OpenID Connect provider (see `createOidcVerifier`). */
export interface TokenVerifier {
  verify(
    token: string,
  ): Promise<
    | { ok: true; principal: { role?: string; user: Record<string, JsonValue> }; expiresAt?: number }
    | { ok: false; code: 'INVALID_TOKEN' | 'SESSION_EXPIRED'; message: string }
  >;
}

export interface AuthOptions {
  /**
   * Signs the session tokens (see `signingSecrets`); a fresh random one by default, so tokens end with
   * the process.
   */
  secret?: Uint8Array;
  /** The secret before the last rotation: its tokens still verify until they expire. */
  previousSecret?: Uint8Array;
  /** How long a session token is good for, in seconds; the client refreshes it while in use. */
  tokenSeconds?: number;
  /** The clock, in milliseconds. */
  now?: () => number;
  /** For sign-in kind `oidc`: checks the provider's tokens. */
  oidc?: TokenVerifier;
}

export const DEFAULT_TOKEN_SECONDS = 15 * 60;
/** How long an events ticket may wait before it is used. */
export const TICKET_SECONDS = 30;
/** Tickets name another issuer than session tokens: neither is accepted as the other. */
const TICKET_ISSUER = 'ninefold-events-ticket';

/** What a request carries that identifies it: its headers and the address it comes from. */
export interface Credentials {
  headers: Record<string, string | string[] | undefined>;
  ip: string;
}

export interface Authenticator {
  /** The sign-in kind point 6 names; `none` when it names none or is not shown. */
  readonly kind: SignIn['kind'];
  authenticate(credentials: Credentials): Promise<Authentication>;
  /** Password sign-in: a session token for the user, or why not (throttled per email and address). */
  signIn(
    email: string,
    password: string,
    ip: string,
  ): Promise<
    | { ok: true; token: string; expiresAt: number; user: Record<string, JsonValue> }
    | { ok: false; code: 'SIGN_IN_FAILED' | 'TOO_MANY_ATTEMPTS'; message: string; retryAfterSeconds?: number }
  >;
  /** A fresh token for a live session (the old one is revoked). */
  refresh(
    user: Record<string, JsonValue> & { id: string; role: string },
    session: { tokenId: string; expiresAt: number },
  ): Promise<{ token: string; expiresAt: number }>;
  /** Ends a session: its token is refused from now on, by every node of the database. */
  revoke(session: { tokenId: string; expiresAt: number }): Promise<void>;
  /**
   * A one-use ticket (30 s) that opens the events stream for a user whose browser cannot send headers
   * there (`EventSource`): it is not a session token, so one seen in an address or a log is worth nothing.
   */
  issueTicket(user: { id: string; role: string }): Promise<{ ticket: string; expiresAt: number }>;
  /** Who a ticket was issued to, once: a second use is refused. */
  redeemTicket(ticket: string): Promise<Authentication>;
  /**
   * What a person's credentials stand on now (role, attributes, ended sessions): a text that changes
   * when a manager changes any of them, and undefined once they are removed or deactivated. Something
   * held open for them (an events stream) ends when it changes. With a provider's sign-in, people are
   * not kept here, and their token decides: always the same text.
   */
  standing(userId: string): Promise<string | undefined>;
}

/**
 * The prototype API's side of point 6: reads the credentials the specification's sign-in kind uses
 * (a session token from password sign-in, HTTP basic, an API key, or an OpenID Connect access token),
 * and finds the user and role behind them. Users live in the store; passwords are scrypt hashes, API
 * keys SHA-256, and tokens are signed with `jose` and expire.
 *
 * @example
 * ```ts
 * const auth = createAuthenticator(model, store);
 * const who = await auth.authenticate({ headers: request.headers, ip: request.ip });
 * if (who.kind === 'user') checkAction(model, who.principal, 'Order', 'read');
 * ```
 */
export function createAuthenticator(model: Model, store: Store, options: AuthOptions = {}): Authenticator {
  const signIn: SignIn = model.roles.shown ? model.roles.signIn : { kind: 'none' };
  const now = options.now ?? Date.now;
  const secret = options.secret ?? randomBytes(32);
  const tokens: TokenIssuer = createTokenIssuer({
    secret,
    ...(options.previousSecret ? { previous: options.previousSecret } : {}),
    ttlSeconds: options.tokenSeconds ?? DEFAULT_TOKEN_SECONDS,
    now,
  });
  const tickets: TokenIssuer = createTokenIssuer({
    secret,
    ...(options.previousSecret ? { previous: options.previousSecret } : {}),
    ttlSeconds: TICKET_SECONDS,
    issuer: TICKET_ISSUER,
    now,
  });
  const throttle: SignInThrottle = createSignInThrottle({ now, counts: store.shared });
  const oidc = options.oidc ?? oidcVerifierFor(model);

  const principalOf = (user: StoredUser) => {
    const view = userView(user);
    return { role: user.role, user: view };
  };

  const checkPassword = async (email: string, password: string, ip: string) => {
    const key = `${email.toLowerCase()}|${ip}`;
    const allowed = await throttle.check(key);
    if (!allowed.allowed) {
      return {
        ok: false as const,
        code: 'TOO_MANY_ATTEMPTS' as const,
        message: `Too many failed sign-ins. Wait ${allowed.retryAfterSeconds} s before trying again.`,
        retryAfterSeconds: allowed.retryAfterSeconds,
      };
    }
    const user = await store.findUser({ email });
    // A missing user costs a hash too, so that timing does not tell which emails have accounts.
    const good = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
    // A deactivated person is told what anyone with a wrong password is: nothing about the account.
    if (!user || !good || user.deactivatedAt !== undefined) {
      await throttle.failed(key);
      return {
        ok: false as const,
        code: 'SIGN_IN_FAILED' as const,
        message: 'The email or the password is not right.',
      };
    }
    await throttle.succeeded(key);
    return { ok: true as const, user };
  };

  const bearer = async (token: string): Promise<Authentication> => {
    const checked = await tokens.verify(token);
    if (!checked.ok) {
      return checked.reason === 'expired'
        ? { kind: 'refused', code: 'SESSION_EXPIRED', message: 'Your session has ended. Sign in again.' }
        : { kind: 'refused', code: 'INVALID_TOKEN', message: 'The session token is not one this API gave.' };
    }
    const { claims } = checked;
    if (await store.shared.isRevoked(claims.tokenId)) {
      return {
        kind: 'refused',
        code: 'SESSION_EXPIRED',
        message: 'This session was signed out. Sign in again.',
      };
    }
    return holder(claims, { tokenId: claims.tokenId, expiresAt: claims.expiresAt });
  };

  /** The user a token (or ticket) names, as long as they still exist in the role it was issued for. */
  const holder = async (
    claims: SessionClaims,
    session?: { tokenId: string; expiresAt: number },
  ): Promise<Authentication> => {
    const user = await store.findUser({ id: claims.userId });
    // A user removed, deactivated, given another role, or whose sessions a manager ended since the token
    // was issued: the token no longer holds.
    if (!user || user.role !== claims.role || (user.sessions ?? 0) !== claims.sessions) {
      return { kind: 'refused', code: 'SESSION_EXPIRED', message: 'Your account changed. Sign in again.' };
    }
    if (user.deactivatedAt !== undefined) {
      return { kind: 'refused', code: 'SESSION_EXPIRED', message: 'Your account was deactivated.' };
    }
    return { kind: 'user', principal: principalOf(user), ...(session ? { session } : {}) };
  };

  return {
    kind: signIn.kind,

    async issueTicket(user) {
      // A ticket holds only while the sessions of the token that asked for it do.
      const stored = await store.findUser({ id: user.id });
      const issued = await tickets.issue({ ...user, sessions: stored?.sessions ?? 0 });
      return { ticket: issued.token, expiresAt: issued.expiresAt };
    },

    async standing(userId) {
      if (signIn.kind === 'none' || signIn.kind === 'oidc' || signIn.kind === 'oauth2') return 'provider';
      const user = await store.findUser({ id: userId });
      if (!user || user.deactivatedAt !== undefined) return undefined;
      return JSON.stringify([user.role, user.sessions ?? 0, user.attributes]);
    },

    async redeemTicket(ticket) {
      const checked = await tickets.verify(ticket);
      if (!checked.ok) {
        return {
          kind: 'refused',
          code: 'INVALID_TOKEN',
          message: 'The ticket is not one this API gave, or it expired.',
        };
      }
      const { claims } = checked;
      const first = await store.shared.revoke(claims.tokenId, claims.expiresAt, Math.floor(now() / 1000));
      if (!first) return { kind: 'refused', code: 'INVALID_TOKEN', message: 'This ticket was used already.' };
      return holder(claims);
    },

    async authenticate({ headers, ip }) {
      const authorization = single(headers.authorization);
      switch (signIn.kind) {
        case 'none':
          return { kind: 'anonymous' };
        case 'password': {
          const token = bearerToken(authorization);
          if (token === undefined) return authorization ? wrongScheme('Bearer') : { kind: 'anonymous' };
          return bearer(token);
        }
        case 'basic': {
          if (authorization === undefined) return { kind: 'anonymous' };
          const pair = basicPair(authorization);
          if (!pair) return wrongScheme('Basic');
          const checked = await checkPassword(pair.email, pair.password, ip);
          if (!checked.ok) return { kind: 'refused', ...checked };
          return { kind: 'user', principal: principalOf(checked.user) };
        }
        case 'token': {
          // A personal access token: the user's long-lived key, sent as a bearer token.
          const token = bearerToken(authorization);
          if (token === undefined) return authorization ? wrongScheme('Bearer') : { kind: 'anonymous' };
          const user = await store.findUser({ apiKeyHash: apiKeyHash(token) });
          if (!user || user.deactivatedAt !== undefined)
            return { kind: 'refused', code: 'INVALID_TOKEN', message: 'This access token is not known.' };
          return { kind: 'user', principal: principalOf(user) };
        }
        case 'api-key': {
          const key = apiKeyFrom(signIn, headers);
          if (key === undefined) return { kind: 'anonymous' };
          const user = await store.findUser({ apiKeyHash: apiKeyHash(key) });
          if (!user || user.deactivatedAt !== undefined)
            return { kind: 'refused', code: 'INVALID_TOKEN', message: 'This API key is not known.' };
          return { kind: 'user', principal: principalOf(user) };
        }
        case 'oidc': {
          const token = bearerToken(authorization);
          if (token === undefined) return authorization ? wrongScheme('Bearer') : { kind: 'anonymous' };
          if (!oidc) {
            return {
              kind: 'refused',
              code: 'INVALID_TOKEN',
              message: 'This API cannot check OpenID tokens.',
            };
          }
          const checked = await oidc.verify(token).catch(() => {
            // The provider could not be asked: the token may be good, so this is no 401.
            throw new ProblemError(
              problem(
                503,
                'SIGN_IN_UNAVAILABLE',
                'The sign-in provider cannot be reached to check this session. Try again in a moment.',
              ),
            );
          });
          if (!checked.ok) return { kind: 'refused', code: checked.code, message: checked.message };
          const role = checked.principal.role;
          if (role === undefined) {
            return {
              kind: 'refused',
              code: 'INVALID_TOKEN',
              message: 'The token names no role of this application.',
            };
          }
          return { kind: 'user', principal: { role, user: { ...checked.principal.user, role } } };
        }
        case 'oauth2':
          // Plain OAuth2 says nothing about how to check a token; only the real API can.
          return authorization === undefined
            ? { kind: 'anonymous' }
            : {
                kind: 'refused',
                code: 'INVALID_TOKEN',
                message:
                  'The prototype API cannot check tokens of an OAuth2 server: run ninefold dev --api URL against the real API, or describe an OpenID Connect issuer.',
              };
        default:
          return exhaustiveSwitchError(signIn);
      }
    },

    async signIn(email, password, ip) {
      const checked = await checkPassword(email, password, ip);
      if (!checked.ok) return checked;
      const issued = await tokens.issue(checked.user);
      return { ok: true, token: issued.token, expiresAt: issued.expiresAt, user: userView(checked.user) };
    },

    async refresh(user, session) {
      // The count of ended sessions is the stored one: the token refreshed was checked against it.
      const stored = await store.findUser({ id: user.id });
      const issued = await tokens.issue({ id: user.id, role: user.role, sessions: stored?.sessions ?? 0 });
      await this.revoke(session);
      return { token: issued.token, expiresAt: issued.expiresAt };
    },

    async revoke(session) {
      await store.shared.revoke(session.tokenId, session.expiresAt, Math.floor(now() / 1000));
    },
  };
}

/** A valid scrypt hash of a random password, so a sign-in for an unknown email takes as long. */
const DUMMY_HASH = `scrypt$32768$8$1$${'A'.repeat(22)}$${'A'.repeat(43)}`;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization ? /^Bearer\s+([A-Za-z0-9._~+/=-]+)$/i.exec(authorization) : null;
  return match?.[1];
}

function basicPair(authorization: string): { email: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { email: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function apiKeyFrom(
  signIn: Extract<SignIn, { kind: 'api-key' }>,
  headers: Credentials['headers'],
): string | undefined {
  switch (signIn.in) {
    case 'header':
      return single(headers[signIn.name.toLowerCase()]);
    case 'cookie': {
      const cookies = single(headers.cookie) ?? '';
      for (const part of cookies.split(';')) {
        const [name, ...value] = part.trim().split('=');
        if (name === signIn.name) return decodeURIComponent(value.join('='));
      }
      return undefined;
    }
    case 'query':
      // Keys in addresses end up in logs and histories: the prototype API does not read them there.
      return undefined;
    default:
      return exhaustiveSwitchError(signIn.in);
  }
}

function wrongScheme(scheme: string): Authentication {
  return {
    kind: 'refused',
    code: 'INVALID_TOKEN',
    message: `Send the credentials as "Authorization: ${scheme} …".`,
  };
}
