// Real API servers from npm, driven as real processes on temporary PostgreSQL databases (issue 39): a mock
// neither stores, nor refuses, nor answers slowly, so only a real server shows a duplicate write, a bulk
// path or a server's own error shape. Each is installed on first use into e2e/.servers/<name>/
// (gitignored), at exact versions that run on Node 20, never into the project's own dependencies.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installFolder } from '../../bench/support/install-once';
import { createTemporaryDatabase } from '../../packages/server/test/support/databases';
import { ROOT } from './ninefold';
import { freePort } from './prism';
import { startWatched } from './watched-process';

const INSTALLS = join(ROOT, 'e2e/.servers');

export type ServerName = 'platformatic' | 'directus';

/** What a server's folder installs. */
interface Install {
  /**
   * Files written over the install, by path in the folder: a native module the server imports but the
   * tests never run, in place of its build from source.
   */
  stubs?: Record<string, string>;
  /** Exact versions: the newest releases whose engines allow Node 20 (Platformatic 3 and Directus 11.4 on need Node 22). */
  dependencies: Record<string, string>;
  /**
   * The only packages whose install scripts run, when not all of them should. The servers' trees carry
   * native drivers they do not use here (SQLite's, Oracle's), and this registry-only machine reaches no
   * prebuilt binaries, so each was compiled from source in every CI run: sqlite3 for Directus 52 s of
   * CPU, better-sqlite3 for Platformatic about as much. Both servers run on PostgreSQL instead.
   */
  scriptsOf?: string[];
}

/**
 * isolated-vm's native module, which this registry-only machine reaches no prebuilt binary of: its build
 * from source was 110 CPU-s of C++ in every CI run, a tenth of the suite's. Directus imports it at start
 * and runs it only for sandboxed extensions and the flows' script operation, which the tests never use;
 * `require('./out/isolated_vm')` finds this before the `.node` it would have built.
 */
const ISOLATED_VM_STUB = `// Written by Ninefold's e2e/support/real-servers.ts in place of isolated-vm's native build.
const unavailable = () => {
  throw new Error('isolated-vm is not built in this test install: no sandboxed code runs here');
};
exports.ivm = new Proxy({}, {
  get: (_, name) => (typeof name === 'string' && name !== 'then' && name !== '__esModule' ? unavailable : undefined),
});
`;

const INSTALLS_OF: Record<ServerName, Install> = {
  platformatic: { dependencies: { '@platformatic/db': '2.61.0' }, scriptsOf: [] },
  // Directus runs on PostgreSQL here (its `pg` driver is plain JavaScript), and argon2 and sharp pick their
  // prebuilt binaries in their install scripts.
  directus: {
    dependencies: { directus: '11.3.5' },
    scriptsOf: ['argon2', 'sharp'],
    stubs: { 'node_modules/isolated-vm/out/isolated_vm.js': ISOLATED_VM_STUB },
  },
};

/** A real API server running on 127.0.0.1 with a database of its own, removed on stop. */
export interface RealServer {
  /** `http://127.0.0.1:41234`, with no trailing slash. */
  url: string;
  /** Its OpenAPI description, as the server itself publishes it, written to a file. */
  document: string;
  /** Headers that let the test read and write through the server's own API (an admin's token). */
  adminHeaders: Record<string, string>;
  output(): string;
  stop(): Promise<void>;
}

