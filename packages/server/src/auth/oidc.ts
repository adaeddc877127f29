import { createHash } from 'node:crypto';
import { type JsonValue, type Model, type SignIn, signInRoles } from '@ninefold/model';
import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  jwtVerify,
} from 'jose';

export type OidcSignIn = Extract<SignIn, { kind: 'oidc' }>;

export interface OidcPrincipal {
  /** A role of point 6, when the token names one (see {@link createOidcVerifier}). */
  role?: string;
  /** `id` (the token's `sub`), `email`, `role` when known, and the token's other plain claims. */
  user: Record<string, JsonValue>;
}

export type OidcCheck =
  | { ok: true; principal: OidcPrincipal; expiresAt?: number }
  | { ok: false; code: 'INVALID_TOKEN' | 'SESSION_EXPIRED'; message: string };

export interface OidcVerifierOptions {
  /** The names of point 6's roles: only these become a principal's role. */
  roles?: readonly string[];
  /** What `aud` must name in a JWT access token; by default the specification's client id. */
  audience?: string;
  /** How long a userinfo answer for an opaque token is reused, in seconds; 60 by default. */
  userinfoCacheSeconds?: number;
  /** The clock, in milliseconds; tests move it. */
  now?: () => number;
  /** Tests count the calls to the provider with it. */
  fetch?: typeof fetch;
}

export interface OidcVerifier {
  /**
   * Checks a Bearer access token. Resolves to a refusal for any token that is not good; rejects only
   * when the issuer cannot be asked (discovery, keys or userinfo unreachable), which is the server's
   * problem rather than the token's.
   */
  verify(token: string): Promise<OidcCheck>;
}

/** Asymmetric algorithms only: `none` and the HMAC ones (`HS*`, whose key a public client would hold) never. */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];
/** RFC 9068's type for JWT access tokens, and the types of providers that predate it. */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt', 'jwt']);
/** Claims only an ID token carries: an ID token is proof of a sign-in for the client, never an API token. */
const ID_TOKEN_CLAIMS = ['nonce', 'at_hash', 'c_hash', 's_hash'];
/** Protocol claims, which say nothing about the person and stay out of `user`. */
const PROTOCOL_CLAIMS = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'azp',
  'client_id',
  'scope',
  'scp',
  'auth_time',
  'acr',
  'amr',
  'sid',
  'cnf',
  'roles',
  'role',
  ...ID_TOKEN_CLAIMS,
]);
const TIMEOUT_MS = 5_000;
const CLOCK_TOLERANCE_SECONDS = 5;
const USERINFO_CACHE_LIMIT = 1_000;

interface Discovery {
  issuer: string;
  jwksUri?: string;
  userinfoEndpoint?: string;
}

interface CachedAnswer {
  until: number;
  check: OidcCheck;
}

/**
 * Accepts the Bearer access tokens of the specification's OpenID Connect issuer, for the prototype API
 * when point 6's sign-in is `oidc`.
 *
 * - **JWT access tokens** are verified with `jose` against the keys the issuer publishes (`jwks_uri`
 *   from its discovery document): the signature (asymmetric algorithms only, so `alg: none` and `HS*`
 *   are refused), `iss` (the issuer), `aud` (`options.audience`, by default the client id) and `exp`
 *   (an expired token is `SESSION_EXPIRED`). An ID token is refused: it says who signed in to the client,
 *   not what the API may be asked.
 * - **Opaque access tokens** (anything that is not a JWS) are taken to the issuer's userinfo endpoint;
 *   a good answer is reused for `userinfoCacheSeconds`, keyed by a SHA-256 hash of the token so that
 *   the token itself is never kept. The issuer does not say which client such a token was issued to.
 *
 * **The role** comes from the first of these that names a role of point 6 (`options.roles`):
 * 1. a `roles` claim (an array of names), its first entry that is a role;
 * 2. a `role` claim (a string);
 * 3. a granted scope (`scope`, space-separated, or `scp`, an array) named like a role, for providers that
 *    grant roles as scopes. Userinfo answers carry no scopes.
 *
 * A token that names no role of point 6 still signs the person in, with no role; the permission rules
 * then allow only what needs no role. The user is `{ id: sub, email, role, ...the other plain claims }`
 * (strings, numbers and booleans that are not protocol claims such as `iss` or `exp`).
 *
 * The issuer must use `https`, or `http` on a loopback address (a provider on the developer's machine),
 * as the browser side (`oauth4webapi`) requires too.
 *
 * @example
 * ```ts
 * const verifier = createOidcVerifier(signIn, { roles: ['clerk', 'owner'] });
 * const check = await verifier.verify(bearerToken);
 * if (check.ok) checkAction(model, check.principal, 'Order', 'read');
 * ```
 */
