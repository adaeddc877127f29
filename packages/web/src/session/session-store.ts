import { type ApiDescription, type Model, type SignIn, signInRoles } from '@ninefold/model';
import type { ApiError } from '../data/data-provider';
import { readApiError } from '../data/problem-reader';
import {
  basicCredentials,
  type CannotSend,
  type Credentials,
  cannotSend,
  clearKeyCookie,
  headersFor,
  setKeyCookie,
} from './credentials';
import { signInOf } from './return-path';
import type { SessionState, SessionValue } from './SessionContext';
import {
  principalOfUser,
  readSessionAnswer,
  readTokenAnswer,
  retryAfterSeconds,
  sessionUserOf,
  type UserRecord,
} from './sign-in-answer';

export type OidcSignIn = Extract<SignIn, { kind: 'oidc' | 'oauth2' }>;

/** Tokens from an OpenID Connect or OAuth2 provider; `expiresAt` in milliseconds since the epoch. */
export interface OidcTokens {
  accessToken: string;
  expiresAt?: number;
  refreshToken?: string;
  claims?: Record<string, unknown>;
}

/** The authorization code flow with PKCE, as `./oidc` implements it. */
export interface OidcFlows {
  startOidcSignIn(
    signIn: OidcSignIn,
    options: { redirectUri: string; returnTo: string; clientId?: string },
  ): Promise<void>;
  completeOidcSignIn(
    signIn: OidcSignIn,
    currentUrl: URL,
    redirectUri: string,
  ): Promise<OidcTokens & { returnTo: string }>;
  refreshOidc(signIn: OidcSignIn, refreshToken: string): Promise<OidcTokens>;
}

/** What the session hooks read: the state, the principal, and whether the sign-in dialog is wanted. */
export interface SessionSnapshot extends SessionValue {
  /** A 401 arrived (in the middle of work, or while nobody was signed in): ask the person to sign in. */
  prompt: boolean;
  /** The email of the person whose session ended, to fill in again. */
  lastEmail?: string;
}

/** A person already signed in, e.g. restored, or given by a test. */
export interface SignedIn {
  credentials: Credentials;
  /** The person as the API describes them: `{ id, email, role, ...attributes }`. */
  user: UserRecord;
  /** Milliseconds since the epoch. */
  expiresAt?: number;
}

/** Why signing in did not work, as data: the sign-in form words it. */
export type SignInFailure =
  /** The API refused the credentials (401, 400, …); `detail` is its own message. */
  | 'rejected'
  /** Too many attempts (429); `retryAfter` says for how long, when the API tells. */
  | 'too-many'
  /** No answer: offline, refused, timed out. */
  | 'network'
  /** The answer has no token this client can read. */
  | 'unreadable'
  /** This client cannot sign in the way the specification says (see `unavailable`). */
  | 'unavailable';

export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    readonly reason: SignInFailure,
    /** The API's own words (a problem's detail, else its title), clipped; never an HTML page. */
    readonly detail?: string,
    /** Seconds to wait before trying again. */
    readonly retryAfter?: number,
    /** For `unavailable`: what is missing. */
    readonly unavailable?: CannotSend | 'no-sign-in-call' | 'wrong-kind',
  ) {
    super(detail ?? reason);
  }
}

export interface SessionStoreOptions {
  /** The fetch for sign-in, refresh and sign-out; tests give a fake. */
  fetch?: typeof fetch;
  /** Where a session is kept when the specification says `session`: the tab's session storage by default. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** The clock, in milliseconds since the epoch. */
  now?: () => number;
  /** Loads the OpenID Connect flows; tests give fakes. */
  oidc?: () => Promise<OidcFlows>;
  /** Someone signed in from the start (tests, or a page that knows). */
  signedIn?: SignedIn;
  timeoutMs?: number;
}

/**
 * The client's session, without React: who is signed in, the credentials every request carries, and the
 * ways to sign in, refresh and sign out. The data provider asks it for headers on each request and tells
 * it of every 401; the React side subscribes to it (`SessionProvider`).
 */
