import type { IncomingHttpHeaders } from 'node:http';
import replyFrom from '@fastify/reply-from';
import { API_BASE } from '@ninefold/model';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from './problem';

/** Where the dev proxy forwards `/api/*`: one origin and a path prefix on it, nothing else. */
export interface ProxyTarget {
  /** `https://api.example.com` */
  origin: string;
  /** `/v1`, or `` for the origin's root; never ends with `/`. */
  path: string;
}

export type ProxyTargetResult = { ok: true; target: ProxyTarget } | { ok: false; message: string };

/**
 * Reads the `--api URL` of `ninefold dev`: an `http(s)` URL with an optional path prefix. Credentials,
 * a query or a fragment in it are refused: the proxy forwards paths under the prefix, and only those.
 *
 * @example
 * ```ts
 * parseProxyTarget('https://api.example.com/v1/'); // { ok: true, target: { origin: 'https://api.example.com', path: '/v1' } }
 * ```
 */
export function parseProxyTarget(url: string): ProxyTargetResult {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: `"${url}" is not a URL; give one like https://api.example.com/v1.` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return {
      ok: false,
      message: `the API URL must start with http:// or https://, not ${parsed.protocol}//.`,
    };
  if (parsed.username || parsed.password)
    return { ok: false, message: 'the API URL may not carry credentials; the client sends its own.' };
  if (parsed.search || parsed.hash)
    return { ok: false, message: 'the API URL may not carry a query or a fragment.' };
  return { ok: true, target: { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, '') } };
}

export type ProxiedPath = { ok: true; path: string; query: string } | { ok: false; problem: Problem };

/**
 * Maps a request target under the proxy's prefix (`/api/orders/5?x=1`) to the upstream path
 * (`/v1/orders/5`) and query (`x=1`). It refuses, rather than normalizes, anything that could leave the
 * prefix or name another host: an absolute-form target, `.` and `..` segments (also percent-encoded),
 * empty segments, encoded slashes and backslashes.
 */
export function proxiedPath(requestTarget: string, target: ProxyTarget, prefix = API_BASE): ProxiedPath {
  const refuse = (detail: string): ProxiedPath => ({
    ok: false,
    problem: problem(400, 'BAD_REQUEST', detail),
  });
  if (!requestTarget.startsWith('/') || requestTarget.startsWith('//'))
    return refuse('The dev proxy forwards only paths under /api/.');
  const queryAt = requestTarget.indexOf('?');
  const path = queryAt === -1 ? requestTarget : requestTarget.slice(0, queryAt);
  const query = queryAt === -1 ? '' : requestTarget.slice(queryAt + 1);
  if (path !== prefix && !path.startsWith(`${prefix}/`))
    return refuse('The dev proxy forwards only paths under /api/.');
  const rest = path.slice(prefix.length);
  if (rest.includes('\\') || /%(?:2f|5c|00)/i.test(rest))
    return refuse('The path may not contain encoded slashes or backslashes.');
  const segments = rest.split('/').slice(1);
  for (const [index, segment] of segments.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return refuse('The path is not valid percent-encoding.');
    }
    if (decoded === '.' || decoded === '..') return refuse('The path may not contain . or .. segments.');
    // One trailing slash is a path of its own (`/orders/`); an empty segment inside one is not.
    if (segment === '' && index !== segments.length - 1)
      return refuse('The path may not contain empty segments.');
  }
  return { ok: true, path: `${target.path}${rest}` || '/', query };
}

/**
 * Connection-level headers (RFC 9110 section 7.6.1) belong to one hop and are never forwarded, in either
 * direction; the proxy also drops forwarding headers a client sent, which an upstream might trust.
 */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];
const CLIENT_FORWARDING = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
];

type Headers = IncomingHttpHeaders | Record<string, string | string[] | number | undefined>;

/** The request headers sent upstream: its own Host, no hop-by-hop or client forwarding headers. */
export function proxyRequestHeaders(headers: Headers, target: ProxyTarget): Record<string, unknown> {
  const out: Record<string, unknown> = { ...headers };
  for (const name of [...listedInConnection(headers), ...HOP_BY_HOP, ...CLIENT_FORWARDING]) delete out[name];
  out.host = new URL(target.origin).host;
  return out;
}

/**
 * The upstream's answer headers as the browser gets them: no hop-by-hop headers; cookies without their
 * `Domain` (the browser talks to the dev server's origin) and with their path moved under the prefix;
 * redirects into the upstream's prefix pointed at the proxy. Other redirects pass unchanged: the proxy
 * never follows one.
 */
export function proxyResponseHeaders(
  headers: Headers,
  target: ProxyTarget,
  prefix = API_BASE,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...headers };
  for (const name of [...listedInConnection(headers), ...HOP_BY_HOP]) delete out[name];
  const cookies = out['set-cookie'];
  if (cookies !== undefined) {
    const list = Array.isArray(cookies) ? cookies : [String(cookies)];
    out['set-cookie'] = list.map((cookie) => rewriteSetCookie(String(cookie), target, prefix));
  }
  if (typeof out.location === 'string') out.location = rewriteLocation(out.location, target, prefix);
  return out;
}