export function createOidcVerifier(signIn: OidcSignIn, options: OidcVerifierOptions = {}): OidcVerifier {
  const issuerUrl = trustedUrl(signIn.issuer, 'the issuer');
  const roles = new Set(options.roles ?? []);
  const audience = options.audience ?? signIn.clientId;
  const now = options.now ?? Date.now;
  const fetcher = options.fetch ?? fetch;
  const cacheMs = (options.userinfoCacheSeconds ?? 60) * 1000;
  const userinfoAnswers = new Map<string, CachedAnswer>();
  let discovery: Promise<Discovery> | undefined;
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;

  const discover = (): Promise<Discovery> => {
    discovery ??= discoverIssuer(issuerUrl, fetcher).catch((error: unknown) => {
      // A provider that was down is asked again on the next request.
      discovery = undefined;
      throw error;
    });
    return discovery;
  };

  const principalOf = (claims: JWTPayload | Record<string, unknown>): OidcPrincipal | undefined => {
    if (typeof claims.sub !== 'string' || claims.sub === '') return undefined;
    const role = roleOf(claims, roles);
    const user: Record<string, JsonValue> = { id: claims.sub };
    for (const [name, value] of Object.entries(claims)) {
      if (PROTOCOL_CLAIMS.has(name)) continue;
      if (typeof value === 'string' || typeof value === 'boolean') user[name] = value;
      else if (typeof value === 'number' && Number.isFinite(value)) user[name] = value;
    }
    if (role !== undefined) user.role = role;
    return role === undefined ? { user } : { role, user };
  };

  const verifyJwt = async (token: string): Promise<OidcCheck> => {
    const found = await discover();
    if (found.jwksUri === undefined) throw new Error(`The issuer ${found.issuer} publishes no jwks_uri.`);
    keys ??= createRemoteJWKSet(trustedUrl(found.jwksUri, 'the issuer’s jwks_uri'), {
      timeoutDuration: TIMEOUT_MS,
      [customFetch]: (url, init) => fetcher(url, init),
    });
    let payload: JWTPayload;
    let type: string | undefined;
    try {
      const verified = await jwtVerify(token, keys, {
        algorithms: ALGORITHMS,
        issuer: found.issuer,
        audience,
        currentDate: new Date(now()),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['sub', 'exp'],
      });
      payload = verified.payload;
      type = verified.protectedHeader.typ;
    } catch (error) {
      if (error instanceof errors.JWTExpired) return refusal('SESSION_EXPIRED', 'The session has expired.');
      if (isTokenFault(error)) return refusal('INVALID_TOKEN', 'The access token is not valid.');
      throw error;
    }
    if (type !== undefined && !ACCESS_TOKEN_TYPES.has(type.toLowerCase())) {
      return refusal('INVALID_TOKEN', 'The token is not an access token.');
    }
    if (ID_TOKEN_CLAIMS.some((claim) => claim in payload)) {
      return refusal('INVALID_TOKEN', 'An ID token is not an access token.');
    }
    const principal = principalOf(payload);
    if (principal === undefined) return refusal('INVALID_TOKEN', 'The access token names nobody.');
    return { ok: true, principal, ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }) };
  };

  const askUserinfo = async (token: string): Promise<OidcCheck> => {
    const found = await discover();
    if (found.userinfoEndpoint === undefined) {
      return refusal(
        'INVALID_TOKEN',
        'The access token is not a JWT and the issuer has no userinfo endpoint.',
      );
    }
    const response = await fetcher(trustedUrl(found.userinfoEndpoint, 'the issuer’s userinfo endpoint'), {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      return refusal('INVALID_TOKEN', 'The access token is not valid.');
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`The issuer's userinfo endpoint answered ${response.status}.`);
    }
    const claims: unknown = await response.json();
    if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) {
      throw new Error("The issuer's userinfo endpoint did not answer a JSON object.");
    }
    const principal = principalOf(claims as Record<string, unknown>);
    if (principal === undefined) return refusal('INVALID_TOKEN', 'The access token names nobody.');
    return { ok: true, principal };
  };

  const verifyOpaque = async (token: string): Promise<OidcCheck> => {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = userinfoAnswers.get(key);
    if (cached !== undefined && cached.until > now()) return cached.check;
    userinfoAnswers.delete(key);
    const check = await askUserinfo(token);
    // Only good answers are kept: a refused token is asked about again, so a provider's brief refusal
    // does not lock a person out, and junk tokens cannot fill the cache.
    if (check.ok && cacheMs > 0) {
      if (userinfoAnswers.size >= USERINFO_CACHE_LIMIT) {
        const oldest = userinfoAnswers.keys().next();
        if (!oldest.done) userinfoAnswers.delete(oldest.value);
      }
      userinfoAnswers.set(key, { until: now() + cacheMs, check });
    }
    return check;
  };

  return {
    async verify(token) {
      if (token === '' || /\s/.test(token)) return refusal('INVALID_TOKEN', 'The access token is not valid.');
      return looksLikeJws(token) ? verifyJwt(token) : verifyOpaque(token);
    },
  };
}