export interface SessionStore {
  readonly signIn: SignIn;
  getSnapshot(): SessionSnapshot;
  subscribe(listener: () => void): () => void;
  /** Called after each sign-in with whether the same person came back (an expired session renewed). */
  onSignedIn(listener: (event: { samePerson: boolean }) => void): () => void;
  /** The headers that carry the credentials; a new object each time. Never in a URL. */
  authHeaders(): Record<string, string>;
  /** A request answered 401; `sent` are the credential headers it carried. */
  unauthorized(error: ApiError, sent: Readonly<Record<string, string>>): void;
  signInWithPassword(email: string, password: string): Promise<void>;
  signInWithBasic(user: string, password: string): Promise<void>;
  signInWithApiKey(key: string): Promise<void>;
  /** A pasted bearer token: the `token` sign-in, and always a way in beside a provider's (oidc, oauth2). */
  signInWithToken(token: string): Promise<void>;
  /**
   * Leaves for the provider's sign-in page (oidc, oauth2), as `clientId` where the specification names
   * no client (a static build of a document that never says it).
   */
  startOidc(options: { redirectUri: string; returnTo: string; clientId?: string }): Promise<void>;
  /** Completes the code flow at the callback address; answers the path to go back to. Runs once per URL. */
  completeOidc(currentUrl: URL, redirectUri: string): Promise<string>;
  /** Holds credentials the caller already has (tests; a page that signed in another way). */
  adopt(signedIn: SignedIn): void;
  /** Trades the token for a fresh one where the flow supports it; false when nothing was renewed. */
  refresh(): Promise<boolean>;
  /** Calls the sign-out call, then forgets the credentials. */
  signOut(): Promise<void>;
  openPrompt(): void;
  dismissPrompt(): void;
  /** Stops the refresh timer. */
  dispose(): void;
}

/** How long before expiry a token is renewed (at most half of what is left). */
export const REFRESH_LEAD_MS = 60_000;
/** After a refresh that got no answer, when to try again. */
const REFRESH_RETRY_MS = 15_000;
/** `setTimeout` holds at most 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const DEFAULT_TIMEOUT_MS = 30_000;
const STORED_VERSION = 1;

/**
 * The session for a specification's sign-in (point 6) against its API. With sign-in `none` (or point 6
 * not shown) the state is `none` forever and every credential header is empty.
 *
 * @example
 * ```ts
 * const session = createSessionStore(model, api);
 * const data = createHttpDataProvider(api, model, {
 *   authHeaders: session.authHeaders,
 *   onUnauthorized: session.unauthorized,
 * });
 * await session.signInWithPassword('ada@example.com', 'secret');
 * ```
 */
