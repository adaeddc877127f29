import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

// Starting `ninefold serve` as a real process, and talking to it as a client would.

export const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'bin/ninefold.js');

export interface Running {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `ninefold serve` as a real process and waits for the URL it prints when ready. */
export function start(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Running | { failed: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, 'serve', ...args, '--port', '0'], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const url = stdout.match(/(http:\/\/127\.0\.0\.1:\d+)\//)?.[1];
      if (url) resolve({ child, url, stdout: () => stdout, stderr: () => stderr, exited });
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    exited.then((code) => resolve({ failed: code, stdout, stderr }));
  });
}

export function tempSpec(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-serve-'));
  const file = join(dir, 'shop.yaml');
  writeFileSync(file, text);
  return file;
}

/** What the tests read from the API's answers. */
export interface Answer {
  total?: number;
  items?: Array<Record<string, unknown>>;
  [field: string]: unknown;
}
export async function getJson(url: string, init?: RequestInit): Promise<Answer> {
  return (await (await fetch(url, init)).json()) as Answer;
}

/** The password `serve` printed for a user it made at start (it prints it once, on standard output). */
export async function printedPassword(server: Running, email: string): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const own = new RegExp(`${email.replace('.', '\\.')} \\([a-z]+\\), password: (\\S+)`).exec(
      server.stdout(),
    );
    const demo = /demo password: (\S+)/.exec(server.stdout());
    const found = email.endsWith('@demo.test') ? demo?.[1] : own?.[1];
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no password printed for ${email}: ${server.stdout()}`);
}

/** Signs in through the API's own sign-in call; answers the headers later calls carry. */
export async function signIn(
  server: Running,
  email: string,
  password: string,
): Promise<Record<string, string>> {
  const answer = await fetch(`${server.url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}`);
  const { token } = (await answer.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}
