import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { exhaustiveSwitchError, type Model, type SignIn } from '@ninefold/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problem } from './problem';
import { screenPreloads } from './screen-preload';

export interface CspOptions {
  /** Origins the client calls directly besides its own: a real API on another host. */
  connect?: string[];
  /** Point 6's sign-in: an OpenID Connect or OAuth 2 provider the client calls is allowed too. */
  signIn?: SignIn;
  /**
   * For a `<meta http-equiv>` policy, which cannot carry `frame-ancestors` (browsers ignore it there and
   * warn); a static host sends that one in a header (`_headers`).
   */
  meta?: boolean;
  /**
   * Inline scripts allowed by their SHA-256 (`sha256-…`), for a page served from its sources in
   * `ninefold dev`, where the bundler's hot reload needs one: a hash allows that exact text and no other,
   * so injected markup still cannot run script.
   */
  scriptHashes?: string[];
}

/**
 * The client's Content-Security-Policy. Scripts come only from the client's own files: never inline,
 * never `eval`, so nothing can compile code from strings at run time. Styles allow inline because
 * Mantine injects `<style>` elements. Calls go to the client's own origin (the prototype API and the dev
 * proxy live there) plus, when it calls one directly, the real API's origin, and the sign-in provider's
 * (see {@link signInOrigins}).
 *
 * @example
 * ```ts
 * contentSecurityPolicy({ connect: ['https://api.example.com'] });
 * // "default-src 'self'; script-src 'self'; ...; connect-src 'self' https://api.example.com; ..."
 * ```
 */
export function contentSecurityPolicy(options: CspOptions = {}): string {
  const connect = ["'self'", ...new Set([...(options.connect ?? []), ...signInOrigins(options.signIn)])];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...(options.scriptHashes ?? []).map((hash) => `'${hash}'`)]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', connect],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ];
  if (!options.meta) directives.push(['frame-ancestors', ["'none'"]]);
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * The origin a client calls directly when its API base is an absolute `http(s)` URL, for `connect-src`;
 * undefined for a path on the client's own origin (`/api`).
 *
 * @example
 * ```ts
 * apiOrigin('https://api.example.com/v1'); // 'https://api.example.com'
 * apiOrigin('/api'); // undefined
 * ```
 */
