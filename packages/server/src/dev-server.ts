import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Model } from '@ninefold/model';
import { API_BASE, type ApiDescription, describeApi, prototypeApi, specPayload } from '@ninefold/model';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { buildApp, DEFAULT_BODY_LIMIT } from './app';
import { type ProvisionResult, provisionUsers } from './auth/provision';
import type { UserRequest } from './auth/users';
import { isReservedPath, registerClient, securityHeaders, signInOption } from './client';
import { type ProxyTarget, registerDevProxy } from './dev-proxy';
import { type EncodedBody, encodedBody, preferredCoding } from './encoded-body';
import { listenProblem } from './listen-problem';
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from './problem';
import { openPrototypeStore, seedDemoPeople, serverErrorLogger } from './serve';
import type { Store } from './store/store';

/** Where open pages listen for `reload` events (server-sent events); the client opens it in dev. */
export const LIVE_RELOAD_PATH = '/_ninefold/events';
/** Next to `ninefold serve`'s 4321, so that both can run at once (dev proxying to serve, for one). */
export const DEV_DEFAULT_PORT = 4322;
const HEARTBEAT_MS = 15_000;
/** How long `close` lets requests in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 10_000;

/** A check issue as the page shows it (the client's `DevIssue`). */
export interface DevIssue {
  severity: 'error' | 'warning';
  message: string;
  /** `file:line:column` */
  source?: string;
  code: string;
}

/** What answers `/api`: the prototype API on a database, or a proxy to a real API. */
export type DevApi =
  | {
      kind: 'prototype';
      /** A database URL as `databaseUrl` gives it. */
      db: string;
      /** Seeds an empty database at start (not on later changes). */
      seed?: number;
      allowDestructive?: boolean;
      bodyLimit?: number;
      /** Users to create at start when missing (`--user`); with `seed`, demo users too. */
      users?: UserRequest[];
    }
  | { kind: 'proxy'; target: ProxyTarget };

export interface DevServerOptions {
  /** The checked model to start with. */
  model: Model;
  /** Its check issues (warnings), shown in the page. */
  issues: DevIssue[];
  /** The built web runtime; not read when a `front` serves the client. */
  clientDir?: string;
  /**
   * Serves the client from its sources instead (`ninefold dev` with an extension module): made once the
   * listener exists, so that hot module replacement can share its port, and asked first for every path
   * that is not the API's or the dev server's own.
   */
  front?: (server: Server) => Promise<DevFront>;
  api: DevApi;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Progress and errors, one line each. */
  log: (line: string) => void;
}

/** The outcome of a change: whether a new API now answers, or why the last good one still does. */
export type DevUpdate = { ok: true; rebuilt: boolean } | { ok: false; message: string };

/** A change to show: the specification's issues, and its model when it has one. */
export interface DevChange {
  model?: Model;
  issues: DevIssue[];
}

/** What serves the client from its sources in `ninefold dev` (see `DevServerOptions.front`). */
export interface DevFront {
  /** Answers what is its own (the page, the modules, their updates); calls `next` for anything else. */
  handle(request: IncomingMessage, response: ServerResponse, next: () => void): void;
  close(): Promise<void>;
}

export interface DevServer {
  url: string;
  /**
   * Shows a changed specification: its issues always, and its model when it has one (a specification
   * with errors has none, so the last good model keeps running). A changed model gets a new prototype API
   * on the same database and URL; requests in flight finish on the old one.
   */
  update(next: DevChange): Promise<DevUpdate>;
  /** Tells every open page to reload. */
  reload(): void;
  /**
   * Tells every open page the issues as they are now, without a reload: a page whose extension module is
   * replaced in place keeps its state, and shows what the last change broke or fixed.
   */
  showIssues(): void;
  /** The users made at start with their new secrets (prototype API only): for the terminal, never a log. */
  readonly users?: Extract<ProvisionResult, { ok: true }>;
  /** How many pages listen for reloads. */
  readonly listeners: number;
  /** Ends the event streams, lets requests in flight finish, closes the apps and the database. */
  close(): Promise<void>;
}

export type DevServerResult = { ok: true; server: DevServer } | { ok: false; message: string };

/** One generation of the app behind the listener; a changed model makes a new one. */
interface Generation {
  app: FastifyInstance;
  store?: Store;
  /** Requests it is answering: a retired generation closes once they are done. */
  active: number;
  retired: boolean;
  closed?: Promise<void>;
}

