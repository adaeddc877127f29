import { exhaustiveSwitchError, type Model } from '@ninefold/model';
import {
  DEFAULT_PORT,
  databaseProblem,
  databaseUrl,
  describeDatabase,
  isLogLevel,
  LOG_LEVELS,
  parseUserOption,
  type SecretSource,
  serve as startServer,
  type UserRequest,
} from '@ninefold/server';

import { ensureRuntime } from '@ninefold/web/runtime';
import { parseCommandArgs } from '../args';
import { extensionFile, UI_OPTION_HELP } from '../extension-file';
import { loadSpecFile } from '../load-spec-file';
import { serveConfig } from '../serve-config';
import { listenForStop } from '../stop-signals';
import { paint, type Terminal } from '../terminal';
import { usersBanner } from '../users-banner';

export const SERVE_HELP = `Usage: ninefold serve SPEC [options]

Serves the client of a specification and its prototype API on a real database: SQLite in a file next
to SPEC by default, or PostgreSQL. The API validates with the specification's rules and answers errors
as RFC 9457 problem details; the client is served under a strict Content-Security-Policy (the first run
builds it). Prints its URL when ready; Ctrl-C (SIGINT) or SIGTERM stops it cleanly.

Options (each setting in brackets may come from the environment instead; a flag wins):
  --db URL              postgres://user@host:port/db, sqlite:FILE, FILE, or :memory:
                        [NINEFOLD_DATABASE_URL]
  --db-direct-url URL   with --db going through PgBouncer in transaction mode: a postgres:// URL straight
                        to the server, for the one connection that listens for changes
                        [NINEFOLD_DATABASE_DIRECT_URL]
  --port P              port to listen on (default ${DEFAULT_PORT}; 0 picks a free one) [NINEFOLD_PORT]
  --host H              address to listen on (default 127.0.0.1) [NINEFOLD_HOST]
  --seed N              fill each empty entity with N generated records (the same N gives the same data),
                        and make a demo user per role of point 6 when missing; they are never changed
                        after. Their password is [NINEFOLD_DEMO_PASSWORD], or a new one kept in a file
                        only you can read (next to a SQLite file, or to SPEC for PostgreSQL)
  --user EMAIL:ROLE[:NAME=VALUE,...]
                        create a user of point 6's sign-in if missing (repeatable); its password (or API
                        key) is printed once. NAME=VALUE sets what conditions read as user.NAME
  --allow-destructive   apply schema changes that drop or narrow stored data
  --body-limit BYTES    largest request body accepted (default 1048576) [NINEFOLD_BODY_LIMIT]
  --secret-file FILE    the secret that signs session tokens, at least 32 bytes [NINEFOLD_SECRET].
                        Without one, PostgreSQL keeps a generated secret that every node shares; on
                        SQLite, sessions end when the process stops
  --previous-secret-file FILE
                        the secret before a rotation: its tokens still verify until they expire (at
                        most 15 minutes; clients refresh onto the new one) [NINEFOLD_SECRET_PREVIOUS]
  --allow-origin URL    a site whose pages may call the API from the browser, such as
                        https://admin.example.com (repeatable) [NINEFOLD_ALLOWED_ORIGINS, with commas]
  --no-live-updates     stream no changes to clients (GET /api/_events), for a proxy that cannot
                        hold a response open [NINEFOLD_LIVE_UPDATES=off]
  --no-client           serve only the API, the model and the health checks
  --log-level LEVEL     each answered request as a JSON line on standard output (its id, also sent as
                        X-Request-Id, method, route, status and milliseconds), and server errors:
                        silent, fatal, error, warn, info, debug or trace. Default info, or warn when
                        standard output is a terminal [NINEFOLD_LOG_LEVEL]
  --metrics-port P      serve Prometheus metrics at /metrics on a port of their own
                        [NINEFOLD_METRICS_PORT]
  --metrics-token-file FILE
                        serve them at /metrics on the API's port too, for Authorization: Bearer and this
                        token, at least 16 characters [NINEFOLD_METRICS_TOKEN]
  --no-audit            record no audit trail of the writes (GET /api/_audit) [NINEFOLD_AUDIT=off]
  --audit-days N        remove entries of the audit trail older than N days (default: keep them all)
                        [NINEFOLD_AUDIT_DAYS]
  --smtp URL            send invitations and password resets through this mail server, such as
                        smtps://user:password@mail.example.com:465?from=Team%20<team@example.com>.
                        Without one, each link is printed here for you to pass on [NINEFOLD_SMTP_URL]
  --public-url URL      the client's address as people reach it, for the links they are sent
                        (default: this server's own address) [NINEFOLD_PUBLIC_URL]
  --drain-seconds N     on a stop, how long requests in flight may finish before their connections are
                        closed (default 10) [NINEFOLD_DRAIN_SECONDS]
  --root DIR            an OpenAPI document's $refs may read files in DIR only (default: its own folder)
  --client-id ID        the OAuth2 or OpenID Connect client id to sign in with (documents never name it)
  --sign-in SCHEME      the security scheme to sign in with, when the document has several
${UI_OPTION_HELP}
  -h, --help            show this help

Exit codes: 0 stopped cleanly, 1 the specification has errors or the server could not start,
2 the file could not be read or the command was used wrongly.
`;

