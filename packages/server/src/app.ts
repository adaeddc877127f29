import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import {
  type ApiDescription,
  type Call,
  type Entity,
  exhaustiveSwitchError,
  findEntity,
  keepsHistory,
  type Model,
  machineOf,
  mayKnowWhoActed,
  permissionsApply,
  planBeforeRead,
  planDelete,
  planRead,
  prototypeApi,
  specPayload,
  transitionsByCall,
} from '@ninefold/model';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { principalOf, rememberAuthentication, requireAction } from './access';
import { registerAudit } from './audit/audit-routes';
import { auditedStore, callOf, writerOf } from './audit/audited-store';
import { registerAuthRoutes } from './auth/auth-routes';
import { type Authenticator, type AuthOptions, createAuthenticator } from './auth/authenticate';
import { refuseDeepBody } from './body-depth';
import { contractDocument } from './contract';
import { importRows } from './csv-import';
import { encodedBody, preferredCoding } from './encoded-body';
import { figureAnswer } from './figures';
import { IdempotentReplay, registerIdempotency, sendReplay } from './idempotency';
import { registerJsonBody } from './json-body';
import { list } from './list-handler';
import { publishChange, registerEvents } from './live-events';
import { peopleNames, recordNames } from './names';
import { registerHealth } from './operations/health';
import { type AppMetrics, createMetrics, registerMetricsRoute } from './operations/metrics';
import { REQUEST_ID_HEADER, registerRequestLog, requestIdOf } from './operations/request-log';
import { registerAccounts } from './people/account-routes';
import type { LinkSettings } from './people/links';
import { createMailer, type Mailer } from './people/mailer';
import { registerPasswordRoutes } from './people/password-routes';
import { presenterFor } from './present';
import { applied, clip, PROBLEM_CONTENT_TYPE, type Problem, ProblemError, problem } from './problem';
import type { Context, Handler } from './record-context';
import { coerceKey, etag, keyOf, keyValue, load, pathOf, writeProblem } from './record-helpers';
import { actorOf, create, transition, update } from './record-writes';
import {
  type BodyLimits,
  contentDisposition,
  DEFAULT_FILE_LIMIT,
  filesPath,
  hasFileFields,
} from './request-body';
import type { Store } from './store/store';

export interface AppOptions {
  model: Model;
  store: Store;
  /** Largest accepted request body, in bytes (for multipart bodies: the largest text part). */
  bodyLimit?: number;
  /** Largest uploaded file for a file field whose size point 5 does not bound, in bytes. */
  fileLimit?: number;
  /** The clock for rules, guards and effects; tests pin it. */
  now?: () => Date;
  /**
   * Where server errors are reported (with their reference); never request bodies or headers. By default,
   * to `logger` when there is one.
   */
  onServerError?: (reference: string, error: unknown) => void;
  /** Point 6's sign-in: the token secret and lifetime, an OpenID Connect verifier. */
  auth?: AuthOptions;
  /**
   * Origins (`https://admin.example.com`) whose pages may call the API from the browser (CORS). None by
   * default: the served client is on the API's own origin.
   */
  allowedOrigins?: string[];
  /**
   * Whether changes are streamed (`GET {base}/_events`); on by default. Off, `/spec.json` names no
   * stream, and clients show what they read, as against an API without one.
   */
  liveUpdates?: boolean;
  /**
   * Test-only: runs after a write and the answer to its idempotency key have committed, before the answer
   * is sent. A test throws here to stand for a process killed at the worst moment.
   */
  afterCommit?: (request: FastifyRequest) => void | Promise<void>;
  /** Where each answered request is logged, one JSON line each (see `registerRequestLog`); none without. */
  logger?: FastifyBaseLogger;
  /**
   * Counts requests, latency, the pool, event streams and replays for Prometheus (`metricsOf`). With a
   * token, `GET /metrics` serves them on this app for `Authorization: Bearer TOKEN`.
   */
  metrics?: { token?: string };
  /** Whether every write records its entry of the audit trail (`auditedStore`); on by default. */
  audit?: boolean;
  /**
   * Where invitations and password resets point (`publicUrl`, the client's address as people reach it)
   * and how they are sent (`createMailer`: SMTP, or printed for the operator). By default, printed on
   * standard error with links to `http://localhost`.
   */
  people?: { publicUrl?: () => string; mailer?: Mailer };
}