export function apiOrigin(base: string): string | undefined {
  if (base.startsWith('/') && !base.startsWith('//')) return undefined;
  try {
    const url = new URL(base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origins a client calls to sign in, for `connect-src`: for OpenID Connect the issuer's (its discovery
 * document and, at most providers, its token endpoint), for OAuth 2 the token URL's. The authorization
 * page is visited, not called, so it needs no entry. A provider whose discovery document puts the token
 * endpoint on another origin needs that origin passed in `connect` as well.
 *
 * @example
 * ```ts
 * signInOrigins({ kind: 'oidc', issuer: 'https://id.example.com/realms/shop', clientId: 'shop',
 *   scopes: ['openid'], session: 'memory' }); // ['https://id.example.com']
 * ```
 */
export function signInOrigins(signIn: SignIn | undefined): string[] {
  if (signIn === undefined) return [];
  switch (signIn.kind) {
    case 'oidc':
      return httpOrigins(signIn.issuer);
    case 'oauth2':
      return httpOrigins(signIn.tokenUrl);
    case 'none':
    case 'password':
    case 'api-key':
    case 'basic':
    case 'token':
      return [];
    default:
      return exhaustiveSwitchError(signIn);
  }
}

function httpOrigins(url: string): string[] {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? [parsed.origin] : [];
  } catch {
    return [];
  }
}

/** The headers every answer of a served client carries, with its policy. */
export function securityHeaders(policy: string = contentSecurityPolicy()): Record<string, string> {
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/** Paths the client never answers: the API, the model and its contract, the health check and the dev server's own. */
export function isReservedPath(path: string): boolean {
  return (
    path === '/api' ||
    path.startsWith('/api/') ||
    path === '/spec.json' ||
    path === '/openapi.json' ||
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/metrics' ||
    path === '/_ninefold' ||
    path.startsWith('/_ninefold/')
  );
}

/**
 * Whether a GET for this path is a page the client renders (a deep link such as `/orders/5/edit`) rather
 * than a file or an API call: the browser asks for HTML when it navigates. A path whose last segment has
 * an extension is a file unless HTML is asked for by name, so a missing `/favicon.ico` stays a 404.
 */
export function wantsClientPage(path: string, accept: string | undefined): boolean {
  if (isReservedPath(path) || path.startsWith('/assets/')) return false;
  const namesHtml = accept !== undefined && /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(accept);
  if (namesHtml) return true;
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (last.includes('.')) return false;
  return accept === undefined || accept.trim() === '' || accept.includes('*/*');
}

export interface ClientOptions {
  /** The built runtime: `index.html` and `assets/`. */
  dir: string;
  /** Origins the client calls directly, for the policy's `connect-src`. */
  connect?: string[];
  /** Point 6's sign-in, when shown: its provider is allowed in `connect-src` (see {@link signInOrigins}). */
  signIn?: SignIn;
  /** The model served: each page then preloads the code of the screen at its address. */
  model?: Model;
}

/** Long enough to count as forever: asset names carry a hash of their content. */
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;
/** A root file a static build may carry (`favicon.svg`, `robots.txt`), never a dotfile or a path. */
const ROOT_FILE = /^\/([A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)+)$/;

/**
 * Serves the built client on an app: `/assets/*` as immutable files, root files, and `index.html` for
 * every other GET that asks for a page (client-side routes and deep links), with `no-cache` so a new
 * build is picked up. Paths under `/api/`, `/spec.json`, `/healthz` and `/_ninefold/` are left to the
 * app; a missing asset is the app's 404, never the page. Every answer gets the security headers.
 *
 * Call it before the app is ready; the app's not-found handler answers what the client does not.
 *
 * @example
 * ```ts
 * const app = await buildApp({ model, store });
 * registerClient(app, { dir: await ensureRuntime() });
 * ```
 */
export function registerClient(app: FastifyInstance, options: ClientOptions): void {
  const headers = securityHeaders(
    contentSecurityPolicy({ connect: options.connect, signIn: options.signIn }),
  );
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
  app.register(fastifyStatic, {
    root: join(options.dir, 'assets'),
    prefix: '/assets/',
    index: false,
    list: false,
    redirect: false,
    dotfiles: 'ignore',
    immutable: true,
    maxAge: ONE_YEAR_MS,
    // The runtime's build writes .br and .gz files beside each asset: sent to browsers that accept them.
    preCompressed: true,
    // The same URL answers differently by Accept-Encoding; a shared cache must keep them apart.
    setHeaders: (response) => response.setHeader('vary', 'accept-encoding'),
  });
  const preload = options.model ? screenPreloads(options.dir, options.model) : () => '';
  const page = (request: FastifyRequest, reply: FastifyReply) =>
    clientPage(options.dir, preload, request, reply);
  app.get(PLAYGROUND_PATH, (_request, reply) => playgroundPage(options.dir, reply));
  app.get('/', page);
  app.get('/*', page);
}

/**
 * Where every served client has its playground: the specification's text beside the client it
 * describes, running in the tab alone (it calls nothing on this server but its own files).
 */
export const PLAYGROUND_PATH = '/_/playground';

async function playgroundPage(dir: string, reply: FastifyReply): Promise<unknown> {
  let html: Buffer;
  try {
    html = await readFile(join(dir, 'playground.html'));
  } catch {
    return reply
      .code(503)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problem(503, 'CLIENT_NOT_BUILT', 'The playground is not built; run the command again.'));
  }
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
}

async function clientPage(
  dir: string,
  preload: (path: string) => string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const path = pathOf(request.url);
  if (isReservedPath(path)) return reply.callNotFound();
  const rootFile = ROOT_FILE.exec(path)?.[1];
  if (rootFile !== undefined && rootFile !== 'index.html') {
    const info = await stat(join(dir, rootFile)).catch(() => undefined);
    if (info?.isFile()) {
      return reply
        .header('cache-control', 'no-cache')
        .sendFile(rootFile, dir, { maxAge: 0, immutable: false, cacheControl: false });
    }
  }
  if (!wantsClientPage(path, request.headers.accept)) return reply.callNotFound();
  let html: Buffer;
  try {
    html = await readFile(join(dir, 'index.html'));
  } catch {
    return reply
      .code(503)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problem(503, 'CLIENT_NOT_BUILT', 'The web client is not built; run the command again.'));
  }
  const links = preload(path);
  const body = links ? html.toString('utf8').replace('</head>', `${links}</head>`) : html;
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(body);
}

/** The path of a request target, also for the absolute form (`GET http://host/path`). */
function pathOf(url: string): string {
  if (url.startsWith('/')) return url.split('?')[0] ?? url;
  try {
    return new URL(url).pathname;
  } catch {
    return '/';
  }
}

/** Point 6's sign-in, for the page's policy: an OpenID provider must be reachable from the page. */
export function signInOption(model: Model): { signIn?: SignIn } {
  return model.roles.shown ? { signIn: model.roles.signIn } : {};
}