/**
 * @example
 * ```ts
 * rewriteSetCookie('sid=1; Domain=api.example.com; Path=/v1; HttpOnly', target, '/api');
 * // 'sid=1; Path=/api; HttpOnly'
 * ```
 */
export function rewriteSetCookie(cookie: string, target: ProxyTarget, prefix = API_BASE): string {
  const [pair = '', ...attributes] = cookie.split(';');
  const kept: string[] = [pair.trim()];
  for (const attribute of attributes) {
    const text = attribute.trim();
    const name = text.split('=')[0]?.trim().toLowerCase();
    if (name === 'domain' || text === '') continue;
    if (name === 'path') {
      const value = text.slice(text.indexOf('=') + 1).trim();
      kept.push(`Path=${underPrefix(value, target.path, prefix) ?? value}`);
      continue;
    }
    kept.push(text);
  }
  return kept.join('; ');
}

/** A redirect into the upstream's prefix, pointed at the proxy instead; any other one unchanged. */
export function rewriteLocation(location: string, target: ProxyTarget, prefix = API_BASE): string {
  let url: URL;
  try {
    url = new URL(location, `${target.origin}${target.path}/`);
  } catch {
    return location;
  }
  if (url.origin !== target.origin) return location;
  const local = underPrefix(url.pathname, target.path, prefix);
  return local === undefined ? location : `${local}${url.search}${url.hash}`;
}

function underPrefix(path: string, upstream: string, prefix: string): string | undefined {
  if (upstream === '') return path.startsWith('/') ? `${prefix}${path === '/' ? '' : path}` : undefined;
  if (path === upstream) return prefix;
  if (path.startsWith(`${upstream}/`)) return `${prefix}${path.slice(upstream.length)}`;
  return undefined;
}

function listedInConnection(headers: Headers): string[] {
  const connection = headers.connection;
  if (typeof connection !== 'string') return [];
  return connection
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
}

export interface DevProxyOptions {
  target: ProxyTarget;
  /** How long to wait for the upstream's answer headers. */
  timeoutMs?: number;
}

/** RFC 9457, like every other failure: the API behind the proxy did not answer. */
function badGateway(target: ProxyTarget, reason: string): Problem {
  return {
    ...problem(502, 'BAD_GATEWAY', `The API at ${target.origin} did not answer: ${reason}.`),
    title: 'Bad gateway',
  };
}

/**
 * Forwards `/api` and `/api/*` to the target's origin and path prefix, and nothing else: the upstream's
 * origin is fixed when the proxy is set up, the path is checked by {@link proxiedPath}, the Host header is
 * the upstream's, redirects are passed back rather than followed, and TLS certificates are verified.
 * Bodies pass through as they came. A failure to reach the upstream is a 502 problem.
 */
export function registerDevProxy(app: FastifyInstance, options: DevProxyOptions): void {
  const { target } = options;
  const timeout = options.timeoutMs ?? 60_000;
  app.register(async (scope) => {
    await scope.register(replyFrom, {
      base: `${target.origin}/`,
      disableRequestLogging: true,
      undici: {
        // reply-from turns certificate checks off (its `tls` default); `connect` wins over it, and a real
        // API's certificate must be checked.
        connect: { rejectUnauthorized: true },
        headersTimeout: timeout,
        // Answers may stream for long (server-sent events): no limit between body chunks.
        bodyTimeout: 0,
      },
    });
    // Bodies are forwarded untouched, whatever their type (JSON, multipart, anything).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const forward = (request: FastifyRequest, reply: FastifyReply) => {
      const mapped = proxiedPath(request.raw.url ?? '', target);
      if (!mapped.ok) return reply.code(400).type(PROBLEM_CONTENT_TYPE).send(mapped.problem);
      return reply.from(mapped.path, {
        queryString: () => mapped.query,
        rewriteRequestHeaders: (_request, headers) => proxyRequestHeaders(headers, target) as typeof headers,
        rewriteHeaders: (headers) => proxyResponseHeaders(headers, target) as typeof headers,
        // No retries: a dev proxy shows the upstream's answer as it is, 503s included.
        retryDelay: () => null,
        onError: (failed, { error }) => {
          const reason = describeFailure(error);
          failed.code(502).type(PROBLEM_CONTENT_TYPE).send(badGateway(target, reason));
        },
      });
    };
    scope.all(API_BASE, forward);
    scope.all(`${API_BASE}/*`, forward);
  });
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name could not be resolved';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'FST_REPLY_FROM_GATEWAY_TIMEOUT':
      return 'it took too long';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed';
    default:
      if (typeof code === 'string' && /CERT|SELF_SIGNED|TLS|SSL/i.test(code))
        return 'its TLS certificate is not trusted';
      return 'the request failed';
  }
}