/**
 * Starts `ninefold dev`'s server: the built client, `spec.json` with the check issues and live reload
 * turned on, server-sent `reload` events on {@link LIVE_RELOAD_PATH}, and the prototype API or a proxy to
 * a real one under `/api`. One listener keeps the URL while the app behind it is replaced on change
 * (Fastify cannot remove routes).
 *
 * @example
 * ```ts
 * const started = await startDevServer({ model, issues: [], clientDir, api: { kind: 'prototype', db }, port: 0, log });
 * if (started.ok) await started.server.update({ model: changed, issues: [] });
 * ```
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServerResult> {
  const { api: apiKind, log } = options;
  const { clientDir } = options;
  if (clientDir === undefined && options.front === undefined) {
    return { ok: false, message: 'the dev server needs the built client or a front that serves it' };
  }
  let model = options.model;
  // Behind --api URL every call goes to the proxy at /api, whatever the document's own servers say
  // (a relative `/api/v1`, a template, a Swagger 2 basePath): the URL given is the API's base.
  const apiFor = (next: Model) =>
    apiKind.kind === 'proxy' ? { ...describeApi(next), base: API_BASE } : prototypeApi(next);
  let api: ApiDescription = apiFor(model);
  let issues = options.issues;
  // The model answer, serialized and compressed once per reload rather than per request.
  let cachedSpec: { model: Model; issues: DevIssue[]; body: EncodedBody } | undefined;
  const specBody = (): EncodedBody => {
    if (cachedSpec?.model !== model || cachedSpec.issues !== issues) {
      const body = encodedBody(JSON.stringify({ ...specPayload(model, api), dev: { reload: true, issues } }));
      cachedSpec = { model, issues, body };
    }
    return cachedSpec.body;
  };
  let closing = false;
  const streams = new Set<ServerResponse>();
  const authSecret = randomBytes(32);
  let users: Extract<ProvisionResult, { ok: true }> | undefined;

  async function makeGeneration(
    next: Model,
    first: boolean,
  ): Promise<{ ok: true; generation: Generation } | { ok: false; message: string }> {
    if (apiKind.kind === 'proxy') {
      const app = proxyApp(apiKind.target, options.front ? undefined : clientDir, next);
      await app.ready();
      return { ok: true, generation: { app, active: 0, retired: false } };
    }
    const opened = await openPrototypeStore({
      model: next,
      url: apiKind.db,
      seed: first ? apiKind.seed : undefined,
      allowDestructive: apiKind.allowDestructive,
      log,
    });
    if (!opened.ok) return opened;
    try {
      if (first) {
        const provisioned = await provisionUsers(opened.store, next, {
          users: apiKind.users ?? [],
          demo: (apiKind.seed ?? 0) > 0,
        });
        if (!provisioned.ok) {
          await opened.store.close();
          return provisioned;
        }
        if (opened.seeded) await seedDemoPeople(opened.store, next, provisioned);
        users = provisioned;
      }
      const app = await buildApp({
        model: next,
        store: opened.store,
        bodyLimit: apiKind.bodyLimit ?? DEFAULT_BODY_LIMIT,
        onServerError: serverErrorLogger(log),
        // One secret for every generation: editing the specification does not sign anybody out.
        auth: { secret: authSecret },
      });
      if (clientDir !== undefined && options.front === undefined)
        registerClient(app, { dir: clientDir, model: next, ...signInOption(next) });
      await app.ready();
      return { ok: true, generation: { app, store: opened.store, active: 0, retired: false } };
    } catch (error) {
      await opened.store.close().catch(() => undefined);
      return { ok: false, message: (error as Error).message };
    }
  }

  const first = await makeGeneration(model, true);
  if (!first.ok) return first;
  let current = first.generation;
  const retired = new Set<Generation>();

  const closeGeneration = (generation: Generation): Promise<void> => {
    generation.closed ??= generation.app
      .close()
      .then(() => generation.store?.close())
      .catch((error: Error) => log(`error while closing the previous API: ${error.message}`))
      .finally(() => retired.delete(generation));
    return generation.closed;
  };
  const retire = (generation: Generation) => {
    generation.retired = true;
    retired.add(generation);
    if (generation.active === 0) void closeGeneration(generation);
  };

  const headers = securityHeaders();
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const target = request.url ?? '';
    // Only origin-form targets: an absolute URL (`GET http://elsewhere/...`) is a proxy request, and
    // this server is no general proxy.
    if (!target.startsWith('/')) {
      sendProblem(response, problem(400, 'BAD_REQUEST', 'This server answers paths, not absolute URLs.'));
      return;
    }
    const path = target.split('?')[0] ?? target;
    if (path === LIVE_RELOAD_PATH) {
      openEvents(request, response);
      return;
    }
    if (path === '/spec.json' && (request.method === 'GET' || request.method === 'HEAD')) {
      const coding = preferredCoding(request.headers['accept-encoding']);
      const body = specBody().body(coding);
      response.writeHead(200, {
        ...headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
        'cache-control': 'no-store',
        vary: 'accept-encoding',
        ...(coding === 'identity' ? {} : { 'content-encoding': coding }),
      });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    if (front !== undefined && !isReservedPath(path)) {
      front.handle(request, response, () => toApp(request, response));
      return;
    }
    toApp(request, response);
  };
  const toApp = (request: IncomingMessage, response: ServerResponse) => {
    const generation = current;
    generation.active += 1;
    response.once('close', () => {
      generation.active -= 1;
      if (generation.retired && generation.active === 0) void closeGeneration(generation);
    });
    generation.app.routing(request, response);
  };

  const openEvents = (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'GET') {
      sendProblem(response, problem(405, 'METHOD_NOT_ALLOWED', `Open ${LIVE_RELOAD_PATH} with GET.`), {
        allow: 'GET',
      });
      return;
    }
    response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Proxies in front of the dev server must not buffer the stream.
      'x-accel-buffering': 'no',
    });
    // Reconnect quickly after the dev server restarts.
    response.write('retry: 1000\n\n');
    streams.add(response);
    response.once('close', () => streams.delete(response));
  };

  const server = createServer(handle);
  let front: DevFront | undefined;
  try {
    front = await options.front?.(server);
  } catch (error) {
    await closeGeneration(current);
    return { ok: false, message: `the client could not be served: ${(error as Error).message}` };
  }
  const heartbeat = setInterval(() => {
    // A comment line keeps idle connections from being cut by proxies and timeouts.
    for (const stream of streams) stream.write(': ping\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? DEV_DEFAULT_PORT, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    clearInterval(heartbeat);
    await Promise.all([closeGeneration(current), front?.close()]);
    return {
      ok: false,
      message: listenProblem(error, options.host ?? '127.0.0.1', options.port ?? DEV_DEFAULT_PORT),
    };
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let queue: Promise<unknown> = Promise.resolve();
  const apply = async (change: DevChange): Promise<DevUpdate> => {
    issues = change.issues;
    const nextModel = change.model;
    if (closing || nextModel === undefined) return { ok: true, rebuilt: false };
    if (JSON.stringify(nextModel) === JSON.stringify(model)) return { ok: true, rebuilt: false };
    const next = { issues: change.issues, model: nextModel };
    if (apiKind.kind === 'proxy') {
      // The real API does not change with the specification; only what the page is told does.
      model = next.model;
      api = apiFor(model);
      return { ok: true, rebuilt: false };
    }
    const made = await makeGeneration(next.model, false);
    if (!made.ok) {
      // The page says why the change is not running, next to the specification's own issues.
      issues = [...next.issues, { severity: 'error', code: 'not-applied', message: made.message }];
      return made;
    }
    if (closing) {
      await closeGeneration(made.generation);
      return { ok: true, rebuilt: false };
    }
    const previous = current;
    current = made.generation;
    model = next.model;
    api = apiFor(model);
    retire(previous);
    return { ok: true, rebuilt: true };
  };

  let closed: Promise<void> | undefined;
  const devServer: DevServer = {
    url: `http://${host}:${address.port}/`,
    ...(users ? { users } : {}),
    update(next) {
      const run = queue.then(() => apply(next));
      queue = run.catch(() => undefined);
      return run;
    },
    reload() {
      for (const stream of streams) stream.write(`event: reload\ndata: {}\n\n`);
    },
    showIssues() {
      const data = JSON.stringify(issues);
      for (const stream of streams) stream.write(`event: issues\ndata: ${data}\n\n`);
    },
    get listeners() {
      return streams.size;
    },
    close() {
      closed ??= (async () => {
        closing = true;
        clearInterval(heartbeat);
        for (const stream of streams) stream.end();
        streams.clear();
        const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        clearTimeout(grace);
        await front?.close();
        await queue;
        await Promise.all([closeGeneration(current), ...[...retired].map(closeGeneration)]);
      })();
      return closed;
    },
  };
  return { ok: true, server: devServer };
}

/** The app behind the listener with `--api URL`: the client, `/healthz`, and `/api` to the real API. */
function proxyApp(target: ProxyTarget, clientDir: string | undefined, model: Model): FastifyInstance {
  const app = Fastify({
    logger: false,
    return503OnClosing: true,
    frameworkErrors: (_error, _request, reply) =>
      sendReplyProblem(reply, problem(400, 'BAD_REQUEST', 'The request could not be read.')),
  });
  if (clientDir !== undefined) registerClient(app, { dir: clientDir, model, ...signInOption(model) });
  app.setErrorHandler((error, _request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500)
      sendReplyProblem(reply, problem(status, 'BAD_REQUEST', 'The request could not be read.'));
    else
      sendReplyProblem(reply, problem(500, 'SERVER_ERROR', 'The dev server could not forward this request.'));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split('?')[0] ?? '').slice(0, 200);
    sendReplyProblem(reply, problem(404, 'NO_SUCH_CALL', `Nothing answers ${request.method} ${path}.`));
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  registerDevProxy(app, { target });
  return app;
}

function sendReplyProblem(reply: FastifyReply, body: Problem): void {
  reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(body);
}

function sendProblem(response: ServerResponse, body: Problem, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(body.status, {
    ...securityHeaders(),
    ...extra,
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
