import { createServer, type Server } from 'node:http';
import { basename, dirname, extname, join } from 'node:path';
import type { Model } from '@ninefold/model';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp, DEFAULT_BODY_LIMIT, metricsOf } from './app';
import type { AuthOptions } from './auth/authenticate';
import { type ProvisionResult, provisionUsers } from './auth/provision';
import { type ConfiguredSecrets, type SecretSource, signingSecrets } from './auth/signing-secrets';
import type { UserRequest } from './auth/users';
import { registerClient, signInOption } from './client';
import { listenProblem } from './listen-problem';
import { createLogger, type LogLevel } from './operations/request-log';
import { createMailer } from './people/mailer';
import { seedHistories } from './seed/seed-history';
import { seedPeople } from './seed/seed-people';
import { seed } from './seed/seed-store';
import { openStore } from './store/open-store';
import type { MigrationStep, Store, StoredUser } from './store/store';

export interface ServeOptions {
  model: Model;
  /** The specification file; the default SQLite database lives next to it. */
  specFile: string;
  /** `postgres://...`, `sqlite:path`, a file path, or `:memory:`. */
  db?: string;
  /** A direct PostgreSQL URL for listening, when `db` goes through a pooler (see `StoreOptions`). */
  dbDirect?: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fill each empty entity with this many generated records. */
  seed?: number;
  allowDestructive?: boolean;
  bodyLimit?: number;
  /**
   * The built web client (see `ensureRuntime` in `@ninefold/web/runtime`) to serve next to the API, with
   * its Content-Security-Policy; without it, only the API, the model and the health check are served.
   */
  clientDir?: string;
  /** Users to create when missing (`--user`); with `seed`, a demo user per role is made as well. */
  users?: UserRequest[];
  /** Point 6's session tokens and OpenID Connect verifier. */
  auth?: AuthOptions;
  /** The token secrets as configured (`NINEFOLD_SECRET`, `--secret-file`); see `signingSecrets`. */
  secrets?: ConfiguredSecrets;
  /** The demo users' password when `seed` makes them (`NINEFOLD_DEMO_PASSWORD`). */
  demoPassword?: string;
  /** Origins of other sites whose pages may call the API (CORS); none by default. */
  allowedOrigins?: string[];
  /** Whether changes are streamed to clients (see `AppOptions.liveUpdates`); on by default. */
  liveUpdates?: boolean;
  /** Progress and errors, one line each; never request data, never a secret. */
  log: (line: string) => void;
  /**
   * Each answered request as a JSON line on standard output, and server errors with their reference
   * (see `registerRequestLog`); `silent` (the default here) writes none, and errors go to `log`.
   */
  logLevel?: LogLevel;
  /** Where the JSON lines go instead of the process's standard output (tests, a command's terminal). */
  logDestination?: DestinationStream;
  /**
   * Prometheus metrics (see `createMetrics`): at `GET /metrics` on the API's port for a bearer `token`,
   * and on a `port` of their own (same host) for a scraper inside the network.
   */
  metrics?: { token?: string; port?: number };
  /**
   * How long a stop waits for requests in flight before it closes their connections (default 10 s):
   * within a supervisor's grace period (Kubernetes gives 30 s), so that the database is closed cleanly.
   */
  drainMs?: number;
  /** Whether every write records its entry of the audit trail; on by default. */
  audit?: boolean;
  /** Entries of the audit trail older than this many days are removed (at start, then every 6 hours). */
  auditDays?: number;
  /** Where invitations and password resets are sent (`--smtp`); printed with `log` without one. */
  smtp?: string;
  /** The client's address in links people are sent (`--public-url`); the server's own by default. */
  publicUrl?: string;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  store: Store;
  /** The users made at start, with their new secrets: for the terminal only, never for a log. */
  users: Extract<ProvisionResult, { ok: true }>;
  /** Where the token secret came from: only a configured or shared one keeps sessions across restarts. */
  secretSource: SecretSource;
  /** Where `/metrics` is served on a port of its own, when asked for. */
  metricsUrl?: string;
  /** Stops taking requests, lets those in flight finish, then closes the database. */
  close(): Promise<void>;
}

export type ServeResult = { ok: true; server: RunningServer } | { ok: false; message: string };