/** Installs a server's packages once per checkout, with their install scripts (native SQLite drivers). */
export async function installServer(name: ServerName): Promise<string> {
  const dir = join(INSTALLS, name);
  const manifest = `${JSON.stringify(
    {
      name: `ninefold-e2e-server-${name}`,
      private: true,
      description: 'Installed by e2e/support/real-servers.ts for the end-to-end tests; not part of Ninefold.',
      dependencies: INSTALLS_OF[name].dependencies,
      ...(INSTALLS_OF[name].scriptsOf ? { installScriptsOf: INSTALLS_OF[name].scriptsOf } : {}),
    },
    null,
    2,
  )}\n`;
  const { scriptsOf, stubs = {} } = INSTALLS_OF[name];
  await installFolder({
    dir,
    manifest,
    what: `the ${name} server`,
    run: async (npm) => {
      await npm(['install', '--no-audit', '--no-fund', ...(scriptsOf ? ['--ignore-scripts'] : [])], dir);
      if (scriptsOf?.length) await npm(['rebuild', ...scriptsOf], dir);
    },
  });
  // Written each time, so that a stub's change reaches an install already there.
  for (const [path, text] of Object.entries(stubs)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The API's own answer, as JSON, failing the test with the body when the status is not the one expected. */
export async function api<T>(
  server: Pick<RealServer, 'url' | 'adminHeaders'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...server.adminHeaders,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/**
 * Platformatic DB (a database-first REST server) on a new PostgreSQL database: suppliers and their parts,
 * with a foreign key, NOT NULL columns and defaults. Its description is the one it serves.
 */
export async function startPlatformatic(): Promise<RealServer> {
  const installed = await installServer('platformatic');
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-platformatic-'));
  const database = await createTemporaryDatabase('platformatic');
  const removeAll = async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  };
  mkdirSync(join(dir, 'migrations'));
  writeFileSync(
    join(dir, 'migrations/001.do.sql'),
    [
      'CREATE TABLE suppliers (id SERIAL PRIMARY KEY, name TEXT NOT NULL, email TEXT, rating INTEGER);',
      'CREATE TABLE parts (id SERIAL PRIMARY KEY, supplier_id INTEGER NOT NULL REFERENCES suppliers(id),',
      '  name TEXT NOT NULL, price REAL NOT NULL CHECK (price >= 0), stock INTEGER NOT NULL DEFAULT 0);',
    ].join('\n'),
  );
  const port = await freePort();
  writeFileSync(
    join(dir, 'platformatic.json'),
    JSON.stringify({
      server: { hostname: '127.0.0.1', port, logger: { level: 'info' } },
      db: { connectionString: database.url, openapi: true, graphql: false },
      migrations: { dir: join(dir, 'migrations'), autoApply: true },
    }),
  );
  const process = await startWatched(join(installed, 'node_modules/.bin/plt-db'), ['start'], {
    cwd: dir,
    env: { ...globalThis.process.env, NO_COLOR: '1', PLT_DISABLE_TELEMETRY: '1' },
    ready: /Server listening at/,
    name: 'Platformatic DB',
    timeoutMs: 60_000,
  }).catch(async (error: Error) => {
    await removeAll();
    throw error;
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/documentation/json`);
  const document = join(dir, 'openapi.json');
  writeFileSync(document, await (await fetch(`${url}/documentation/json`)).text());
  return {
    url,
    document,
    adminHeaders: {},
    output: process.output,
    stop: async () => {
      await process.stop();
      await removeAll();
    },
  };
}

export const DIRECTUS_ADMIN = { email: 'admin@example.com', password: 'admin-password-e2e' };

/** How long a Directus access token lasts in the tests: a renewal is due within the first test. */
export const DIRECTUS_TOKEN_SECONDS = 12;
/** The admin's static token (Directus's ADMIN_TOKEN), which never ends, for the test's own calls. */
const DIRECTUS_ADMIN_TOKEN = 'e2e-admin-static-token-0123456789';

/**
 * Directus (a headless CMS) on a new PostgreSQL database, bootstrapped with an admin, and with two collections
 * made through its own API: events (a title that is required, a number of places at most 60, a date, a
 * flag) and signups, each for one event. Its description is the one it serves to the admin.
 */
export async function startDirectus(): Promise<RealServer> {
  const installed = await installServer('directus');
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-directus-'));
  mkdirSync(join(dir, 'uploads'));
  mkdirSync(join(dir, 'extensions'));
  const port = await freePort();
  const database = await createTemporaryDatabase('directus');
  const removeAll = async () => {
    rmSync(dir, { recursive: true, force: true });
    await database.drop();
  };
  const env = {
    ...globalThis.process.env,
    NO_COLOR: '1',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_CLIENT: 'pg',
    DB_CONNECTION_STRING: database.url,
    SECRET: 'e2e-secret-that-is-long-enough-for-directus-0123456789',
    ADMIN_EMAIL: DIRECTUS_ADMIN.email,
    ADMIN_PASSWORD: DIRECTUS_ADMIN.password,
    TELEMETRY: 'false',
    LOG_LEVEL: 'info',
    CACHE_ENABLED: 'false',
    RATE_LIMITER_ENABLED: 'false',
    // Directus answers 503 "Under pressure" while its event loop is busy, which a suite's two workers and
    // Chromium make it on a 2-core machine: a CI run's set-up call was refused so. What is tested is the
    // client on Directus's conventions, not Directus shedding load.
    PRESSURE_LIMITER_ENABLED: 'false',
    STORAGE_LOCAL_ROOT: join(dir, 'uploads'),
    EXTENSIONS_PATH: join(dir, 'extensions'),
    // Directus asks the registry whether it is out of date at every start.
    DIRECTUS_UPDATE_CHECK: 'false',
    // Tokens that end within a test, so that the client must renew them through the document's refresh
    // call; the test's own reads and writes use the admin's static token instead.
    ACCESS_TOKEN_TTL: `${DIRECTUS_TOKEN_SECONDS}s`,
    ADMIN_TOKEN: DIRECTUS_ADMIN_TOKEN,
  };
  const bin = join(installed, 'node_modules/.bin/directus');
  await new Promise<void>((resolve, reject) => {
    const bootstrap = spawn(bin, ['bootstrap'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    bootstrap.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    bootstrap.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    bootstrap.once('error', reject);
    bootstrap.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`directus bootstrap failed (exit ${code}):\n${output}`)),
    );
  }).catch(async (error: Error) => {
    await removeAll();
    throw error;
  });
  const process = await startWatched(bin, ['start'], {
    cwd: dir,
    env,
    ready: /Server started at|started at http/i,
    name: 'Directus',
    timeoutMs: 90_000,
  }).catch(async (error: Error) => {
    await removeAll();
    throw error;
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/server/ping`);
    const admin = { url, adminHeaders: { authorization: `Bearer ${DIRECTUS_ADMIN_TOKEN}` } };
    await makeDirectusCollections(admin);
    const document = join(dir, 'openapi.json');
    writeFileSync(document, JSON.stringify(await api(admin, 'GET', '/server/specs/oas')));
    return {
      url,
      document,
      adminHeaders: admin.adminHeaders,
      output: process.output,
      stop: async () => {
        await process.stop();
        await removeAll();
      },
    };
  } catch (error) {
    await process.stop();
    await removeAll();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${process.output()}`);
  }
}

async function makeDirectusCollections(admin: Pick<RealServer, 'url' | 'adminHeaders'>): Promise<void> {
  const key = {
    field: 'id',
    type: 'integer',
    meta: { hidden: true, readonly: true },
    schema: { is_primary_key: true, has_auto_increment: true },
  };
  await api(admin, 'POST', '/collections', {
    collection: 'events',
    meta: { note: 'Events people sign up for' },
    schema: {},
    fields: [
      key,
      { field: 'title', type: 'string', meta: { required: true }, schema: { is_nullable: false } },
      {
        field: 'places',
        type: 'integer',
        meta: {
          validation: { _and: [{ places: { _lte: 60 } }] },
          validation_message: 'An event has at most 60 places.',
        },
        schema: {},
      },
      { field: 'starts_on', type: 'date', meta: {}, schema: {} },
      { field: 'published', type: 'boolean', meta: {}, schema: { default_value: false } },
    ],
  });
  await api(admin, 'POST', '/collections', {
    collection: 'signups',
    meta: {},
    schema: {},
    fields: [
      key,
      { field: 'name', type: 'string', meta: { required: true }, schema: { is_nullable: false } },
      { field: 'email', type: 'string', meta: {}, schema: {} },
    ],
  });
  await api(admin, 'POST', '/fields/signups', {
    field: 'event',
    type: 'integer',
    meta: { interface: 'select-dropdown-m2o', special: ['m2o'] },
    schema: { foreign_key_table: 'events', foreign_key_column: 'id' },
  });
  await api(admin, 'POST', '/relations', {
    collection: 'signups',
    field: 'event',
    related_collection: 'events',
  });
}

/** Polls a URL until it answers 200, for at most 30 s. */
async function waitFor(url: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(url)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > until) throw new Error(`${url} did not answer within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
