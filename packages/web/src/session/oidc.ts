import { exhaustiveSwitchError, type SignIn } from '@ninefold/model';
import * as oauth from 'oauth4webapi';

/** The sign-in kinds that send the person to a provider and back with a code. */
export type RedirectSignIn = Extract<SignIn, { kind: 'oidc' | 'oauth2' }>;

/** What a finished sign-in or a refresh gives. Tokens are for the caller to hold; never log them. */
export interface OidcTokens {
  accessToken: string;
  /** When the access token ends, in milliseconds since the epoch, when the provider says. */
  expiresAt?: number;
  refreshToken?: string;
  /** The ID token's claims, verified (OpenID Connect only): `sub`, `email`, `roles`, … */
  claims?: Record<string, unknown>;
}

export interface OidcSignInResult extends OidcTokens {
  /** The path inside the app the person started from. */
  returnTo: string;
}

/**
 * Why a sign-in or a refresh failed, with a message a person can read. It never holds a token, nor the
 * provider's raw answer.
 * - `unreachable`: the provider could not be reached; trying again may work.
 * - `refused`: the provider said no (the person cancelled, a code or refresh token is no longer good).
 * - `invalid`: an answer did not hold up (state, ID token, token type), or the sign-in was not started
 *   in this tab.
 * - `unsupported`: the specification's sign-in cannot be done from a browser as written.
 */
export class OidcError extends Error {
  override readonly name = 'OidcError';
  constructor(
    readonly reason: 'unreachable' | 'refused' | 'invalid' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The sign-in in flight, kept in the tab's session storage only between leaving for the provider and
 * coming back: the PKCE verifier, the state and the nonce. Removed as soon as the callback reads it.
 */
const PENDING_KEY = 'ninefold.oidc.pending';
const CALLBACK_PATH = '/_/oidc-callback';
const TIMEOUT_MS = 15_000;

interface Pending {
  provider: string;
  clientId: string;
  redirectUri: string;
  returnTo: string;
  state: string;
  verifier: string;
  nonce?: string;
}

/**
 * Sends the person to the provider to sign in, with the authorization code flow and PKCE (S256). For
 * `oidc`, the provider is found from the issuer's discovery document; for `oauth2`, the specification
 * gives its endpoints. The verifier, state and nonce wait in session storage until
 * {@link completeOidcSignIn} reads them. Navigates away with `window.location.assign`.
 *
 * @example
 * ```ts
 * await startOidcSignIn(signIn, {
 *   redirectUri: new URL('/_/oidc-callback', location.origin).href,
 *   returnTo: '/orders?status=placed',
 * });
 * ```
 */
export async function startOidcSignIn(
  signIn: RedirectSignIn,
  options: { redirectUri: string; returnTo: string; clientId?: string },
): Promise<void> {
  const client = clientOf(signIn, options.clientId);
  const as = await authorizationServer(signIn);
  if (as.authorization_endpoint === undefined) {
    throw new OidcError('unsupported', 'The sign-in provider names no authorization endpoint.');
  }
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = signIn.kind === 'oidc' ? oauth.generateRandomNonce() : undefined;
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('response_type', 'code');
  const scopes =
    signIn.kind === 'oidc' && !signIn.scopes.includes('openid')
      ? ['openid', ...signIn.scopes]
      : signIn.scopes;
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  if (nonce !== undefined) url.searchParams.set('nonce', nonce);
  const pending: Pending = {
    provider: providerKey(signIn),
    clientId: client.client_id,
    redirectUri: options.redirectUri,
    returnTo: sameAppPath(options.returnTo),
    state,
    verifier,
    ...(nonce === undefined ? {} : { nonce }),
  };
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  } catch {
    throw new OidcError(
      'unsupported',
      'This browser keeps no session storage for this site, which sign-in needs.',
    );
  }
  window.location.assign(url.href);
}

/**
 * Finishes a sign-in on the callback route: checks the state, exchanges the code (with the PKCE
 * verifier, as a public client: no secret), and for `oidc` verifies the ID token (issuer, audience,
 * expiry, nonce). The sign-in's session storage entry is removed first, so a callback URL cannot be used
 * twice. Throws an {@link OidcError} with a plain message on any failure.
 *
 * @example
 * ```ts
 * const { accessToken, returnTo } = await completeOidcSignIn(signIn, new URL(location.href), redirectUri);
 * navigate(returnTo, { replace: true }); // also takes the code out of the address bar
 * ```
 */
export async function completeOidcSignIn(
  signIn: RedirectSignIn,
  currentUrl: URL,
  redirectUri: string,
): Promise<OidcSignInResult> {
  const pending = takePending();
  if (
    pending === undefined ||
    pending.provider !== providerKey(signIn) ||
    pending.redirectUri !== redirectUri
  ) {
    throw new OidcError(
      'invalid',
      'This sign-in was not started in this tab, or it is already finished. Sign in again.',
    );
  }
  // A client id the person typed comes back with the sign-in it started.
  const client = clientOf(signIn, pending.clientId);
  if (client.client_id !== pending.clientId) {
    throw new OidcError('invalid', 'The sign-in was started for another client. Sign in again.');
  }
  const as = await authorizationServer(signIn);
  const parameters = new URLSearchParams(currentUrl.search);
  // Without discovery the issuer is not known, so an `iss` the provider adds cannot be compared; with one
  // configured provider there is no other it could be mixed up with.
  if (signIn.kind === 'oauth2') parameters.delete('iss');
  let callback: URLSearchParams;
  try {
    callback = oauth.validateAuthResponse(as, client, parameters, pending.state);
  } catch (error) {
    throw plainError(error, 'The sign-in answer does not match the sign-in that was started. Sign in again.');
  }
  const tokenEndpoint = as.token_endpoint;
  if (tokenEndpoint === undefined)
    throw new OidcError('unsupported', 'The sign-in provider names no token endpoint.');
  const result = await tokenRequest(tokenEndpoint, (requestOptions) =>
    oauth
      .authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        callback,
        redirectUri,
        pending.verifier,
        requestOptions,
      )
      .then((response) =>
        oauth.processAuthorizationCodeResponse(as, client, response, {
          expectedNonce: pending.nonce ?? oauth.expectNoNonce,
          requireIdToken: signIn.kind === 'oidc',
        }),
      ),
  );
  return { ...tokensOf(result, undefined), returnTo: sameAppPath(pending.returnTo) };
}

