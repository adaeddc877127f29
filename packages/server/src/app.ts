import { createHash, randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import {
  type Call,
  checkAction,
  checkGuardWithRecords,
  checkTransition,
  derivedValues,
  type Entity,
  entityLabel,
  entityPlural,
  exhaustiveSwitchError,
  fieldLabel,
  findEntity,
  guardReadsRecords,
  hasNumericKey,
  type JsonValue,
  type Model,
  permissionsApply,
  recordToCreate,
  resolveAmount,
  type StateMachine,
  type Transition,
  transitionAccess,
  transitionChange,
  transitionRefusal,
  validateRecord,
} from '@ninefold/spec';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  enforce,
  principalOf,
  readableList,
  refuseForbiddenFields,
  refuseHiddenQuery,
  rememberAuthentication,
  requireAction,
} from './access';
import { apiBase, keepsHistory, prototypeApi, specPayload } from './api-calls';
import { registerAuthRoutes } from './auth/auth-routes';
import { type Authenticator, type AuthOptions, createAuthenticator } from './auth/authenticate';
import { refuseDeepBody } from './body-depth';
import { exportColumns, sendCsv, wantsCsv } from './csv-export';
import { encodedBody, preferredCoding } from './encoded-body';
import {
  claimIdempotency,
  IdempotentReplay,
  registerIdempotency,
  sendAnswer,
  sendReplay,
  writeAnswered,
} from './idempotency';
import { registerJsonBody } from './json-body';
import { parseListQuery, type QueryValues } from './list-query';
import { presenterFor } from './present';
import {
  clip,
  PROBLEM_CONTENT_TYPE,
  type Problem,
  ProblemError,
  problem,
  validationProblem,
} from './problem';
import { applyUpdates, beforeWrite, needsTransaction, readerOf } from './record-rules';
import { checkReferences } from './references';
import {
  type BodyLimits,
  contentDisposition,
  DEFAULT_FILE_LIMIT,
  filesPath,
  forgetFiles,
  hasFileFields,
  readRequestBody,
  saveFiles,
} from './request-body';
import type { RecordKey, Store, StoredRecord, VersionedRecord, WriteFailure } from './store/store';

export interface AppOptions {
  model: Model;
  store: Store;
  /** Largest accepted request body, in bytes (for multipart bodies: the largest text part). */
  bodyLimit?: number;
  /** Largest uploaded file for a file field whose size point 5 does not bound, in bytes. */
  fileLimit?: number;
  /** The clock for rules, guards and effects; tests pin it. */
  now?: () => Date;
  /** Where server errors are reported (with their reference); never request bodies or headers. */
  onServerError?: (reference: string, error: unknown) => void;
  /** Point 6's sign-in: the token secret and lifetime, an OpenID Connect verifier. */
  auth?: AuthOptions;
  /**
   * Test-only: runs after a write and the answer to its idempotency key have committed, before the answer
   * is sent. A test throws here to stand for a process killed at the worst moment.
   */
  afterCommit?: (request: FastifyRequest) => void | Promise<void>;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * The prototype API for a model: the specification's calls (or conventional REST when point 7 is not
 * shown) on the given store, validated by the shared rules of `packages/spec`, answering every failure
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
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    return503OnClosing: true,
    // Errors the router raises before any handler runs (a path parameter too long, a URL it cannot
    // decode) must be problems too.
    frameworkErrors: (error, _request, reply) => sendProblem(reply, toProblem(error, options.onServerError)),
  });
  const api = prototypeApi(model);
  const authenticator = createAuthenticator(model, store, options.auth);
  const limits: BodyLimits = {
    fieldSize: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    fileLimit: options.fileLimit ?? DEFAULT_FILE_LIMIT,
  };
  // Calls encoded as form or multipart take those bodies (JSON is taken by every call). The multipart
  // parser only marks the request: each handler reads the parts itself, with its entity's limits.
  await app.register(multipart, { throwFileSizeLimit: false });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
  registerJsonBody(app);
  // Fastify reads text/plain by default; this API takes no text, and says so with a 415, as documented.
  app.removeContentTypeParser('text/plain');

  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof IdempotentReplay) {
      sendReplay(reply, error.answer);
      return;
    }
    if (error instanceof ProblemError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    }
    sendProblem(reply, toProblem(error, options.onServerError), authenticator);
  });
  registerIdempotency(app, store, (error) => options.onServerError?.(randomUUID(), error));
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

  app.get('/healthz', async () => ({ status: 'ok' }));
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
  if (api.history && keepsHistory(model)) {
    app.get(`${api.base}${api.history}/:entity/:id`, (request) =>
      history(request, { model, store, now, transitions, limits }),
    );
  }
  registerAuthRoutes(app, api, authenticator);
  for (const call of api.calls) {
    // Sign-in and sign-out calls are the session routes above.
    if (call.purpose === 'sign-in' || call.purpose === 'sign-out') continue;
    const url = `${api.base}${call.path.replace(/\{([^}]+)\}/g, ':$1')}`;
    const handler = handlerFor(call, {
      model,
      store,
      now,
      transitions,
      limits,
      afterCommit: options.afterCommit,
      onServerError: options.onServerError,
    });
    app.route({ method: call.method, url, handler });
  }
  return app;
}