export const DEFAULT_PORT = 4321;
export const DEFAULT_DRAIN_MS = 10_000;

/**
 * Starts the prototype API for a checked model, and with `clientDir` the built client next to it.
 * Refuses, without touching the database, a migration that would lose data unless `allowDestructive` is
 * set, naming each entity and field it would change.
 *
 * @example
 * ```ts
 * const clientDir = await ensureRuntime(); // from @ninefold/web/runtime
 * const started = await serve({ model, specFile: 'shop.md', seed: 20, port: 0, clientDir, log: console.log });
 * if (started.ok) console.log(started.server.url);
 * ```
 */
export async function serve(options: ServeOptions): Promise<ServeResult> {
  const url = databaseUrl(options.db, options.specFile);
  const opened = await openPrototypeStore({ ...options, url });
  if (!opened.ok) return opened;
  const { store } = opened;
  const dialect = url.startsWith('postgres') ? 'postgres' : 'sqlite';
  try {
    const secrets = await signingSecrets(store, dialect, options.secrets);
    if (!secrets.ok) {
      await store.close();
      return secrets;
    }
    const users = await provisionUsers(store, options.model, {
      users: options.users ?? [],
      demo: (options.seed ?? 0) > 0,
      ...(options.demoPassword === undefined ? {} : { demoPassword: options.demoPassword }),
      ...demoPasswordFile(url, options.specFile),
    });
    if (!users.ok) {
      await store.close();
      return users;
    }
    if (opened.seeded) await seedDemoPeople(store, options.model, users);
    const level = options.logLevel ?? 'silent';
    const log = level === 'silent' ? undefined : createLogger(level, options.logDestination);
    const logger = log?.logger;
    let listening = 'http://localhost/';
    const app = await buildApp({
      people: {
        publicUrl: () => options.publicUrl ?? listening,
        mailer: createMailer({ ...(options.smtp ? { smtp: options.smtp } : {}), print: options.log }),
      },
      model: options.model,
      store,
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      ...(logger ? { logger } : { onServerError: serverErrorLogger(options.log) }),
      ...(options.audit === false ? { audit: false } : {}),
      ...(options.metrics
        ? { metrics: { ...(options.metrics.token ? { token: options.metrics.token } : {}) } }
        : {}),
      auth: {
        ...options.auth,
        secret: options.auth?.secret ?? secrets.secret,
        ...(secrets.previous ? { previousSecret: secrets.previous } : {}),
      },
      ...(options.allowedOrigins?.length ? { allowedOrigins: options.allowedOrigins } : {}),
      ...(options.liveUpdates === false ? { liveUpdates: false } : {}),
    });
    if (options.clientDir !== undefined)
      registerClient(app, { dir: options.clientDir, model: options.model, ...signInOption(options.model) });
    const host = options.host ?? '127.0.0.1';
    const port = options.port ?? DEFAULT_PORT;
    let address: string;
    try {
      address = await app.listen({ host, port });
      listening = address;
    } catch (error) {
      await app.close().catch(() => undefined);
      throw new Error(listenProblem(error, host, port));
    }
    const retention =
      options.auditDays === undefined ? undefined : keepAuditFor(store, options.auditDays, options.log);
    const metrics = metricsOf(app);
    let metricsServer: { server: Server; url: string } | undefined;
    if (metrics && options.metrics?.port !== undefined) {
      try {
        metricsServer = await listenForMetrics(
          () => metrics.text(),
          metrics.registry.contentType,
          host,
          options.metrics.port,
        );
      } catch (error) {
        await app.close().catch(() => undefined);
        throw new Error(listenProblem(error, host, options.metrics.port));
      }
    }
    let closing: Promise<void> | undefined;
    return {
      ok: true,
      server: {
        url: `${address}/`,
        app,
        store,
        users,
        secretSource: options.auth?.secret ? 'configured' : secrets.source,
        ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
        close: () => {
          closing ??= (async () => {
            // A scrape takes milliseconds: its connections are not waited for.
            clearInterval(retention);
            metricsServer?.server.close();
            metricsServer?.server.closeAllConnections();
            await closeWithin(app, options.drainMs ?? DEFAULT_DRAIN_MS);
            await store.close();
            // Lines still buffered are written before the process ends.
            await log?.flush();
          })();
          return closing;
        },
      },
    };
  } catch (error) {
    await store.close().catch(() => undefined);
    return { ok: false, message: (error as Error).message };
  }
}

