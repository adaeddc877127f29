// `ninefold serve` behind PgBouncer in transaction mode (Debian's pgbouncer, started here on a free port
// in front of the machine's PostgreSQL), as many deployments run it. There a LISTEN and a session's
// advisory lock last one transaction: live updates, the read cache and the recovery of a crashed node's
// claims would go silently wrong. Without a direct connection for listening, serve refuses to start and
// says why; with one (--db-direct-url), every write, replay, event and audit entry holds through the pooler.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsSaid } from '../../../test/support/points-said';
import {
  createTemporaryDatabase,
  postgresUnavailable,
  type TemporaryDatabase,
} from '../../server/test/support/databases';
import { start, tempSpec } from './support/serve-process';

const PGBOUNCER = '/usr/sbin/pgbouncer';
const pgReason = await postgresUnavailable();
const missing = pgReason ?? (existsSync(PGBOUNCER) ? undefined : `${PGBOUNCER} is not installed`);
if (missing && process.env.CI === 'true')
  throw new Error(`CI must run the tests behind PgBouncer: ${missing}`);

const spec = tempSpec(
  pointsSaid(`title: Field notes
entities:
  Note:
    key: id
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
`),
);

let bouncer: ChildProcess | undefined;
let database: TemporaryDatabase | undefined;
let dir: string;
let pooled: string;

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

beforeAll(async () => {
  if (missing) return;
  database = await createTemporaryDatabase('bouncer');
  dir = mkdtempSync(join(tmpdir(), 'ninefold-pgbouncer-'));
  // PgBouncer will not run as root: it drops to postgres, who must be able to write its log here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      '* = host=127.0.0.1 port=5432',
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 20',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,application_name',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const root = process.getuid?.() === 0;
  bouncer = spawn(PGBOUNCER, [...(root ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], {
    stdio: 'ignore',
  });
  for (let waited = 0; !(await reachable(port)); waited += 100) {
    if (waited > 10_000) throw new Error('PgBouncer did not start within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const url = new URL(database.url);
  url.port = String(port);
  pooled = url.toString();
}, 30_000);

afterAll(async () => {
  bouncer?.kill('SIGTERM');
  await database?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)(
  `ninefold serve behind PgBouncer in transaction mode${missing ? ` — skipped: ${missing}` : ''}`,
  () => {
    it('refuses to start without a direct connection for listening, and says what to give', async () => {
      const server = await start([spec, '--db', pooled, '--no-client']);
      expect('failed' in server && server.failed).toBe(1);
      const said = 'failed' in server ? server.stderr : '';
      expect(said).toContain('connection pooler in transaction mode (PgBouncer)');
      expect(said).toContain('--db-direct-url');
      // The URL's password would be repeated nowhere; here it has none, and the host is named.
      expect(said).toMatch(/PostgreSQL \(127\.0\.0\.1:\d+\//);
    }, 60_000);

    it('serves through the pooler with --db-direct-url: writes once, replays, streams changes and audits them', async () => {
      const server = await start([
        spec,
        '--db',
        pooled,
        '--db-direct-url',
        database?.url ?? '',
        '--no-client',
      ]);
      if (!('url' in server)) throw new Error(`serve did not start: ${server.stderr}`);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const events = await fetch(`${server.url}/api/_events`);
      const reader = events.body?.getReader();
      const create = () =>
        fetch(`${server.url}/api/notes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': 'through-the-pooler-1' },
          body: JSON.stringify({ title: 'Heard through the pooler' }),
        });
      const first = await create();
      expect(first.status).toBe(201);
      const again = await create();
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotency-replayed')).toBe('true');
      // The change reaches the stream, as a notification sent through the pool to the direct listener.
      let streamed = '';
      const deadline = Date.now() + 10_000;
      while (!streamed.includes('Heard through the pooler') && Date.now() < deadline) {
        const chunk = await Promise.race([
          reader?.read(),
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000)),
        ]);
        if (chunk?.value) streamed += new TextDecoder().decode(chunk.value);
      }
      expect(streamed).toContain('Heard through the pooler');
      await reader?.cancel();
      const listed = (await (await fetch(`${server.url}/api/notes`)).json()) as { items: unknown[] };
      expect(listed.items).toHaveLength(1);
      const audit = (await (await fetch(`${server.url}/api/_audit`)).json()) as { items: unknown[] };
      expect(audit.items).toHaveLength(1);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }, 60_000);
  },
);