export function createSessionStore(
  model: Model,
  api: ApiDescription,
  options: SessionStoreOptions = {},
): SessionStore {
  const signIn = signInOf(model);
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = api.base.replace(/\/+$/, '');
  const storageKey = `ninefold.session:${api.base}`;
  const storage = signIn.kind !== 'none' && signIn.session === 'session' ? storageOf(options) : null;
  const loadOidc = options.oidc ?? (() => import('./oidc'));

  let credentials: Credentials | undefined;
  let userRecord: UserRecord | undefined;
  let snapshot: SessionSnapshot =
    signIn.kind === 'none'
      ? { state: { status: 'none' }, principal: {}, prompt: false }
      : { state: { status: 'signed-out', expired: false }, principal: {}, prompt: false };
  const listeners = new Set<() => void>();
  const signedInListeners = new Set<(event: { samePerson: boolean }) => void>();
  const callbacks = new Map<string, Promise<string>>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waitingForVisible = false;

  const publish = (next: SessionSnapshot) => {
    snapshot = next;
    for (const listener of [...listeners]) listener();
  };

  const persist = () => {
    if (!storage) return;
    try {
      if (!credentials || !userRecord) storage.removeItem(storageKey);
      else {
        const expiresAt = snapshot.state.status === 'signed-in' ? snapshot.state.expiresAt : undefined;
        storage.setItem(
          storageKey,
          JSON.stringify({ v: STORED_VERSION, kind: signIn.kind, credentials, user: userRecord, expiresAt }),
        );
      }
    } catch {
      // Storage can be full or disabled: the session still holds in memory.
    }
  };

  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (waitingForVisible && typeof document !== 'undefined') {
      document.removeEventListener('visibilitychange', onVisible);
    }
    waitingForVisible = false;
  };

  const canRefresh = () =>
    credentials?.scheme === 'bearer' &&
    ((signIn.kind === 'password' && refreshCall() !== undefined) ||
      ((signIn.kind === 'oidc' || signIn.kind === 'oauth2') && credentials.refreshToken !== undefined));

  const expiresAt = () => (snapshot.state.status === 'signed-in' ? snapshot.state.expiresAt : undefined);

  /** Renews the token shortly before it expires, while the tab is in use (visible). */
  const schedule = (delay?: number) => {
    clearTimer();
    const expiry = expiresAt();
    if (expiry === undefined || !canRefresh()) return;
    const remaining = expiry - now();
    const wait = delay ?? remaining - Math.min(REFRESH_LEAD_MS, remaining / 2);
    timer = setTimeout(refreshWhenInUse, Math.min(Math.max(wait, 0), MAX_TIMER_MS));
  };

  const inUse = () => typeof document === 'undefined' || document.visibilityState !== 'hidden';

  function onVisible() {
    if (!inUse()) return;
    document.removeEventListener('visibilitychange', onVisible);
    waitingForVisible = false;
    const expiry = expiresAt();
    // A token that ran out while the tab was hidden is not renewed: the next request's 401 asks again.
    if (expiry !== undefined && expiry > now()) refreshWhenInUse();
  }

  function refreshWhenInUse() {
    timer = undefined;
    if (!inUse()) {
      waitingForVisible = true;
      document.addEventListener('visibilitychange', onVisible);
      return;
    }
    void store.refresh().then((renewed) => {
      const expiry = expiresAt();
      if (!renewed && timer === undefined && expiry !== undefined && expiry - now() > REFRESH_RETRY_MS) {
        schedule(REFRESH_RETRY_MS);
      }
    });
  }

  const forget = () => {
    clearTimer();
    if (credentials?.scheme === 'api-key' && signIn.kind === 'api-key' && signIn.in === 'cookie') {
      clearKeyCookie(signIn.name, api.base);
    }
    credentials = undefined;
    userRecord = undefined;
    persist();
  };

  const establish = (signedIn: SignedIn, { quiet = false }: { quiet?: boolean } = {}) => {
    const previous = snapshot.principal.user;
    credentials = signedIn.credentials;
    userRecord = signedIn.user;
    const state: SessionState = {
      status: 'signed-in',
      user: sessionUserOf(signedIn.user),
      ...(signedIn.expiresAt === undefined ? {} : { expiresAt: signedIn.expiresAt }),
    };
    publish({ state, principal: principalOfUser(signedIn.user), prompt: false });
    persist();
    schedule();
    if (!quiet) {
      const samePerson = previous !== undefined && sameIdentity(previous, signedIn.user);
      for (const listener of [...signedInListeners]) listener({ samePerson });
    }
  };

  const expire = () => {
    const last = snapshot;
    const lastEmail = last.state.status === 'signed-in' ? last.state.user.email : last.lastEmail;
    forget();
    // The principal of the person whose session ended stays until someone signs in: the screen they
    // work in keeps its fields and buttons, and nothing they typed is unmounted.
    publish({
      state: { status: 'signed-out', expired: true },
      principal: last.principal,
      prompt: true,
      ...(lastEmail === undefined ? {} : { lastEmail }),
    });
  };

  interface Answer {
    status: number;
    ok: boolean;
    headers: Headers;
    body: unknown;
  }

  const send = async (
    method: string,
    path: string,
    init: { headers?: Record<string, string>; json?: unknown } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {
      ...init.headers,
      accept: 'application/json, application/problem+json',
    };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers,
        signal: AbortSignal.timeout(timeoutMs),
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      });
      text = await response.text();
    } catch {
      throw new SignInError('network');
    }
    return { status: response.status, ok: response.ok, headers: response.headers, body: parseJson(text) };
  };

  const failure = async (answer: Answer): Promise<SignInError> => {
    const problem = await readApiError(answer.status, '', answer.headers.get('content-type'), answer.body);
    const said =
      problem.detail ??
      (typeof (answer.body as { title?: unknown } | undefined)?.title === 'string'
        ? problem.title
        : undefined);
    if (answer.status === 429) {
      return new SignInError('too-many', said, retryAfterSeconds(answer.headers.get('retry-after'), now()));
    }
    return new SignInError('rejected', said);
  };

  /** Who the credentials belong to, from the prototype API's session call; undefined without one. */
  const whoIs = async (headers: Record<string, string>) => {
    if (!api.auth) return undefined;
    const answer = await send('GET', api.auth.session, { headers });
    if (!answer.ok) throw await failure(answer);
    const read = readSessionAnswer(answer.body, now());
    if (!read) throw new SignInError('unreadable');
    return read;
  };

  const requireKind = <K extends SignIn['kind']>(...kinds: K[]): Extract<SignIn, { kind: K }> => {
    if (!(kinds as string[]).includes(signIn.kind)) {
      throw new SignInError('unavailable', undefined, undefined, 'wrong-kind');
    }
    return signIn as Extract<SignIn, { kind: K }>;
  };

  const signInCall = () => {
    const named = signIn.kind === 'password' && signIn.call !== undefined ? signIn.call : undefined;
    return (
      (named === undefined ? undefined : api.calls.find((call) => call.name === named)) ??
      api.calls.find((call) => call.purpose === 'sign-in')
    );
  };

  /** The API's own refresh call (point 7), else the prototype API's; a password sign-in's only. */
  const refreshCall = (): { method: string; path: string } | undefined => {
    const call = api.calls.find((candidate) => candidate.purpose === 'refresh');
    if (call) return { method: call.method, path: call.path };
    return api.auth?.refresh ? { method: 'POST', path: api.auth.refresh } : undefined;
  };

  const signOutCall = (): { method: string; path: string } | undefined => {
    const call = api.calls.find((candidate) => candidate.purpose === 'sign-out');
    if (call) return { method: call.method, path: call.path };
    return api.auth ? { method: 'POST', path: api.auth.signOut } : undefined;
  };

  const restore = (): SignedIn | undefined => {
    if (!storage) return undefined;
    try {
      const raw = storage.getItem(storageKey);
      if (raw === null) return undefined;
      const stored = JSON.parse(raw) as Partial<{ v: number; kind: string } & SignedIn>;
      const live = stored.expiresAt === undefined || stored.expiresAt > now();
      if (
        stored.v === STORED_VERSION &&
        stored.kind === signIn.kind &&
        stored.credentials &&
        stored.user &&
        live
      ) {
        return {
          credentials: stored.credentials,
          user: stored.user,
          ...(stored.expiresAt === undefined ? {} : { expiresAt: stored.expiresAt }),
        };
      }
      storage.removeItem(storageKey);
    } catch {
      // An unreadable entry is as good as none.
    }
    return undefined;
  };

  const store: SessionStore = {
    signIn,
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onSignedIn(listener) {
      signedInListeners.add(listener);
      return () => signedInListeners.delete(listener);
    },
    authHeaders: () => headersFor(signIn, credentials),
    unauthorized(_error, sent) {
      if (snapshot.state.status === 'signed-in') {
        // A request that left with older credentials says nothing about the current ones.
        if (sameHeaders(headersFor(signIn, credentials), sent)) expire();
      } else if (snapshot.state.status === 'signed-out' && !snapshot.prompt) {
        publish({ ...snapshot, prompt: true });
      }
    },

    async signInWithPassword(typed, password) {
      requireKind('password');
      const email = typed.trim();
      const call = signInCall();
      if (!call) throw new SignInError('unavailable', undefined, undefined, 'no-sign-in-call');
      const answer = await send(call.method, call.path, { json: { email, password } });
      if (!answer.ok) throw await failure(answer);
      const read = readTokenAnswer(answer.body, now());
      if (!read) throw new SignInError('unreadable');
      const bearer: Credentials = {
        scheme: 'bearer',
        token: read.token,
        ...(read.refreshToken === undefined ? {} : { refreshToken: read.refreshToken }),
      };
      let user = read.user;
      let expiry = read.expiresAt;
      if (!user) {
        const session = await whoIs(headersFor(signIn, bearer));
        user = session?.user;
        expiry ??= session?.expiresAt;
      }
      // An answer with only a token: the person is who they said, with no role the client knows.
      establish({
        credentials: bearer,
        user: user ?? { email },
        ...(expiry === undefined ? {} : { expiresAt: expiry }),
      });
    },

    async signInWithBasic(user, password) {
      requireKind('basic');
      const basic: Credentials = { scheme: 'basic', encoded: basicCredentials(user, password) };
      const session = await whoIs(headersFor(signIn, basic));
      establish({
        credentials: basic,
        user: session?.user ?? { email: user },
        ...(session?.expiresAt === undefined ? {} : { expiresAt: session.expiresAt }),
      });
    },

    async signInWithApiKey(key) {
      const keyed = requireKind('api-key');
      const refused = cannotSend(keyed, api.base);
      if (refused) throw new SignInError('unavailable', undefined, undefined, refused);
      const held: Credentials = { scheme: 'api-key', key };
      if (keyed.in === 'cookie') setKeyCookie(keyed.name, key, api.base);
      try {
        const session = await whoIs(headersFor(signIn, held));
        establish({
          credentials: held,
          user: session?.user ?? {},
          ...(session?.expiresAt === undefined ? {} : { expiresAt: session.expiresAt }),
        });
      } catch (error) {
        if (keyed.in === 'cookie' && credentials?.scheme !== 'api-key') clearKeyCookie(keyed.name, api.base);
        throw error;
      }
    },

    async signInWithToken(token) {
      requireKind('token', 'oidc', 'oauth2');
      const held: Credentials = { scheme: 'bearer', token };
      const session = await whoIs(headersFor(signIn, held));
      establish({
        credentials: held,
        user: session?.user ?? {},
        ...(session?.expiresAt === undefined ? {} : { expiresAt: session.expiresAt }),
      });
    },

    async startOidc(flow) {
      const oidc = requireKind('oidc', 'oauth2');
      const flows = await loadOidc();
      try {
        await flows.startOidcSignIn(oidc, flow);
      } catch (error) {
        throw oidcFailure(error);
      }
    },

    completeOidc(currentUrl, redirectUri) {
      // React runs effects twice in development; a code can be exchanged once only.
      const pending = callbacks.get(currentUrl.href);
      if (pending) return pending;
      const completing = (async () => {
        const oidc = requireKind('oidc', 'oauth2');
        const flows = await loadOidc();
        let tokens: OidcTokens & { returnTo: string };
        try {
          tokens = await flows.completeOidcSignIn(oidc, currentUrl, redirectUri);
        } catch (error) {
          throw oidcFailure(error);
        }
        const bearer: Credentials = {
          scheme: 'bearer',
          token: tokens.accessToken,
          ...(tokens.refreshToken === undefined ? {} : { refreshToken: tokens.refreshToken }),
        };
        const session = await whoIs(headersFor(signIn, bearer));
        const expiry = tokens.expiresAt ?? session?.expiresAt;
        establish({
          credentials: bearer,
          user: session?.user ?? userFromClaims(model, tokens.claims),
          ...(expiry === undefined ? {} : { expiresAt: expiry }),
        });
        return tokens.returnTo;
      })();
      callbacks.set(currentUrl.href, completing);
      return completing;
    },

    adopt(signedIn) {
      establish(signedIn);
    },

    async refresh() {
      const held = credentials;
      if (snapshot.state.status !== 'signed-in' || held?.scheme !== 'bearer' || !canRefresh()) return false;
      const person = userRecord ?? {};
      try {
        const call = refreshCall();
        if (signIn.kind === 'password' && call) {
          // The live token goes in the header (the prototype API's way); a refresh token the sign-in
          // gave goes in the body, as `refresh_token` (Directus's way and OAuth 2's name).
          const answer = await send(call.method, call.path, {
            headers: headersFor(signIn, held),
            ...(held.refreshToken === undefined ? {} : { json: { refresh_token: held.refreshToken } }),
          });
          if (credentials !== held) return false;
          if (answer.status === 401) {
            expire();
            return false;
          }
          const read = answer.ok ? readTokenAnswer(answer.body, now()) : undefined;
          if (!read) return false;
          const refreshToken = read.refreshToken ?? held.refreshToken;
          establish(
            {
              credentials: {
                scheme: 'bearer',
                token: read.token,
                ...(refreshToken === undefined ? {} : { refreshToken }),
              },
              user: read.user ?? person,
              ...(read.expiresAt === undefined ? {} : { expiresAt: read.expiresAt }),
            },
            { quiet: true },
          );
          return true;
        }
        if ((signIn.kind === 'oidc' || signIn.kind === 'oauth2') && held.refreshToken !== undefined) {
          const flows = await loadOidc();
          const tokens = await flows.refreshOidc(signIn, held.refreshToken);
          if (credentials !== held) return false;
          establish(
            {
              credentials: {
                scheme: 'bearer',
                token: tokens.accessToken,
                refreshToken: tokens.refreshToken ?? held.refreshToken,
              },
              user: person,
              ...(tokens.expiresAt === undefined ? {} : { expiresAt: tokens.expiresAt }),
            },
            { quiet: true },
          );
          return true;
        }
      } catch {
        // No answer, or the provider refused: the token stays until it runs out.
      }
      return false;
    },

    async signOut() {
      const call = signOutCall();
      const headers = headersFor(signIn, credentials);
      const had = credentials !== undefined;
      // Forgotten before the API is told: a read the page starts meanwhile (a list refetched, the live
      // stream reconnecting) must not carry a token the API is revoking, and meet a 401 for it.
      forget();
      if (signIn.kind !== 'none') {
        publish({ state: { status: 'signed-out', expired: false }, principal: {}, prompt: false });
      }
      if (had && call) {
        try {
          await send(call.method, call.path, { headers });
        } catch {
          // The API could not be told; the credentials are forgotten all the same.
        }
      }
    },

    openPrompt() {
      if (snapshot.state.status === 'signed-out' && !snapshot.prompt) publish({ ...snapshot, prompt: true });
    },
    dismissPrompt() {
      if (snapshot.prompt) publish({ ...snapshot, prompt: false });
    },
    dispose: clearTimer,
  };

  if (signIn.kind !== 'none') {
    if (!storage && options.storage === undefined) dropStored(storageKey);
    const initial = options.signedIn ?? restore();
    if (initial) establish(initial, { quiet: true });
  }
  return store;
}