/**
 * Stops taking requests and waits for those in flight; past `ms`, closes the connections still open
 * (a client that never finishes its upload), so that a stop is bounded.
 */
async function closeWithin(app: FastifyInstance, ms: number): Promise<void> {
  const closed = app.close();
  // A connection whose request is answered while the server stops is kept alive by the client (undici
  // for 4 s): the server would wait for it. Each is closed as soon as it is idle.
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_CHECK_MS);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      app.server.closeAllConnections();
      resolve();
    }, ms);
  });
  try {
    await Promise.race([closed, late]);
    await closed;
  } finally {
    clearTimeout(timer);
    clearInterval(idle);
  }
}

/** How often a stopping server closes the connections that went idle. */
const IDLE_CHECK_MS = 50;

/** How often the audit trail's retention is applied while the server runs. */
const RETENTION_EVERY_MS = 6 * 60 * 60 * 1000;

/** Removes entries of the audit trail older than `days`, now and then every 6 hours; says how many. */
function keepAuditFor(store: Store, days: number, log: (line: string) => void): NodeJS.Timeout {
  const prune = () => {
    const before = new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
    store.pruneAudit(before).then(
      (removed) => {
        if (removed > 0) log(`  audit trail: removed ${removed} entries older than ${days} days`);
      },
      (error: Error) => log(`warning: the audit trail's retention failed: ${error.message}`),
    );
  };
  prune();
  return setInterval(prune, RETENTION_EVERY_MS).unref();
}

/** `GET /metrics` on a port of its own, answering nothing else. */
async function listenForMetrics(
  text: () => Promise<string>,
  contentType: string,
  host: string,
  port: number,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Only GET /metrics is here.\n');
      return;
    }
    text().then(
      (body) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: Error) =>
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${error.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return { server, url: `http://${shown}:${bound}/metrics` };
}

/**
 * Where a new demo password is kept for later starts: next to a SQLite file, or next to the specification
 * for PostgreSQL (nodes on one machine then agree). A database in memory starts empty each time: none.
 */
function demoPasswordFile(url: string, specFile: string): { demoPasswordFile?: string } {
  if (url === 'sqlite::memory:') return {};
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    return { demoPasswordFile: `${path.startsWith('//') ? path.slice(2) : path}.demo-password` };
  }
  const name = basename(specFile, extname(specFile));
  return { demoPasswordFile: join(dirname(specFile), `${name}.ninefold.demo-password`) };
}

/**
 * The demo users just made enter the records just seeded (see `seedPeople`), and take the steps of
 * their histories that their roles may take (`seedHistories`).
 */
export async function seedDemoPeople(store: Store, model: Model, users: ProvisionResult): Promise<void> {
  const demo: StoredUser[] = [];
  for (const user of users.ok ? users.users.filter((candidate) => candidate.demo) : []) {
    const found = await store.findUser({ email: user.email });
    if (found) demo.push(found);
  }
  await seedPeople(store, model, demo);
  await seedHistories(store, model, demo);
}

export interface PrototypeStoreOptions {
  model: Model;
  /** A database URL as {@link databaseUrl} gives it. */
  url: string;
  seed?: number;
  allowDestructive?: boolean;
  /** See `StoreOptions.directUrl`. */
  dbDirect?: string;
  log: (line: string) => void;
}

export type PrototypeStoreResult =
  /** `seeded`: the database was empty and `seed` filled it (then `seedDemoPeople` gives it its people). */
  { ok: true; store: Store; seeded: boolean } | { ok: false; message: string };

/**
 * Opens the database for a model, brings its tables in line (refusing, without changing anything, a
 * migration that would lose data unless allowed) and seeds an empty one when asked. Shared by `serve`
 * and by the dev server, which opens a new store each time the specification changes.
 */
