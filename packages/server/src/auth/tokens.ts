import { randomUUID, type webcrypto } from 'node:crypto';
import { errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';

/** What a session token says: who, in which role, until when. */
export interface SessionClaims {
  /** The user's id (`sub`). */
  userId: string;
  role: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** The token's own id (`jti`), so that signing out can revoke this token and no other. */
  tokenId: string;
  /**
   * The user's count of ended sessions when the token was issued (`ses`): once a manager ends their
   * sessions the count moves on, and every token issued before is refused. 0 when absent.
   */
  sessions: number;
}

export type TokenCheck = { ok: true; claims: SessionClaims } | { ok: false; reason: 'expired' | 'invalid' };

export interface TokenIssuerOptions {
  /** At least 32 bytes of secret, kept by the server only. */
  secret: Uint8Array;
  /**
   * The secret signing before the last rotation: tokens it signed still verify, until they expire (a
   * token lives `ttlSeconds`, and the client's refresh gets one signed with `secret`).
   */
  previous?: Uint8Array;
  /** How long a token is good for. */
  ttlSeconds: number;
  /** Names the prototype API in `iss` and `aud`, so a token of another service is refused. */
  issuer?: string;
  /** The clock, in milliseconds; tests move it. */
  now?: () => number;
}

export interface TokenIssuer {
  issue(user: {
    id: string;
    role: string;
    sessions?: number;
  }): Promise<{ token: string; expiresAt: number; tokenId: string }>;
  verify(token: string): Promise<TokenCheck>;
}

const ALGORITHM = 'HS256';
const DEFAULT_ISSUER = 'ninefold-prototype-api';
/**
 * Tokens whose signature was checked, remembered so that each session's next calls skip the HMAC (it was
 * a sixth of a list call's time). A token is immutable text, so its signature holds for as long as the
 * secret does; its expiry is still checked on every call. Past this many, the oldest are forgotten.
 */
const VERIFIED_TOKENS = 4096;

/**
 * Signed session tokens (JWT, HS256, with `jose`). Verification accepts HS256 only, so a token signed
 * with `none` or another algorithm, or altered in any byte, is invalid; an expired one says so, so the
 * client can ask the person to sign in again.
 *
 * @example
 * ```ts
 * const tokens = createTokenIssuer({ secret: randomBytes(32), ttlSeconds: 3600 });
 * const { token } = await tokens.issue({ id: '7', role: 'clerk' });
 * await tokens.verify(token); // { ok: true, claims: { userId: '7', role: 'clerk', expiresAt, tokenId } }
 * ```
 */
/** Verifies with the current key, then with the previous one when only the signature failed. */
async function verifyWith(
  keys: Promise<webcrypto.CryptoKey>[],
  token: string,
  options: Parameters<typeof jwtVerify>[2],
): Promise<JWTPayload> {
  for (const [index, key] of keys.entries()) {
    try {
      return (await jwtVerify(token, await key, options)).payload;
    } catch (error) {
      const last = index === keys.length - 1;
      if (last || !(error instanceof errors.JWSSignatureVerificationFailed)) throw error;
    }
  }
  throw new errors.JWSSignatureVerificationFailed();
}

export function createTokenIssuer(options: TokenIssuerOptions): TokenIssuer {
  if (options.secret.length < 32) throw new Error('the token secret must be at least 32 bytes');
  if (options.previous !== undefined && options.previous.length < 32)
    throw new Error('the previous token secret must be at least 32 bytes');
  if (!(options.ttlSeconds > 0)) throw new Error('the token lifetime must be positive');
  const issuer = options.issuer ?? DEFAULT_ISSUER;
  const now = options.now ?? Date.now;
  const seconds = () => Math.floor(now() / 1000);
  // Imported once: jose would import raw key bytes again at every call.
  const importKey = (secret: Uint8Array) =>
    crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  const key = importKey(options.secret);
  const keys = options.previous === undefined ? [key] : [key, importKey(options.previous)];
  const verified = new Map<string, SessionClaims>();
  const remember = (token: string, claims: SessionClaims) => {
    if (verified.size >= VERIFIED_TOKENS) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(token, claims);
  };
  return {
    async issue(user) {
      const issuedAt = seconds();
      const expiresAt = issuedAt + options.ttlSeconds;
      const tokenId = randomUUID();
      const token = await new SignJWT({ role: user.role, ...(user.sessions ? { ses: user.sessions } : {}) })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(issuer)
        .setAudience(issuer)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .setJti(tokenId)
        .sign(await key);
      return { token, expiresAt, tokenId };
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        // jose refuses a token at its expiry second (exp <= now); so does this.
        if (known.expiresAt > seconds()) return { ok: true, claims: known };
        verified.delete(token);
        return { ok: false, reason: 'expired' };
      }
      try {
        const payload = await verifyWith(keys, token, {
          algorithms: [ALGORITHM],
          issuer,
          audience: issuer,
          currentDate: new Date(now()),
          requiredClaims: ['sub', 'exp', 'iat', 'jti'],
        });
        if (
          typeof payload.sub !== 'string' ||
          typeof payload.role !== 'string' ||
          typeof payload.jti !== 'string' ||
          payload.exp === undefined ||
          (payload.ses !== undefined && !Number.isSafeInteger(payload.ses))
        ) {
          return { ok: false, reason: 'invalid' };
        }
        const claims = {
          userId: payload.sub,
          role: payload.role,
          expiresAt: payload.exp,
          tokenId: payload.jti,
          sessions: typeof payload.ses === 'number' ? payload.ses : 0,
        };
        remember(token, claims);
        return { ok: true, claims };
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}
