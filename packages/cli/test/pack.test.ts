import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { root } from './support/serve-process';

// The command as someone outside the team gets it: `npm pack` (scripts/pack.mjs), installed from the
// tarball into an empty folder outside the repository with nothing but the npm registry, then `check`,
// `serve` and `dev` run there on a specification of that folder, each as a real process.

const run = promisify(execFile);
let folder = '';
let bin = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ninefold-installed-'));
  const { stdout } = await run(process.execPath, [join(root, 'scripts/pack.mjs'), folder], { cwd: root });
  const tarball = stdout.trim().split('\n').at(-1) as string;
  expect(existsSync(tarball), tarball).toBe(true);
  writeFileSync(join(folder, 'package.json'), '{ "private": true }\n');
  // The npm cache of this machine's own install serves what it holds; anything else comes from the registry.
  // Install scripts are skipped and the SQLite driver's native part copied from this checkout's install:
  // compiling it is better-sqlite3's own step (the repository's `npm ci` does it on every fresh machine),
  // and here it was most of a minute of the suite's CPU.
  await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], {
    cwd: folder,
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  const driver = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
  mkdirSync(dirname(join(folder, driver)), { recursive: true });
  copyFileSync(join(root, driver), join(folder, driver));
  bin = join(folder, 'node_modules/.bin/ninefold');
  copyFileSync(join(root, 'examples/shop.md'), join(folder, 'shop.md'));
}, 480_000);

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Starts the installed command and waits for the address it prints when ready. */
function started(args: string[]): Promise<{ url: string; output: () => string }> {
  const child = spawn(bin, args, {
    cwd: folder,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const url = output.match(/(http:\/\/127\.0\.0\.1:\d+)\//)?.[1];
      if (url) resolve({ url, output: () => output });
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) =>
      reject(new Error(`${args[0]} ended (${code}) before it listened:\n${output}`)),
    );
  });
}

describe('the packed command, installed in an empty folder', () => {
  it('is installed from the tarball alone, outside the repository', () => {
    expect(existsSync(bin)).toBe(true);
    expect(folder.startsWith(root)).toBe(false);
    // Its own copy, not a link back into this checkout.
    expect(existsSync(join(folder, 'node_modules/ninefold/packages/cli/dist/installed/main.js'))).toBe(true);
    expect(existsSync(join(folder, 'node_modules/ninefold/packages/web/src'))).toBe(false);
  });

  it('checks a specification', async () => {
    const { stdout } = await run(bin, ['check', 'shop.md'], {
      cwd: folder,
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(stdout).toMatch(/coverage: 9 of 9 points shown/);
  }, 60_000);

  it('serves the client and its API on an embedded database', async () => {
    const server = await started([
      'serve',
      'shop.md',
      '--port',
      '0',
      '--db',
      join(folder, 'shop.db'),
      '--seed',
      '5',
    ]);
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root">/);
    const spec = (await (await fetch(`${server.url}/spec.json`)).json()) as {
      model: { product: { shown: boolean } };
    };
    expect(spec.model.product.shown).toBe(true);
    // Signed in as the demo's owner, with the password it printed once: the seeded records are there.
    let password: string | undefined;
    for (let waited = 0; password === undefined && waited < 10_000; waited += 100) {
      password = /demo password: (\S+)/.exec(server.output())?.[1];
      if (password === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(password, server.output()).toBeDefined();
    const signedIn = await fetch(`${server.url}/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@demo.test', password }),
    });
    expect(signedIn.status).toBe(200);
    const { token } = (await signedIn.json()) as { token: string };
    const products = await fetch(`${server.url}/api/products`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(products.status).toBe(200);
    expect(((await products.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
  }, 120_000);

  it('runs the dev server on the same specification', async () => {
    const dev = await started(['dev', 'shop.md', '--port', '0']);
    const page = await fetch(`${dev.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root">/);
  }, 120_000);
});