/** A store for a client with nothing to sign in to (a preview, or tests of other screens). */
export function noSessionStore(model: Model, api: ApiDescription): SessionStore {
  const none: Model = { ...model, roles: { shown: false } };
  return createSessionStore(none, api, { storage: null });
}

/**
 * A failed provider sign-in in the sign-in form's terms. The OIDC module's messages are written for
 * people and never hold a token; an unreachable provider is a network failure.
 */
function oidcFailure(error: unknown): SignInError {
  if (error instanceof SignInError) return error;
  if ((error as { reason?: unknown } | null)?.reason === 'unreachable') return new SignInError('network');
  return new SignInError('rejected', error instanceof Error ? error.message : undefined);
}

/** Claims about the token rather than the person, never taken for attributes. */
const PROTOCOL_CLAIMS = new Set(
  'iss sub aud exp nbf iat jti azp nonce at_hash c_hash s_hash auth_time acr amr sid cnf scope scp roles role'.split(
    ' ',
  ),
);

/**
 * The person an ID token describes, as the prototype API reads the same claims: `{ id: sub, email,
 * role, ...the other plain claims }`, the role being the first of a `roles` array, else a `role`, that
 * names a role of point 6.
 */
function userFromClaims(model: Model, claims: Record<string, unknown> | undefined): UserRecord {
  const user: UserRecord = {};
  if (!claims) return user;
  for (const [name, value] of Object.entries(claims)) {
    const plain = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    if (plain && !PROTOCOL_CLAIMS.has(name)) user[name] = value;
  }
  if (typeof claims.sub === 'string') user.id = claims.sub;
  const known = new Set(signInRoles(model));
  const listed = Array.isArray(claims.roles) ? claims.roles : [];
  const role =
    listed.find((name): name is string => typeof name === 'string' && known.has(name)) ??
    (typeof claims.role === 'string' && known.has(claims.role) ? claims.role : undefined);
  if (role !== undefined) user.role = role;
  return user;
}

function sameIdentity(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (a.id !== undefined || b.id !== undefined) return a.id === b.id;
  return a.email !== undefined && a.email === b.email;
}

function sameHeaders(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

function storageOf(options: SessionStoreOptions): SessionStoreOptions['storage'] {
  if (options.storage !== undefined) return options.storage;
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** A specification that now says `memory` leaves nothing behind from when it said `session`. */
function dropStored(key: string): void {
  try {
    if (typeof window !== 'undefined') window.sessionStorage.removeItem(key);
  } catch {
    // Nothing to drop where storage is disabled.
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
