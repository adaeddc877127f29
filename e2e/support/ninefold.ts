import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface NinefoldProcess {
  /** The URL the command printed when it was ready, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  /** A scratch directory for this process (its database lives here), removed on stop. */
  dir: string;
  output(): string;
  /** SIGTERM, then waits for a clean exit and returns its code. */
  stop(): Promise<number | null>;
}

/**
 * Runs `ninefold serve SPEC` (or another command) as a real process on 127.0.0.1, with a temporary
 * database and a free port, and resolves once it prints its URL. The first run in a fresh clone also
 * builds the web runtime, hence the long wait.
 */
export async function startNinefold(
  command: 'serve' | 'dev',
  spec: string,
  extra: string[] = [],
  { timeoutMs = 240_000 }: { timeoutMs?: number } = {},
): Promise<NinefoldProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-e2e-'));
  const args = [join(ROOT, 'bin/ninefold.js'), command, resolve(ROOT, spec), '--port', '0'];
  if (command === 'serve' || !extra.includes('--api')) args.push('--db', join(dir, 'e2e.db'));
  args.push(...extra);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ninefold ${command} printed no URL within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
      if (match) {
        clearTimeout(timer);
        clearInterval(poll);
        resolveUrl(match[0]);
      }
    }, 50);
    child.once('exit', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`ninefold ${command} exited with ${code} before it was ready:\n${output}`));
    });
  });
  return {
    url,
    dir,
    output: () => output,
    stop: () => stopProcess(child, dir),
  };
}

async function stopProcess(child: ChildProcess, dir: string): Promise<number | null> {
  const exited = new Promise<number | null>((resolveExit) => {
    if (child.exitCode !== null) resolveExit(child.exitCode);
    else child.once('exit', (code) => resolveExit(code));
  });
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  rmSync(dir, { recursive: true, force: true });
  return code;
}