/** `ninefold serve`: runs until SIGINT or SIGTERM, then closes requests and the database. */
export async function serve(
  args: string[],
  terminal: Terminal,
  signals: NodeJS.EventEmitter = process,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: ReturnType<typeof parseServeArgs>;
  try {
    parsed = parseServeArgs(args);
  } catch (error) {
    terminal.err(`ninefold serve: ${(error as Error).message}\n\n${SERVE_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(SERVE_HELP);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold serve: give exactly one SPEC file.\n\n${SERVE_HELP}`);
    return 2;
  }
  const configured = await serveConfig(parsed.values, env);
  if (!configured.ok) {
    terminal.err(`ninefold serve: ${configured.message}\n`);
    return 2;
  }
  const config = configured.config;
  const numbers: Record<string, number | undefined> = {};
  const numberTexts = {
    port: config.port,
    seed: parsed.values.seed,
    'body-limit': config.bodyLimit,
    'metrics-port': config.metricsPort,
    'drain-seconds': config.drainSeconds,
    'audit-days': config.auditDays,
  };
  for (const [name, text] of Object.entries(numberTexts)) {
    if (text === undefined) continue;
    if (!/^\d{1,10}$/.test(text)) {
      terminal.err(`ninefold serve: --${name} must be a whole number, not "${text}".\n`);
      return 2;
    }
    numbers[name] = Number(text);
  }
  for (const name of ['port', 'metrics-port']) {
    if ((numbers[name] ?? 0) > 65535) {
      terminal.err(`ninefold serve: --${name} must be at most 65535.\n`);
      return 2;
    }
  }
  const logLevel = config.logLevel ?? (terminal.isTTY ? 'warn' : 'info');
  if (!isLogLevel(logLevel)) {
    terminal.err(
      `ninefold serve: --log-level is one of ${LOG_LEVELS.join(', ')}, not "${logLevel.slice(0, 20)}".\n`,
    );
    return 2;
  }
  if (config.dbDirect !== undefined && !/^postgres(ql)?:\/\//.test(config.dbDirect)) {
    terminal.err('ninefold serve: --db-direct-url takes a postgres:// URL.\n');
    return 2;
  }
  const dbProblem = databaseProblem(config.db);
  if (dbProblem) {
    terminal.err(`ninefold serve: ${dbProblem}\n`);
    return 2;
  }

  const loaded = await loadSpecFile(file, 'serve', terminal, {
    root: parsed.values.root,
    clientId: parsed.values['client-id'],
    signInScheme: parsed.values['sign-in'],
  });
  if (!loaded.ok) return loaded.exitCode;
  const model = loaded.result.model;
  const ui = await extensionFile(file, parsed.values.ui);
  if (!ui.ok) {
    terminal.err(`ninefold serve: ${ui.message}\n`);
    return 2;
  }
  const users: UserRequest[] = [];
  for (const text of parsed.values.user ?? []) {
    const user = parseUserOption(text, model);
    if (!user.ok) {
      terminal.err(`ninefold serve: ${user.message}\n`);
      return 2;
    }
    users.push(user.user);
  }
  const database = databaseUrl(config.db, file);
  const withClient = !parsed.values['no-client'];
  const stop = listenForStop(signals);
  const log = (line: string) => terminal.err(`${line}\n`);
  for (const warning of config.warnings) log(`warning: ${warning}`);
  try {
    let clientDir: string | undefined;
    if (withClient) {
      try {
        clientDir = await ensureRuntime({ log, allowPrevious: true, extension: ui.file });
      } catch (error) {
        terminal.err(`ninefold serve: ${(error as Error).message}\n`);
        return 1;
      }
    }
    if (stop.received) return 0;
    const started = await startServer({
      model,
      specFile: file,
      db: database,
      ...(config.dbDirect === undefined ? {} : { dbDirect: config.dbDirect }),
      host: config.host,
      port: numbers.port,
      seed: numbers.seed,
      allowDestructive: parsed.values['allow-destructive'],
      bodyLimit: numbers['body-limit'],
      clientDir,
      users,
      log,
      secrets: {
        ...(config.secret === undefined ? {} : { current: config.secret }),
        ...(config.previousSecret === undefined ? {} : { previous: config.previousSecret }),
      },
      ...(config.demoPassword === undefined ? {} : { demoPassword: config.demoPassword }),
      allowedOrigins: config.allowedOrigins,
      liveUpdates: config.liveUpdates,
      logLevel,
      audit: config.audit,
      ...(numbers['audit-days'] === undefined ? {} : { auditDays: numbers['audit-days'] }),
      ...(config.smtp === undefined ? {} : { smtp: config.smtp }),
      ...(config.publicUrl === undefined ? {} : { publicUrl: config.publicUrl }),
      // A test's terminal collects them; the process's standard output is written to in chunks.
      ...(terminal.isProcessOutput
        ? {}
        : { logDestination: { write: (line: string) => terminal.out(line) } }),
      ...(numbers['drain-seconds'] === undefined ? {} : { drainMs: numbers['drain-seconds'] * 1000 }),
      ...(config.metricsToken !== undefined || numbers['metrics-port'] !== undefined
        ? {
            metrics: {
              ...(config.metricsToken === undefined ? {} : { token: config.metricsToken }),
              ...(numbers['metrics-port'] === undefined ? {} : { port: numbers['metrics-port'] }),
            },
          }
        : {}),
    });
    if (!started.ok) {
      terminal.err(`ninefold serve: ${started.message}\n`);
      return 1;
    }
    const { server } = started;
    const title = model.title ?? 'an untitled specification';
    const where = withClient
      ? `  ${server.url}  (the client)\n  ${server.url}api  (the calls; the model at /spec.json)\n`
      : `  ${server.url}  (calls under /api, the model at /spec.json)\n`;
    const metricsAt = [
      ...(server.metricsUrl ? [`  ${server.metricsUrl}  (metrics)\n`] : []),
      ...(config.metricsToken ? [`  ${server.url}metrics  (metrics, with the token)\n`] : []),
    ].join('');
    // One write, so that whoever waits for the URL (a test, a script) also has the users and secrets.
    terminal.out(
      `${paint(terminal, 'bold', `Ninefold prototype API for ${title}`)} on ${describeDatabase(database)}\n${where}${metricsAt}${sessionsLine(server.secretSource, model)}${usersBanner(server.users, model)}`,
    );
    const signal = await stop.wait();
    terminal.err(`\n${signal}: finishing requests in flight and closing the database…\n`);
    await server.close();
    terminal.err('stopped.\n');
    return 0;
  } finally {
    stop.dispose();
  }
}