/**
 * Trades a refresh token for a new access token (and, when the provider rotates them, a new refresh
 * token; otherwise the one given is returned). Throws an {@link OidcError}: `refused` when the refresh
 * token is no longer good, so the person must sign in again.
 */
export async function refreshOidc(signIn: RedirectSignIn, refreshToken: string): Promise<OidcTokens> {
  const client = clientOf(signIn);
  const as = await authorizationServer(signIn);
  const tokenEndpoint = as.token_endpoint;
  if (tokenEndpoint === undefined)
    throw new OidcError('unsupported', 'The sign-in provider names no token endpoint.');
  const result = await tokenRequest(tokenEndpoint, (requestOptions) =>
    oauth
      .refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, requestOptions)
      .then((response) => oauth.processRefreshTokenResponse(as, client, response)),
  );
  return tokensOf(result, refreshToken);
}

/**
 * A path inside this app for `returnTo`: an absolute path on the same origin (never `//host`, a scheme,
 * or the callback route itself, which would loop); `/` otherwise.
 */
export function sameAppPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here.
  if (/[\u0000-\u001f\u007f]/.test(path)) return '/';
  const base = 'https://app.invalid';
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    return '/';
  }
  if (url.origin !== base) return '/';
  if (url.pathname === CALLBACK_PATH || url.pathname.startsWith(`${CALLBACK_PATH}/`)) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The specification's client, else the one given in the page; the specification's wins. */
function clientOf(signIn: RedirectSignIn, given?: string): oauth.Client {
  const id = signIn.clientId !== undefined && signIn.clientId !== '' ? signIn.clientId : given?.trim();
  if (id === undefined || id === '') {
    throw new OidcError('unsupported', 'The specification names no client id for this sign-in.');
  }
  return { client_id: id };
}

function providerKey(signIn: RedirectSignIn): string {
  switch (signIn.kind) {
    case 'oidc':
      return `oidc ${signIn.issuer}`;
    case 'oauth2':
      return `oauth2 ${signIn.authorizationUrl} ${signIn.tokenUrl}`;
    default:
      return exhaustiveSwitchError(signIn);
  }
}

function takePending(): Pending | undefined {
  let text: string | null;
  try {
    text = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
  } catch {
    return undefined;
  }
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Pending>;
    if (
      typeof value.provider !== 'string' ||
      typeof value.clientId !== 'string' ||
      typeof value.redirectUri !== 'string' ||
      typeof value.returnTo !== 'string' ||
      typeof value.state !== 'string' ||
      typeof value.verifier !== 'string' ||
      (value.nonce !== undefined && typeof value.nonce !== 'string')
    ) {
      return undefined;
    }
    return value as Pending;
  } catch {
    return undefined;
  }
}