interface Context {
  model: Model;
  store: Store;
  now: () => Date;
  /** Test-only: runs after a keyed write commits, before its answer is sent (see AppOptions). */
  afterCommit?: ((request: FastifyRequest) => void | Promise<void>) | undefined;
  transitions: Map<string, { machine: StateMachine; transition: Transition }>;
  limits: BodyLimits;
  /** Where a failure is told once an answer has begun (a CSV export cut short). */
  onServerError?: AppOptions['onServerError'];
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

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
        requireAction(context.model, request, entity, 'read', record);
        reply.header('etag', etag(version));
        return presenterFor(context.model, request, entity)(record);
      };
    case 'create':
      return (request, reply) => create(call, entity, context, request, reply);
    case 'update':
      return (request, reply) => update(call, entity, context, request, reply);
    case 'delete':
      return async (request, reply) => {
        requireAction(context.model, request, entity, 'delete');
        const key = keyOf(call, request);
        if (permissionsApply(context.model)) {
          const { record } = await load(entity, context, key);
          requireAction(context.model, request, entity, 'delete', record);
        }
        const result = await context.store.delete(entity.name, coerceKey(entity, key));
        if (!result.ok) throw new ProblemError(writeProblem(context.model, result.failure, entity, key));
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

// ------------------------------------------------------------------------------------------ list

async function list(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  requireAction(context.model, request, entity, 'read');
  const values = { ...(request.query as QueryValues) };
  const parsed = parseListQuery(
    context.model,
    call,
    values,
    defaultPageSize(context.model, entity),
    (request.params ?? {}) as Record<string, string>,
  );
  if ('problem' in parsed) throw new ProblemError(parsed.problem);
  refuseHiddenQuery(context.model, request, entity, parsed.query);
  if (wantsCsv(request)) {
    // The whole list as a file: the page asked for is not what is exported, its filters and sort are.
    const { cursor: _cursor, offset: _offset, ...query } = parsed.query;
    return sendCsv(reply, {
      filename: `${entityPlural(entity)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')}.csv`,
      ...exportColumns(context.model, request, entity),
      present: presenterFor(context.model, request, entity),
      read: (page) =>
        readableList(context.model, request, entity, context.store, { ...query, ...page, withTotal: false }),
      onError: (error) => context.onServerError?.(randomUUID(), error),
    });
  }
  const result = await readableList(context.model, request, entity, context.store, parsed.query);
  const items = result.items.map(presenterFor(context.model, request, entity));
  const response = call.response ?? { shape: 'array' as const };
  if (result.total !== undefined) reply.header('x-total-count', String(result.total));
  if (parsed.page.style === 'link-header' && parsed.page.page !== undefined) {
    reply.header('link', linkHeader(request, parsed.page.page, parsed.page.size, result.total));
  }
  if (response.shape !== 'envelope') return items;
  const pagination = call.pagination;
  return {
    [response.items ?? 'items']: items,
    ...(response.total && result.total !== undefined ? { [response.total]: result.total } : {}),
    ...(pagination?.style === 'cursor' ? { [pagination.nextField]: result.nextCursor ?? null } : {}),
  };
}

/** The list screen's page size (a number or a constant) is the default page of its entity's lists. */
function defaultPageSize(model: Model, entity: Entity): number | undefined {
  if (!model.screens.shown) return undefined;
  for (const screen of model.screens.items) {
    if (screen.kind !== 'list' || screen.entity !== entity.name) continue;
    const size = resolveAmount(model, screen.pageSize)?.value;
    if (typeof size === 'number') return size;
  }
  return undefined;
}

function linkHeader(request: FastifyRequest, page: number, size: number, total: number | undefined): string {
  const url = new URL(request.url, 'http://local');
  const link = (target: number, rel: string) => {
    url.searchParams.set('page', String(target));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (total === undefined || page * size < total) links.push(link(page + 1, 'next'));
  return links.join(', ');
}

// ------------------------------------------------------------------------------------------ writes

async function create(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { model, store } = context;
  requireAction(model, request, entity, 'create');
  const {
    values: body,
    files,
    errors: uploadErrors,
  } = await readRequestBody(model, call, entity, request, context.limits);
  // Before anything is checked or stored: a repeat is answered as the first was, refusals included.
  await claimIdempotency(store, request, context.now().getTime(), {
    values: body,
    files: files.map((file) => ({
      field: file.field,
      index: file.index ?? null,
      name: file.name,
      type: file.type,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    })),
  });
  refuseForbiddenFields(model, request, entity, body);
  const machine = machineOf(model, entity);
  if (machine && body[machine.field] !== undefined && body[machine.field] !== machine.initial) {
    throw new ProblemError(
      validationProblem([
        {
          pointer: `/${machine.field}`,
          code: 'rule',
          message: `A new ${entityLabel(entity)} starts as ${machine.initial}; use a transition to change it.`,
        },
      ]),
    );
  }
  const input = withDefaults(entity, body, false);
  const creator = principalOf(request).user;
  const result = validateRecord(model, entity.name, input, {
    mode: 'create',
    now: context.now(),
    ...(creator ? { user: creator } : {}),
  });
  if (!result.ok || uploadErrors.length)
    throw new ProblemError(validationProblem([...uploadErrors, ...(result.ok ? [] : result.errors)]));
  const referenceErrors = await checkReferences(model, store, entity, result.record);
  if (referenceErrors.length) throw new ProblemError(validationProblem(referenceErrors));

  // Defaults, values set on create, the initial state and derived values (stored too, so that lists can
  // sort and filter on them): the record exactly as it will be stored.
  const values = recordToCreate(model, entity.name, result.record, {
    user: principalOf(request).user ?? {},
    now: context.now(),
  });
  // The grant's condition holds for the record as it will be stored, or a role could create one in
  // another person's name (and that person would then see it).
  requireAction(model, request, entity, 'create', values);
  // Bytes are stored only once the record is known to be valid, and forgotten if the write fails.
  const fileIds = await saveFiles(store, files, values, apiBase(model));
  const created = await writeAnswered(
    store,
    request,
    (tx) =>
      needsTransaction(model, entity, 'create')
        ? tx.transaction(async (inner) => {
            const user = principalOf(request).user;
            const scope = {
              mode: 'create' as const,
              record: values,
              now: context.now(),
              ...(user ? { user } : {}),
            };
            return inner.create(entity.name, await beforeWrite(model, inner, entity, scope));
          })
        : tx.create(entity.name, values),
    (record) => ({
      status: 201,
      headers: {
        etag: etag(1),
        location: `${pathOf(request.url)}/${encodeURIComponent(String(keyValue(entity, record)))}`,
      },
      body: presenterFor(model, request, entity)(record),
    }),
    () => context.afterCommit?.(request),
  ).catch(async (error: unknown) => {
    await forgetFiles(store, fileIds);
    throw error;
  });
  if (!created.ok) {
    await forgetFiles(store, fileIds);
    throw new ProblemError(writeProblem(model, created.failure, entity, ''));
  }
  return sendAnswer(reply, created.answer);
}

async function update(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { model, store } = context;
  requireAction(model, request, entity, 'update');
  const key = keyOf(call, request);
  const { record: old, version } = await load(entity, context, key);
  requireAction(model, request, entity, 'update', old);
  // Lost updates: a change must say which version it was made on, and is refused when that is stale,
  // before its values are looked at (they were chosen looking at another version).
  const expected = ifMatch(request);
  if (expected === undefined) {
    throw new ProblemError(
      problem(
        428,
        'PRECONDITION_REQUIRED',
        `Send If-Match with the ETag of the ${entityLabel(entity)} you changed, so that nobody's changes are lost.`,
      ),
    );
  }
  if (expected !== version) throw await changedSinceRead(entity, context, request, key);
  const {
    values: change,
    files,
    errors: uploadErrors,
  } = await readRequestBody(model, call, entity, request, context.limits);
  refuseForbiddenFields(model, request, entity, change);
  const machine = machineOf(model, entity);
  if (machine && change[machine.field] !== undefined && change[machine.field] !== old[machine.field]) {
    throw new ProblemError(
      problem(
        409,
        'USE_A_TRANSITION',
        `The ${fieldLabel({ name: machine.field })} of ${entityLabel(entity)} changes only through its transitions.`,
      ),
    );
  }
  const editor = principalOf(request).user;
  const result = validateRecord(model, entity.name, change, {
    mode: 'update',
    old,
    now: context.now(),
    ...(editor ? { user: editor } : {}),
  });
  if (!result.ok || uploadErrors.length)
    throw new ProblemError(validationProblem([...uploadErrors, ...(result.ok ? [] : result.errors)]));
  const referenceErrors = await checkReferences(
    model,
    store,
    entity,
    pick(result.record, Object.keys(change)),
  );
  if (referenceErrors.length) throw new ProblemError(validationProblem(referenceErrors));
  // A change may not move a record out of what the role may change (another customer's, say).
  requireAction(model, request, entity, 'update', { ...old, ...result.record });

  const stored = { ...change, ...derivedValues(model, entity.name, result.record) };
  const fileIds = await saveFiles(store, files, stored, apiBase(model));
  const write = (tx: Store) => tx.update(entity.name, coerceKey(entity, key), stored, expected);
  const updated = await (needsTransaction(model, entity, 'update')
    ? store.transaction(async (tx) => {
        const record = { ...old, ...result.record, ...derivedValues(model, entity.name, result.record) };
        const scope = {
          mode: 'update' as const,
          record,
          old,
          now: context.now(),
          ...(editor ? { user: editor } : {}),
        };
        await beforeWrite(model, tx, entity, scope);
        return write(tx);
      })
    : write(store)
  ).catch(async (error: unknown) => {
    await forgetFiles(store, fileIds);
    throw error;
  });
  if (!updated.ok) {
    await forgetFiles(store, fileIds);
    throw await writeFailure(updated.failure, entity, context, request, key);
  }
  // The update was made over `expected`, which it moved on by one.
  reply.header('etag', etag(expected + 1));
  return presenterFor(model, request, entity)(updated.value);
}

async function transition(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { model, store } = context;
  const found = context.transitions.get(call.name);
  if (!found)
    throw new ProblemError(
      problem(501, 'NOT_IMPLEMENTED', `No transition of point 4 is taken by ${call.name}.`),
    );
  const { machine, transition: step } = found;
  const now = context.now();
  // A transition takes no values: a repeat is what the key, the path and any body sent say it is.
  await claimIdempotency(store, request, now.getTime(), request.body ?? null);
  const principal = principalOf(request);
  enforce(transitionAccess(model, principal, machine, step));
  const key = keyOf(call, request);
  // If-Match is optional here: the machine itself refuses a transition from a state the record left.
  const expected = ifMatch(request);
  const user = principal.user;
  const by =
    user?.id === undefined
      ? null
      : { id: String(user.id), email: typeof user.email === 'string' ? user.email : null };
  for (let attempt = 1; ; attempt++) {
    const { record, version } = await load(entity, context, key);
    enforce(transitionAccess(model, principal, machine, step, record));
    // The machine is asked first, of the record as it is now: a step someone else already took (the
    // order paid in another tab) is an illegal transition, which says more than "changed since read".
    const verdict = checkTransition(model, machine, step, record, {
      now,
      ...(principal.role === undefined ? {} : { role: principal.role }),
      ...(principal.user === undefined ? {} : { user: principal.user }),
    });
    if (!verdict.allowed) {
      const { status, code } = transitionRefusal(verdict.reason);
      throw new ProblemError(problem(status, code, verdict.message));
    }
    if (expected !== undefined && expected !== version) {
      throw await changedSinceRead(entity, context, request, key);
    }
    const computed = transitionChange(model, machine, step, record, { now });
    if (!computed.ok) throw new ProblemError(problem(500, 'EFFECT_FAILED', computed.message));
    const change = {
      ...computed.change,
      ...derivedValues(model, entity.name, { ...record, ...computed.change }),
    };
    // Written only over the version the checks were made on, so two requests racing cannot both take it;
    // a keyed request's answer is stored with it.
    const apply = (tx: Store) =>
      tx.applyTransition(entity.name, coerceKey(entity, key), change, version, {
        transition: step.name,
        from: String(record[machine.field]),
        to: step.to,
        by,
        at: now.toISOString(),
      });
    const guardReads = guardReadsRecords(model, machine, step);
    const updated = await writeAnswered(
      store,
      request,
      (tx) =>
        guardReads || (step.updates?.length ?? 0) > 0
          ? tx.transaction(async (inner) => {
              const who = { now, ...(principal.user === undefined ? {} : { user: principal.user }) };
              if (guardReads) {
                // A guard over other records (at most two on hold) is decided where the write is made.
                await inner.lockForRules([entity.name]);
                const guarded = await checkGuardWithRecords(
                  model,
                  machine,
                  step,
                  record,
                  who,
                  readerOf(inner),
                );
                if (!guarded.allowed) {
                  const { status, code } = transitionRefusal(guarded.reason);
                  throw new ProblemError(problem(status, code, guarded.message));
                }
              }
              const applied = await apply(inner);
              // Other records change with the transition or not at all (an order takes its stock): a
              // refused change throws, and the transaction takes the transition back with it.
              if (applied.ok) await applyUpdates(model, inner, machine, step, record, who);
              return applied;
            })
          : apply(tx),
      // The new version, so that the client's next change can say which one it read.
      (value) => ({
        status: 200,
        headers: { etag: etag(version + 1) },
        body: presenterFor(model, request, entity)(value),
      }),
      () => context.afterCommit?.(request),
    );
    if (updated.ok) return sendAnswer(reply, updated.answer);
    // Changed between the read and the write. A client that named no version meant "from whatever state
    // it is in": the transition is checked again on the new version (a second `place` is then refused
    // as illegal, never taken twice).
    const again = updated.failure.kind === 'version-mismatch' && expected === undefined && attempt < 3;
    if (!again) throw await writeFailure(updated.failure, entity, context, request, key);
  }
}

// ------------------------------------------------------------------------------------------ history

/**
 * `GET /api/_history/{Entity}/{id}`: the transitions a record went through, newest first, for whoever
 * may read the record (the same 401 and 403 as reading it).
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
  requireAction(model, request, entity, 'read', record);
  return { items: await context.store.history(entity.name, keyValue(entity, record)) };
}

// ------------------------------------------------------------------------------------------ helpers

/** The record and its version, read together; 404 when there is none. */
async function load(entity: Entity, context: Context, key: string): Promise<VersionedRecord> {
  const found = Number.isNaN(coerceKey(entity, key))
    ? undefined
    : await context.store.getVersioned(entity.name, coerceKey(entity, key));
  if (!found)
    throw new ProblemError(problem(404, 'NOT_FOUND', `There is no ${entityLabel(entity)} ${clip(key)}.`));
  return found;
}

/**
 * The 412 for a change made on a version that is no longer the record's. It carries the record as it is
 * now (the fields the role may read; nothing if it may not read the record) and that version's ETag, so
 * that the client can show both versions without asking again.
 */
async function changedSinceRead(
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  key: string,
): Promise<ProblemError> {
  const { model } = context;
  const found = await context.store.getVersioned(entity.name, coerceKey(entity, key));
  if (!found)
    return new ProblemError(writeProblem(model, { kind: 'not-found', entity: entity.name }, entity, key));
  const readable = checkAction(model, principalOf(request), entity.name, 'read', found.record).allowed;
  return new ProblemError(
    problem(
      412,
      'CHANGED_SINCE_READ',
      `${entityLabel(entity)} ${clip(key)} was changed by someone else since you read it.`,
      readable ? { current: presenterFor(model, request, entity)(found.record) } : {},
    ),
    { etag: etag(found.version) },
  );
}

/** A write the store refused; a stale version is answered with the record as it is now. */
async function writeFailure(
  failure: WriteFailure,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  key: string,
): Promise<ProblemError> {
  if (failure.kind === 'version-mismatch') return changedSinceRead(entity, context, request, key);
  return new ProblemError(writeProblem(context.model, failure, entity, key));
}

function keyOf(call: Call, request: FastifyRequest): string {
  const parameters = [...call.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const name = parameters.at(-1) ?? 'id';
  return String((request.params as Record<string, string>)[name] ?? '');
}

/** Keys arrive as text; numeric keys become numbers (NaN when the text is not one). */
function coerceKey(entity: Entity, key: string): RecordKey {
  if (hasNumericKey(entity)) return /^\d{1,15}$/.test(key) ? Number(key) : Number.NaN;
  return key;
}

function keyValue(entity: Entity, record: StoredRecord): RecordKey {
  return record[entity.key ?? 'id'] as RecordKey;
}

function withDefaults(entity: Entity, record: StoredRecord, readOnly: boolean): StoredRecord {
  const out = { ...record };
  for (const field of entity.fields) {
    const isReadOnly = Boolean(field.readOnly || field.derived);
    if (isReadOnly === readOnly && field.default !== undefined && out[field.name] === undefined)
      out[field.name] = field.default;
  }
  return out;
}

function machineOf(model: Model, entity: Entity): StateMachine | undefined {
  return model.states.shown
    ? model.states.machines.find((machine) => machine.entity === entity.name)
    : undefined;
}

function transitionsByCall(model: Model, calls: Call[], conventional: boolean) {
  const map = new Map<string, { machine: StateMachine; transition: Transition }>();
  if (!model.states.shown) return map;
  for (const machine of model.states.machines) {
    for (const step of machine.transitions) {
      const name = conventional ? `${step.name}${machine.entity}` : step.call;
      if (name && calls.some((call) => call.name === name)) map.set(name, { machine, transition: step });
    }
  }
  return map;
}

function ifMatch(request: FastifyRequest): number | undefined {
  const header = request.headers['if-match'];
  if (typeof header !== 'string') return undefined;
  const version = Number(header.replace(/^W\//, '').replaceAll('"', ''));
  if (!Number.isInteger(version))
    throw new ProblemError(problem(400, 'INVALID_IF_MATCH', 'If-Match must be an ETag this API gave.'));
  return version;
}

function etag(version: number | undefined): string {
  return `"${version ?? 0}"`;
}

/**
 * "Another Contact of this Customer already has this Email." The constraint's message is not used: it
 * speaks for the field's other checks (its pattern, its range), not for a value someone else has.
 */
function uniqueMessage(model: Model, entity: Entity, field: string): string {
  const constraint = model.validation.shown
    ? model.validation.fields.find(
        (candidate) => candidate.entity === entity.name && candidate.field.join('.') === field,
      )
    : undefined;
  const label = (name: string) =>
    fieldLabel({ name, label: entity.fields.find((candidate) => candidate.name === name)?.label });
  const per = (constraint?.uniqueWith ?? []).map((name) => `this ${label(name)}`).join(' and ');
  return `Another ${entityLabel(entity)}${per ? ` of ${per}` : ''} already has this ${label(field)}.`;
}

function pick(record: StoredRecord, keys: string[]): StoredRecord {
  return Object.fromEntries(
    keys.filter((key) => key in record).map((key) => [key, record[key] as JsonValue]),
  );
}

function writeProblem(model: Model, failure: WriteFailure, entity: Entity, key: string): Problem {
  switch (failure.kind) {
    case 'unique':
      return validationProblem([
        { pointer: `/${failure.field}`, code: 'rule', message: uniqueMessage(model, entity, failure.field) },
      ]);
    case 'referenced':
      return problem(
        409,
        'STILL_REFERENCED',
        `${entityLabel(entity)} ${clip(key)} is still used by a ${failure.by}; change or remove that first.`,
      );
    case 'not-found':
      return problem(404, 'NOT_FOUND', `There is no ${entityLabel(entity)} ${clip(key)}.`);
    case 'version-mismatch':
      return problem(
        412,
        'CHANGED_SINCE_READ',
        `${entityLabel(entity)} ${clip(key)} was changed by someone else since you read it.`,
      );
  }
}

function toProblem(error: unknown, report: AppOptions['onServerError']): Problem {
  if (error instanceof ProblemError) return error.problem;
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

function pathOf(url: string): string {
  return url.split('?')[0] ?? url;
}