/** How long sessions last, for a specification whose people sign in with tokens this API signs. */
function sessionsLine(source: SecretSource, model: Model): string {
  const kind = model.roles.shown ? model.roles.signIn.kind : 'none';
  if (kind !== 'password') return '';
  switch (source) {
    case 'configured':
      return '  sessions are signed with the configured secret: they survive restarts, on every node\n';
    case 'database':
      return '  sessions are signed with a secret kept in the database: every node and restart accepts them\n';
    case 'process':
      return '  sessions end when this process stops: set NINEFOLD_SECRET (or --secret-file) to keep them\n';
    default:
      return exhaustiveSwitchError(source);
  }
}

function parseServeArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      db: { type: 'string' },
      'db-direct-url': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      'allow-destructive': { type: 'boolean', default: false },
      'body-limit': { type: 'string' },
      'no-client': { type: 'boolean', default: false },
      user: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h', default: false },
      root: { type: 'string' },
      'client-id': { type: 'string' },
      'sign-in': { type: 'string' },
      ui: { type: 'string' },
      'secret-file': { type: 'string' },
      'previous-secret-file': { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'no-live-updates': { type: 'boolean', default: false },
      'log-level': { type: 'string' },
      'metrics-port': { type: 'string' },
      'metrics-token-file': { type: 'string' },
      'drain-seconds': { type: 'string' },
      'no-audit': { type: 'boolean', default: false },
      'audit-days': { type: 'string' },
      smtp: { type: 'string' },
      'public-url': { type: 'string' },
    },
  });
}