const discovered = new Map<string, Promise<oauth.AuthorizationServer>>();

/** The provider's metadata: discovered once per issuer for `oidc`, as written for `oauth2`. */
function authorizationServer(signIn: RedirectSignIn): Promise<oauth.AuthorizationServer> {
  switch (signIn.kind) {
    case 'oauth2':
      return Promise.resolve({
        // Only compared with `iss` values, which are not checked without discovery (see the callback).
        issuer: new URL(signIn.tokenUrl).origin,
        authorization_endpoint: signIn.authorizationUrl,
        token_endpoint: signIn.tokenUrl,
      });
    case 'oidc': {
      const key = signIn.issuer;
      let found = discovered.get(key);
      if (found === undefined) {
        found = discover(signIn.issuer);
        discovered.set(key, found);
        // A provider that was down is asked again next time.
        found.catch(() => discovered.delete(key));
      }
      return found;
    }
    default:
      return exhaustiveSwitchError(signIn);
  }
}

async function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new OidcError('unsupported', 'The specification’s issuer is not a URL.');
  }
  try {
    const response = await oauth.discoveryRequest(url, {
      algorithm: 'oidc',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      [oauth.allowInsecureRequests]: isLoopbackHttp(url),
    });
    return await oauth.processDiscoveryResponse(url, response);
  } catch (error) {
    throw plainError(error, 'The sign-in provider’s description does not match the specification’s issuer.');
  }
}

/** Sends a token request and reads its answer, turning every failure into a plain {@link OidcError}. */
async function tokenRequest(
  endpoint: string,
  send: (options: oauth.TokenEndpointRequestOptions) => Promise<oauth.TokenEndpointResponse>,
): Promise<oauth.TokenEndpointResponse> {
  let result: oauth.TokenEndpointResponse;
  try {
    result = await send({
      signal: AbortSignal.timeout(TIMEOUT_MS),
      [oauth.allowInsecureRequests]: isLoopbackHttp(new URL(endpoint)),
    });
  } catch (error) {
    throw plainError(error, 'The sign-in provider’s answer could not be verified. Sign in again.');
  }
  if (result.token_type !== 'bearer') {
    throw new OidcError('unsupported', 'The sign-in provider gave a kind of token this client cannot use.');
  }
  return result;
}

function tokensOf(result: oauth.TokenEndpointResponse, previousRefreshToken: string | undefined): OidcTokens {
  const claims = oauth.getValidatedIdTokenClaims(result);
  const refreshToken = result.refresh_token ?? previousRefreshToken;
  return {
    accessToken: result.access_token,
    ...(typeof result.expires_in === 'number' ? { expiresAt: Date.now() + result.expires_in * 1000 } : {}),
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(claims === undefined ? {} : { claims: { ...claims } }),
  };
}

/**
 * A failure of `oauth4webapi` or the network as an {@link OidcError}. Its own messages are for developers
 * and may quote the provider's answer, so none is passed on.
 */
function plainError(error: unknown, invalid: string): OidcError {
  if (error instanceof OidcError) return error;
  if (error instanceof oauth.AuthorizationResponseError) {
    const code = plainCode(error.error);
    return code === 'access_denied'
      ? new OidcError('refused', 'The sign-in was cancelled or refused at the provider.')
      : new OidcError('refused', `The sign-in provider could not sign you in (${code}).`);
  }
  if (error instanceof oauth.ResponseBodyError) {
    return new OidcError(
      'refused',
      `The sign-in provider refused (${plainCode(error.error)}). Sign in again.`,
    );
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    return new OidcError('refused', 'The sign-in provider refused this client. Sign in again.');
  }
  if (error instanceof oauth.UnsupportedOperationError) {
    return new OidcError(
      'unsupported',
      'The sign-in provider answered in a way this client does not support.',
    );
  }
  if (error instanceof oauth.OperationProcessingError) {
    return error.code === oauth.HTTP_REQUEST_FORBIDDEN || error.code === oauth.REQUEST_PROTOCOL_FORBIDDEN
      ? new OidcError('unsupported', 'The sign-in provider must be reached over https.')
      : new OidcError('invalid', invalid);
  }
  return new OidcError('unreachable', 'The sign-in provider could not be reached. Try again in a moment.');
}

/** An OAuth error code as the provider sent it, kept only when it looks like one. */
function plainCode(code: string): string {
  return /^[\w.-]{1,64}$/.test(code) ? code : 'error';
}

/**
 * `http` is allowed only for a provider on the developer's own machine; anywhere else, codes and tokens
 * would cross the network in the clear.
 */
function isLoopbackHttp(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(url.hostname))
  );
}
