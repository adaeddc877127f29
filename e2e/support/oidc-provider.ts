import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';

/** A person the test provider knows. Whatever is given is released as claims. */
export interface OidcAccount {
  /** The account id, the tokens' `sub`. */
  sub: string;
  email: string;
  name?: string;
  /** Released as the `roles` claim (scope `roles`) and put in JWT access tokens. */
  roles?: string[];
  /** Released as the `role` claim (scope `roles`) and put in JWT access tokens. */
  role?: string;
}

export interface OidcProviderOptions {
  /** The public client's id (token endpoint auth `none`, PKCE required). */
  clientId: string;
  /** Where the client may be sent back; more can be set with `setRedirectUris` once its port is known. */
  redirectUris?: string[];
  accounts: OidcAccount[];
  /**
   * `jwt` (default): access tokens are JWTs (RFC 9068) for `audience`, signed with the provider's key;
   * `opaque`: random strings that only the provider's userinfo endpoint can tell about.
   */
  accessTokens?: 'jwt' | 'opaque';
  /** The `aud` of JWT access tokens; the client id by default. */
  audience?: string;
  /** Scopes the API knows besides the OpenID ones (e.g. role names), granted when asked for. */
  apiScopes?: string[];
  /** Access token lifetime; 3600 by default. */
  accessTokenSeconds?: number;
}