const appMetrics = new WeakMap<FastifyInstance, AppMetrics>();

/** The metrics an app counts, when it was built with `metrics`: for a listener of their own. */
export function metricsOf(app: FastifyInstance): AppMetrics | undefined {
  return appMetrics.get(app);
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** An import's body: 100,000 rows of a dozen fields, with room. */
export const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * The prototype API for a model: the specification's calls (or conventional REST when point 7 is not
 * shown) on the given store, validated by the shared rules of `packages/model`, answering every failure
 * as an RFC 9457 problem. Also serves `GET /spec.json` (the model and the calls) and `GET /healthz`.
 *
 * @example
 * ```ts
 * const app = await buildApp({ model, store });
 * const answer = await app.inject({ method: 'GET', url: '/api/orders?limit=5' });
 * ```
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { model, store } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger;
  // With a logger, a server error is a line of the log with its reference, beside its request's.
  const onServerError =
    options.onServerError ??
    (logger
      ? (reference: string, error: unknown) => logger.error({ reference, err: error }, 'server error')
      : undefined);
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // One line per request, written by registerRequestLog when it ends: Fastify's own are two, with URLs.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (request) => requestIdOf(request.headers),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    return503OnClosing: true,
    // Errors the router raises before any handler runs (a path parameter too long, a URL it cannot
    // decode) must be problems too.
    frameworkErrors: (error, _request, reply) => sendProblem(reply, toProblem(error, onServerError)),
  });
  const api = without(
    without(prototypeApi(model), 'events', options.liveUpdates === false),
    'audit',
    options.audit === false,
  );
  const authenticator = createAuthenticator(model, store, options.auth);
  const limits: BodyLimits = {
    fieldSize: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    fileLimit: options.fileLimit ?? DEFAULT_FILE_LIMIT,
  };
  // Calls encoded as form or multipart take those bodies (JSON is taken by every call). The multipart
  // parser only marks the request: each handler reads the parts itself, with its entity's limits.
  await app.register(multipart, { throwFileSizeLimit: false });
  if (options.allowedOrigins?.length) {
    await app.register(cors, {
      origin: options.allowedOrigins,
      // Credentials travel in the Authorization header, never in cookies: none are allowed.
      credentials: false,
      allowedHeaders: ['authorization', 'content-type', 'if-match', 'idempotency-key', 'last-event-id'],
      exposedHeaders: ['etag', 'location', 'retry-after', 'link', 'x-total-count', REQUEST_ID_HEADER],
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      maxAge: 600,
    });
  }
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
  registerJsonBody(app);
  // Fastify reads text/plain by default; this API takes no text, and says so with a 415, as documented.
  app.removeContentTypeParser('text/plain');

  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  if (options.logger) registerRequestLog(app);
  let streams = () => 0;
  const metrics = options.metrics ? createMetrics(app, store, () => streams()) : undefined;
  if (metrics) {
    appMetrics.set(app, metrics);
    if (options.metrics?.token) registerMetricsRoute(app, metrics, options.metrics.token);
  }

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof IdempotentReplay) {
      metrics?.replayed();
      sendReplay(reply, error.answer);
      return;
    }
    if (error instanceof ProblemError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    }
    sendProblem(reply, toProblem(error, onServerError), authenticator);
  });
  registerIdempotency(app, store, (error) => onServerError?.(randomUUID(), error));
  // Before the body is read: a request with bad credentials is answered without parsing what it sends.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${api.base}/`)) return;
    const who = await authenticator.authenticate({ headers: request.headers, ip: request.ip });
    if (who.kind === 'refused') {
      if (who.retryAfterSeconds !== undefined) reply.header('retry-after', String(who.retryAfterSeconds));
      throw new ProblemError(problem(who.code === 'TOO_MANY_ATTEMPTS' ? 429 : 401, who.code, who.message));
    }
    rememberAuthentication(request, who);
  });
  // After the body is parsed and before any handler, hash or rule walks it.
  app.addHook('preHandler', async (request) => {
    if (request.body !== null && typeof request.body === 'object') refuseDeepBody(request.body);
  });
  app.setNotFoundHandler((request, reply) => {
    sendProblem(
      reply,
      problem(404, 'NO_SUCH_CALL', `Nothing answers ${request.method} ${pathOf(request.url)}.`),
    );
  });

  registerHealth(app, store);
  // Made on the first request: most servers are never asked, and a large model's document is big.
  let contract: ReturnType<typeof encodedBody> | undefined;
  app.get('/openapi.json', (request, reply) => {
    contract ??= encodedBody(JSON.stringify(contractDocument(model, api)));
    const coding = preferredCoding(request.headers['accept-encoding']);
    if (coding !== 'identity') reply.header('content-encoding', coding);
    return reply
      .header('vary', 'accept-encoding')
      .type('application/json; charset=utf-8')
      .send(contract.body(coding));
  });
  const spec = encodedBody(JSON.stringify(specPayload(model, api)));
  app.get('/spec.json', (request, reply) => {
    const coding = preferredCoding(request.headers['accept-encoding']);
    if (coding !== 'identity') reply.header('content-encoding', coding);
    return reply
      .header('vary', 'accept-encoding')
      .type('application/json; charset=utf-8')
      .send(spec.body(coding));
  });

  if (hasFileFields(model)) {
    app.get(`${filesPath(api.base)}/:id`, async (request, reply) => {
      const { id } = request.params as { id: string };
      // Files belong to records a role may or may not read; at least, nobody unknown fetches them.
      if (permissionsApply(model) && principalOf(request).role === undefined) {
        throw new ProblemError(problem(401, 'NOT_SIGNED_IN', 'Sign in to fetch files.'));
      }
      const file = /^[0-9a-f-]{36}$/.test(id) ? await store.getFile(id) : undefined;
      if (!file) throw new ProblemError(problem(404, 'NOT_FOUND', `There is no file ${clip(id)}.`));
      // User content: always a download, never sniffed or run as a page of this origin.
      return reply
        .header('content-type', file.type)
        .header('content-disposition', contentDisposition(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-cache')
        .send(Buffer.from(file.bytes));
    });
  }

  const transitions = transitionsByCall(model, api.calls, api.conventional);
  registerAuthRoutes(app, api, authenticator);
  const context: Context = {
    model,
    store,
    now,
    transitions,
    limits,
    afterCommit: options.afterCommit,
    onServerError,
    writer:
      options.audit === false
        ? () => store
        : (request) => auditedStore(store, { call: callOf(request), by: writerOf(request), now }),
  };
  if (api.history && keepsHistory(model)) {
    app.get(`${api.base}${api.history}/:entity/:id`, (request) => history(request, context));
  }
  if (api.import) {
    const base = `${api.base}${api.import}`;
    // CSV is read here only: every other call answers text with a 415, as documented.
    await app.register(async (scope) => {
      // As bytes: the core decodes them by its own rule (docs/prototype-api.md), the declared charset included.
      scope.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      scope.post(`${base}/:entity`, { bodyLimit: IMPORT_BODY_LIMIT }, (request, reply) =>
        importRows(
          importable(model, api, (request.params as { entity: string }).entity),
          context,
          request,
          reply,
        ),
      );
    });
  }
  if (api.events) streams = registerEvents(app, { path: `${api.base}${api.events}`, context, authenticator });
  if (api.audit) registerAudit(app, `${api.base}${api.audit}`, context);
  const links: LinkSettings = {
    publicUrl: options.people?.publicUrl ?? (() => 'http://localhost'),
    mailer: options.people?.mailer ?? createMailer({ print: (line) => process.stderr.write(`${line}\n`) }),
    now,
  };
  app.addHook('onClose', async () => links.mailer.close());
  const audited = api.audit !== undefined;
  if (api.auth?.passwordReset && api.auth.password) {
    registerPasswordRoutes(
      app,
      { reset: `${api.base}${api.auth.passwordReset}`, password: `${api.base}${api.auth.password}` },
      { model, store, links, audit: audited, ...(onServerError ? { onServerError } : {}) },
    );
  }
  if (api.accounts)
    registerAccounts(app, `${api.base}${api.accounts}`, { model, store, links, audit: audited });
  if (api.names) app.get(`${api.base}${api.names}/:entity`, (request) => recordNames(request, context));
  if (api.people) app.get(`${api.base}${api.people}`, (request) => peopleNames(request, context));
  if (api.figures) {
    app.get(`${api.base}${api.figures}/:screen/:figure`, (request) => figureAnswer(request, context));
  }
  for (const call of api.calls) {
    // Sign-in, refresh and sign-out calls are the session routes above.
    if (call.purpose === 'sign-in' || call.purpose === 'refresh' || call.purpose === 'sign-out') continue;
    const url = `${api.base}${call.path.replace(/\{([^}]+)\}/g, ':$1')}`;
    const handler = handlerFor(call, context);
    app.route({ method: call.method, url, handler });
  }
  return app;
}

function handlerFor(call: Call, context: Context): Handler {
  const purpose = call.purpose;
  switch (purpose) {
    case 'list':
    case 'get':
    case 'create':
    case 'update':
    case 'delete':
    case 'transition': {
      const entity = call.entity ? findEntity(context.model, call.entity) : undefined;
      if (!entity || entity.embedded) {
        return notImplemented(
          `The prototype API does not implement ${call.name}: it names no entity it stores.`,
        );
      }
      return recordHandler(call, purpose, entity, context);
    }
    case 'sign-in':
    case 'refresh':
    case 'sign-out':
    case 'upload':
    case 'other':
      return notImplemented(`The prototype API does not implement ${purpose} calls yet (${call.name}).`);
    default:
      return exhaustiveSwitchError(purpose);
  }
}

function recordHandler(
  call: Call,
  purpose: 'list' | 'get' | 'create' | 'update' | 'delete' | 'transition',
  entity: Entity,
  context: Context,
): Handler {
  switch (purpose) {
    case 'list':
      return (request, reply) => list(call, entity, context, request, reply);
    case 'get':
      return async (request, reply) => {
        requireAction(context.model, request, entity, 'read');
        const { record, version } = await load(entity, context, keyOf(call, request));
        applied(planRead(context.model, actorOf(context, request), entity, record));
        reply.header('etag', etag(version));
        return presenterFor(context.model, request, entity)(record);
      };
    case 'create':
      return (request, reply) => create(call, entity, context, request, reply);
    case 'update':
      return (request, reply) => update(call, entity, context, request, reply);
    case 'delete':
      return async (request, reply) => {
        applied(planBeforeRead(context.model, actorOf(context, request), { kind: 'delete', entity }));
        const key = keyOf(call, request);
        // Read first also for live updates: who may see that it went depends on what it was.
        const { record } = await load(entity, context, key);
        applied(await planDelete(context.model, entity, record, actorOf(context, request)));
        // The plan found no record naming this one; the database's foreign keys refuse one made since.
        const result = await context.writer(request).delete(entity.name, coerceKey(entity, key));
        if (!result.ok) throw new ProblemError(writeProblem(context.model, result.failure, entity, key));
        publishChange(context, request, {
          entity: entity.name,
          key: String(keyValue(entity, record)),
          kind: 'deleted',
          before: record,
        });
        return reply.code(204).send();
      };
    case 'transition':
      return (request, reply) => transition(call, entity, context, request, reply);
    default:
      return exhaustiveSwitchError(purpose);
  }
}

function notImplemented(detail: string): Handler {
  return async () => {
    throw new ProblemError(problem(501, 'NOT_IMPLEMENTED', detail));
  };
}

// ------------------------------------------------------------------------------------------ history

/**
 * `GET /api/_history/{Entity}/{id}`: the transitions a record went through, newest first, for whoever
 * may read the record (the same 401, 403 and 404 as reading it); who took each step only for a role that may
 * change the record too.
 */
async function history(request: FastifyRequest, context: Context) {
  const { model } = context;
  const { entity: name, id } = request.params as { entity: string; id: string };
  const entity = findEntity(model, name);
  if (!entity || entity.embedded || !machineOf(model, entity)) {
    throw new ProblemError(
      problem(404, 'NOT_FOUND', `${clip(name)} is not an entity with a state machine (point 4).`),
    );
  }
  requireAction(model, request, entity, 'read');
  const { record } = await load(entity, context, id);
  applied(planRead(model, actorOf(context, request), entity, record));
  const items = await context.store.history(entity.name, keyValue(entity, record));
  // Who took each step is told by the same rule as in the live events (the core's mayKnowWhoActed).
  if (mayKnowWhoActed(model, principalOf(request), entity.name, record)) return { items };
  // Left out rather than null: null says nobody was signed in, which would be a different claim.
  return { items: items.map(({ by: _by, ...item }) => item) };
}

function toProblem(error: unknown, report: AppOptions['onServerError']): Problem {
  if (error instanceof ProblemError) {
    if (error.problem.status < 500) return error.problem;
    // The server's own fault, said in words (a condition of the specification that cannot be evaluated,
    // an effect that cannot be computed): logged with a reference as any other, never a quiet answer.
    const reference = randomUUID();
    report?.(reference, error);
    return { ...error.problem, reference };
  }
  const named = error as { code?: string; statusCode?: number; name?: string; message?: string };
  if (named.name === 'InvalidCursorError')
    return problem(400, 'INVALID_CURSOR', 'The cursor is not one this API gave.');
  switch (named.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problem(400, 'MALFORMED_JSON', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem(413, 'BODY_TOO_LARGE', 'The body is larger than this API accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_FILES_LIMIT':
      return problem(413, 'TOO_MANY_PARTS', 'The body has more fields or files than this call takes.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return problem(400, 'MALFORMED_JSON', 'A part sent as application/json is not valid JSON.');
  }
  if (named.code === 'FST_ERR_MAX_PARAM_LENGTH' || named.statusCode === 414) {
    return problem(414, 'URI_TOO_LONG', 'A part of the address is longer than this API accepts.');
  }
  if (typeof named.statusCode === 'number' && named.statusCode >= 400 && named.statusCode < 500) {
    // Other request errors Fastify detects (a poisoned __proto__, a bad header): say what, never how.
    return problem(named.statusCode, 'BAD_REQUEST', 'The request could not be read.');
  }
  const reference = randomUUID();
  report?.(reference, error);
  return problem(500, 'SERVER_ERROR', 'The server could not complete this request.', { reference });
}

function sendProblem(reply: FastifyReply, body: Problem, auth?: Authenticator): void {
  // Bearer only: a Basic challenge would make browsers open their own password dialog over the page.
  if (body.status === 401 && (auth?.kind === 'password' || auth?.kind === 'oidc')) {
    reply.header(
      'www-authenticate',
      `Bearer realm="ninefold"${body.code === 'NOT_SIGNED_IN' ? '' : ', error="invalid_token"'}`,
    );
  }
  reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

function without(api: ApiDescription, part: 'events' | 'audit', off: boolean): ApiDescription {
  if (!off) return api;
  const { [part]: _off, ...rest } = api;
  return rest;
}

/** The entity an import names, when the API creates its records: the import makes records no other way. */
function importable(model: Model, api: ApiDescription, name: string): Entity {
  const entity = findEntity(model, name);
  const creates = api.calls.some((call) => call.purpose === 'create' && call.entity === name);
  if (!entity || entity.embedded || !creates) {
    throw new ProblemError(
      problem(
        404,
        'NO_SUCH_CALL',
        `Nothing imports ${clip(name)}: it is no entity whose records this API creates.`,
      ),
    );
  }
  return entity;
}