export async function openPrototypeStore(options: PrototypeStoreOptions): Promise<PrototypeStoreResult> {
  const { url } = options;
  let store: Store;
  try {
    store = await openStore({
      model: options.model,
      url,
      ...(options.dbDirect === undefined ? {} : { directUrl: options.dbDirect }),
    });
  } catch (error) {
    return {
      ok: false,
      message: `The database ${describeDatabase(url)} could not be opened: ${(error as Error).message}`,
    };
  }
  try {
    const migration = await store.migrate({ allowDestructive: options.allowDestructive ?? false });
    if (!migration.ok) {
      await store.close();
      return { ok: false, message: refusal(migration.refused) };
    }
    for (const line of migrationSummary(migration.applied)) options.log(line);
    // Claims left by a process that stopped mid-request: none of them wrote anything (an answer is stored
    // with its write), so their retries may run now rather than after the lease. On PostgreSQL another
    // node may be handling its claims right now: there a claim is freed when its node's lock of life is
    // gone (see claimKey), or else by the lease.
    if (!url.startsWith('postgres')) await store.releaseUnansweredIdempotencyKeys();
    const seeded =
      options.seed !== undefined && options.seed > 0
        ? await seed(store, options.model, options.seed, options.log)
        : false;
    return { ok: true, store, seeded };
  } catch (error) {
    await store.close().catch(() => undefined);
    return { ok: false, message: (error as Error).message };
  }
}

/** Server errors go to the log with their reference and stack; the answer carries only the reference. */
export function serverErrorLogger(log: (line: string) => void): (reference: string, error: unknown) => void {
  return (reference, error) =>
    log(`error ${reference}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

/** The database a `--db` value names; without one, a SQLite file next to the specification. */
export function databaseUrl(db: string | undefined, specFile: string): string {
  if (db === undefined || db === '') {
    const name = basename(specFile, extname(specFile));
    return `sqlite:${join(dirname(specFile), `${name}.ninefold.db`)}`;
  }
  if (/^postgres(ql)?:\/\//.test(db) || db.startsWith('sqlite:')) return db;
  if (db === ':memory:') return 'sqlite::memory:';
  return `sqlite:${db}`;
}

/**
 * What is wrong with a `--db` value, if anything: a URL of a database Ninefold does not speak (`mysql://`)
 * would otherwise be taken for the name of a SQLite file. Only its scheme is repeated: a URL may hold a
 * password.
 */
export function databaseProblem(db: string | undefined): string | undefined {
  const scheme = db === undefined ? undefined : /^([a-z][a-z0-9+.-]*):\/\//i.exec(db)?.[1];
  if (scheme === undefined || /^(postgres|postgresql|sqlite)$/i.test(scheme)) return undefined;
  return `--db takes a SQLite file (or sqlite:PATH) or a postgres:// URL; "${scheme}://" is neither.`;
}

/** `SQLite (examples/shop.ninefold.db)` or `PostgreSQL (127.0.0.1:5432/test)`: never the password. */
export function describeDatabase(url: string): string {
  if (url.startsWith('sqlite:')) return `SQLite (${url.slice('sqlite:'.length)})`;
  try {
    const parsed = new URL(url);
    return `PostgreSQL (${parsed.host}${parsed.pathname})`;
  } catch {
    return 'PostgreSQL';
  }
}

/**
 * What a migration did, briefly: new tables and indexes are counted (a first start creates dozens), while
 * the changes a person should notice on an existing database (a new column, an applied destructive
 * change) are each named.
 */
export function migrationSummary(steps: MigrationStep[]): string[] {
  const tables = steps.filter((step) => step.kind === 'create-table').length;
  const indexes = steps.filter((step) => step.kind === 'add-index').length;
  const lines: string[] = [];
  if (tables > 0 || indexes > 0) {
    lines.push(
      `  created ${tables} table${tables === 1 ? '' : 's'} and ${indexes} index${indexes === 1 ? '' : 'es'}`,
    );
  }
  for (const step of steps) {
    if (step.kind !== 'create-table' && step.kind !== 'add-index')
      lines.push(`  migrated: ${step.description}`);
  }
  return lines;
}

function refusal(steps: MigrationStep[]): string {
  const lines = steps.filter((step) => step.destructive).map((step) => `  - ${step.description}`);
  return [
    'The specification changed in a way that would lose stored data:',
    ...lines,
    'Nothing was changed. Restore the fields, or run again with --allow-destructive to apply these changes.',
  ].join('\n');
}