export interface OidcTestProvider {
  /** `http://127.0.0.1:PORT`, as the discovery document names it. */
  issuer: string;
  setRedirectUris(uris: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** Tokens from a sign-in done without a browser. */
export interface TestTokens {
  accessToken: string;
  idToken?: string;
  refreshToken?: string;
  scope?: string;
}

/** What the test provider's pages look like to a browser test: find them by these. */
export const PROVIDER_PAGE = { title: 'Test provider', email: 'Email', submit: 'Continue' } as const;

/** The resource every JWT access token is for; its `aud` is `audience`. */
const API_RESOURCE = 'urn:ninefold:test-api';
const OPENID_SCOPES = ['openid', 'email', 'profile', 'roles', 'offline_access'];

// Untyped package (no declarations, and @types/oidc-provider is not installed): the few parts used here.
interface Interaction {
  uid: string;
  prompt: { name: string };
  params: Record<string, unknown>;
  session?: { accountId?: string };
}
interface GrantInstance {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface OidcContext {
  oidc: {
    client?: { clientId: string };
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    requestParamScopes: Set<string>;
    resourceServers?: Record<string, { scope?: string }>;
    provider: ProviderInstance;
  };
}
interface ProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: {
    new (init: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  };
  Client: { adapter: { upsert(id: string, payload: Record<string, unknown>): Promise<void> } };
}
type ProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => ProviderInstance;
// A string the compiler cannot resolve, so the untyped module's import is typed `any` rather than an error.
const OIDC_PROVIDER_MODULE: string = 'oidc-provider';

/**
 * Starts `oidc-provider` on 127.0.0.1 (a free port) with one public client and a minimal sign-in page:
 * an email field and a Continue button, no password, no consent screen. Nothing it does prints a token.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcTestProvider> {
  const { default: Provider } = (await import(OIDC_PROVIDER_MODULE)) as { default: ProviderConstructor };
  const jwt = (options.accessTokens ?? 'jwt') === 'jwt';
  const apiScopes = options.apiScopes ?? [];
  const accountBySub = new Map(options.accounts.map((account) => [account.sub, account]));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: randomBytes(8).toString('hex'),
    alg: 'RS256',
    use: 'sig',
  };

  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler === undefined) {
      res.statusCode = 503;
      res.end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      roles: ['roles', 'role'],
    },
    scopes: ['openid', 'offline_access'],
    // Claims asked for by scope go in the ID token too, so the client knows the person and role at once.
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accountBySub.get(sub);
      if (account === undefined) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: true,
          ...(account.name === undefined ? {} : { name: account.name }),
          ...(account.roles === undefined ? {} : { roles: account.roles }),
          ...(account.role === undefined ? {} : { role: account.role }),
        }),
      };
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string | string[]) =>
          oneOf ?? (jwt ? API_RESOURCE : undefined),
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => ({
          scope: apiScopes.join(' '),
          audience: resource === API_RESOURCE ? (options.audience ?? options.clientId) : resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.accessTokenSeconds ?? 3600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: async (_ctx: unknown, token: { kind: string; accountId?: string }) => {
      const account = token.kind === 'AccessToken' ? accountBySub.get(token.accountId ?? '') : undefined;
      if (account === undefined) return undefined;
      return {
        email: account.email,
        ...(account.roles === undefined ? {} : { roles: account.roles }),
        ...(account.role === undefined ? {} : { role: account.role }),
      };
    },
    // The one client is first-party: it gets what it asks for without a consent screen.
    loadExistingGrant: async (ctx: OidcContext) => {
      const { oidc } = ctx;
      const clientId = oidc.client?.clientId;
      const accountId = oidc.session?.accountId;
      if (clientId === undefined || accountId === undefined) return undefined;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
      if (grantId !== undefined) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ accountId, clientId });
      const asked = [...oidc.requestParamScopes];
      grant.addOIDCScope(asked.filter((scope) => OPENID_SCOPES.includes(scope)).join(' '));
      for (const resource of Object.keys(oidc.resourceServers ?? {})) {
        grant.addResourceScope(resource, asked.filter((scope) => apiScopes.includes(scope)).join(' '));
      }
      await grant.save();
      return grant;
    },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    pkce: { required: () => true },
    ttl: {
      AccessToken: options.accessTokenSeconds ?? 3600,
      IdToken: 3600,
      RefreshToken: 86_400,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
      client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
    renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = page('Sign-in failed', `<p>${escapeHtml(out.error ?? 'error')}</p>`);
    },
  });

  const setRedirectUris = (uris: string[]) =>
    provider.Client.adapter.upsert(options.clientId, {
      client_id: options.clientId,
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: uris,
      post_logout_redirect_uris: uris.map((uri) => new URL('/', uri).href),
    });
  await setRedirectUris(options.redirectUris ?? []);

  const providerHandler = provider.callback();
  handler = (req, res) => {
    // Browsers ask every page's origin for an icon; a 404 would be logged as a page error.
    if (req.url === '/favicon.ico') {
      res.statusCode = 204;
      res.end();
      return;
    }
    const interaction = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (interaction !== null) {
      signInPage(provider, accountBySub, req, res, interaction[1] ?? '').catch((error: Error) => {
        res.statusCode = 400;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(page('Sign-in failed', `<p>${escapeHtml(error.message)}</p>`));
      });
      return;
    }
    providerHandler(req, res);
  };

  return {
    issuer,
    setRedirectUris,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The provider's sign-in page: GET shows the form, POST signs in the account with that email. */
async function signInPage(
  provider: ProviderInstance,
  accounts: Map<string, OidcAccount>,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST') {
    const email = new URLSearchParams(await readBody(req)).get('email')?.trim().toLowerCase() ?? '';
    const account = [...accounts.values()].find((candidate) => candidate.email.toLowerCase() === email);
    if (account !== undefined) {
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    res.statusCode = 401;
    return sendForm(res, uid, `No account has the email ${email}.`);
  }
  res.statusCode = 200;
  return sendForm(
    res,
    uid,
    details.prompt.name === 'login' ? undefined : `Asked for ${details.prompt.name}.`,
  );
}

function sendForm(res: ServerResponse, uid: string, message: string | undefined): void {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(
    page(
      `${PROVIDER_PAGE.title}: sign in`,
      `${message === undefined ? '' : `<p role="alert">${escapeHtml(message)}</p>`}
      <form method="post" action="/interaction/${escapeHtml(uid)}">
        <label>${PROVIDER_PAGE.email} <input name="email" type="email" autocomplete="username" required></label>
        <button type="submit">${PROVIDER_PAGE.submit}</button>
      </form>`,
    ),
  );
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk.toString();
  return body;
}

/**
 * Signs an account in with the authorization code flow and PKCE, as a browser would but with plain
 * `fetch` and a cookie jar, and returns the tokens. For tests of the API side without a browser.
 */
export async function signInWithoutBrowser(
  provider: OidcTestProvider,
  options: { clientId: string; redirectUri: string; email: string; scope: string; resource?: string },
): Promise<TestTokens> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string> | undefined), cookie },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL('/auth', provider.issuer);
  authorize.search = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope,
    state,
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...(options.resource === undefined ? {} : { resource: options.resource }),
  }).toString();
  let response = await send(authorize.href);
  let location = response.headers.get('location');
  if (location === null) throw new Error(`the provider did not ask for a sign-in (${response.status})`);
  response = await send(new URL(location, provider.issuer).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: options.email }).toString(),
  });
  // The provider resumes the authorization, then sends the browser back with the code.
  for (let hops = 0; hops < 5; hops++) {
    location = response.headers.get('location');
    if (location === null) throw new Error(`the sign-in stopped at ${response.status}`);
    if (location.startsWith(options.redirectUri)) break;
    response = await send(new URL(location, provider.issuer).href);
  }
  const back = new URL(location ?? '');
  const code = back.searchParams.get('code');
  if (code === null || back.searchParams.get('state') !== state) {
    throw new Error(`the provider answered ${back.searchParams.get('error') ?? 'without a code'}`);
  }
  const token = await fetch(new URL('/token', provider.issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: options.redirectUri,
      client_id: options.clientId,
      code_verifier: verifier,
      ...(options.resource === undefined ? {} : { resource: options.resource }),
    }),
  });
  const answer = (await token.json()) as Record<string, unknown>;
  if (!token.ok || typeof answer.access_token !== 'string') {
    throw new Error(`the token endpoint answered ${token.status} ${String(answer.error ?? '')}`);
  }
  return {
    accessToken: answer.access_token,
    ...(typeof answer.id_token === 'string' ? { idToken: answer.id_token } : {}),
    ...(typeof answer.refresh_token === 'string' ? { refreshToken: answer.refresh_token } : {}),
    ...(typeof answer.scope === 'string' ? { scope: answer.scope } : {}),
  };
}
