// Servers a benchmark starts as child processes: started with their output kept, waited for, signed in
// to, and stopped on every way out (support/clean-up.ts).
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { children, cleanups } from './clean-up';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Starts a child, keeps the tail of its output, and registers its stop (SIGTERM, then SIGKILL). */
export function startChild(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => children.delete(child));
  return { child, output: () => tail };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export function waitFor<T>(
  name: string,
  child: ChildProcess,
  output: () => string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = async () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(
          new Error(
            `${name} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output()}`,
          ),
        );
        return;
      }
      const value = await probe().catch(() => undefined);
      if (value !== undefined) resolve(value);
      else if (Date.now() - started > timeoutMs)
        reject(new Error(`${name} was not ready after ${timeoutMs} ms:\n${output()}`));
      else setTimeout(tick, 100);
    };
    tick();
  });
}

/**
 * The demo's API answers only a signed-in person, so our side carries the owner's bearer token, which every
 * request then verifies; json-server has no sign-in and checks nothing.
 */
export async function signInAsOwner(
  name: string,
  url: string,
  output: () => string,
): Promise<Record<string, string>> {
  const password = /(?:demo password|owner@demo\.test \(owner\), password): (\S+)/.exec(output())?.[1];
  if (!password) throw new Error(`${name} printed no demo password:\n${output()}`);
  const answer = await fetch(`${url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@demo.test', password }),
  });
  if (!answer.ok) throw new Error(`${name}: signing in as the owner answered ${answer.status}`);
  const { token } = (await answer.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

/**
 * `ninefold serve SPEC --db DB --no-client` with `extra` flags, waited for until it prints its URL, and
 * stopped at the end whatever happens.
 */
export async function startServe(
  spec: string,
  db: string,
  extra: string[] = [],
): Promise<{ url: string; output: () => string; child: ChildProcess; stop(): Promise<void> }> {
  const cli = fileURLToPath(new URL('../../bin/ninefold.js', import.meta.url));
  const { child, output } = startChild([
    cli,
    'serve',
    spec,
    '--db',
    db,
    '--port',
    '0',
    '--no-client',
    ...extra,
  ]);
  cleanups.push({ name: 'stop ninefold serve', run: () => stopChild(child) });
  const url = await waitFor(
    'ninefold serve',
    child,
    output,
    async () => /(http:\/\/127\.0\.0\.1:\d+)\//.exec(output())?.[1],
    600_000,
  );
  return { url, output, child, stop: () => stopChild(child) };
}

/**
 * `ninefold serve SPEC --db DB` without the client, its owner signed in: the server's URL, the owner's
 * headers and its process, stopped at the end whatever happens. The demo user's password is printed
 * only when the user is made, so a database is served once this way.
 */
export async function serveForBench(
  spec: string,
  db: string,
): Promise<{ url: string; headers: Record<string, string>; child: ChildProcess; stop(): Promise<void> }> {
  const { url, output, child, stop } = await startServe(spec, db, ['--user', 'owner@demo.test:owner']);
  return { url, headers: await signInAsOwner('ninefold serve', url, output), child, stop };
}

/** Runs `work` on one connection to the PostgreSQL at `url`, closed after it whatever happens. */
export async function withPostgres<T>(
  url: string,
  work: (query: (text: string) => Promise<unknown>) => Promise<T>,
): Promise<T> {
  const { Client } = createRequire(import.meta.url)('pg') as {
    Client: new (config: {
      connectionString: string;
    }) => {
      connect(): Promise<void>;
      query(text: string): Promise<unknown>;
      end(): Promise<void>;
    };
  };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work((text) => client.query(text));
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL database for one run, dropped at the end whatever happens: its URL. */
export async function freshPostgres(adminUrl: string, label: string): Promise<string> {
  const name = `ninefold_${label}_${process.pid}_${Date.now()}`;
  const admin = (text: string) =>
    withPostgres(adminUrl, async (query) => {
      await query(text);
    });
  await admin(`CREATE DATABASE "${name}"`);
  cleanups.push({
    name: `drop database ${name}`,
    run: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