/**
 * The verifier for a model whose point 6 names OpenID Connect sign-in, with point 6's roles; undefined
 * for any other sign-in.
 *
 * @example
 * ```ts
 * createAuthenticator(model, store, { oidc: oidcVerifierFor(model) });
 * ```
 */
export function oidcVerifierFor(
  model: Model,
  options: Omit<OidcVerifierOptions, 'roles'> = {},
): OidcVerifier | undefined {
  if (!model.roles.shown || model.roles.signIn.kind !== 'oidc') return undefined;
  return createOidcVerifier(model.roles.signIn, {
    ...options,
    roles: signInRoles(model),
  });
}

function refusal(code: 'INVALID_TOKEN' | 'SESSION_EXPIRED', message: string): OidcCheck {
  return { ok: false, code, message };
}

/**
 * The role a token names, by the order documented on {@link createOidcVerifier}. Exported for the
 * lead's and tests' use; pure.
 */
export function roleOf(claims: Record<string, unknown>, roles: ReadonlySet<string>): string | undefined {
  if (Array.isArray(claims.roles)) {
    const named = claims.roles.find((role): role is string => typeof role === 'string' && roles.has(role));
    if (named !== undefined) return named;
  }
  if (typeof claims.role === 'string' && roles.has(claims.role)) return claims.role;
  const scopes =
    typeof claims.scope === 'string'
      ? claims.scope.split(' ')
      : Array.isArray(claims.scp)
        ? claims.scp
        : typeof claims.scp === 'string'
          ? claims.scp.split(' ')
          : [];
  return scopes.find((scope): scope is string => typeof scope === 'string' && roles.has(scope));
}

/** A compact JWS: three parts whose first is a JSON header with an `alg`. */
function looksLikeJws(token: string): boolean {
  if (token.split('.').length !== 3) return false;
  try {
    return typeof decodeProtectedHeader(token).alg === 'string';
  } catch {
    return false;
  }
}

/** Errors the token causes, as opposed to an issuer that cannot be reached. */
function isTokenFault(error: unknown): boolean {
  return (
    error instanceof errors.JWTClaimValidationFailed ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  );
}

async function discoverIssuer(issuer: URL, fetcher: typeof fetch): Promise<Discovery> {
  const base = issuer.href.endsWith('/') ? issuer.href : `${issuer.href}/`;
  const response = await fetcher(new URL('.well-known/openid-configuration', base), {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`The issuer ${issuer.href} answered ${response.status} for its discovery document.`);
  }
  const document = (await response.json()) as Record<string, unknown>;
  if (typeof document.issuer !== 'string' || new URL(document.issuer).href !== issuer.href) {
    throw new Error(`The discovery document of ${issuer.href} names another issuer.`);
  }
  return {
    issuer: document.issuer,
    ...(typeof document.jwks_uri === 'string' ? { jwksUri: document.jwks_uri } : {}),
    ...(typeof document.userinfo_endpoint === 'string'
      ? { userinfoEndpoint: document.userinfo_endpoint }
      : {}),
  };
}

/** `https`, or `http` on a loopback address: keys and user data are never fetched in the clear. */
function trustedUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${what} (${value}) is not a URL.`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return url;
  throw new Error(`${what} (${value}) must use https (http only on 127.0.0.1, [::1] or localhost).`);
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}
