import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startWatched } from './watched-process';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface NinefoldProcess {
  /** The URL the command printed when it was ready, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  /** A scratch directory for this process (its database lives here), removed on stop. */
  dir: string;
  output(): string;
  /** SIGTERM, then waits for a clean exit and returns its code. */
  stop(): Promise<number | string | null>;
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
  {
    timeoutMs = 240_000,
    live = false,
    env = {},
  }: { timeoutMs?: number; live?: boolean; env?: Record<string, string> } = {},
): Promise<NinefoldProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-e2e-'));
  const args = [join(ROOT, 'bin/ninefold.js'), command, resolve(ROOT, spec), '--port', '0'];
  // A test that serves a database of its own (a team's tables) names it; the others get a new one.
  if (!extra.includes('--db') && (command === 'serve' || !extra.includes('--api')))
    args.push('--db', join(dir, 'e2e.db'));
  args.push(...extra);
  const watched = await startWatched(process.execPath, args, {
    cwd: ROOT,
    // The events stream is a request that never ends, so Playwright's network idle, which many tests
    // wait for, would never come: live updates are off unless a test follows them.
    env: { ...process.env, NO_COLOR: '1', NINEFOLD_LIVE_UPDATES: live ? 'on' : 'off', ...env },
    ready: /http:\/\/127\.0\.0\.1:\d+\//,
    name: `ninefold ${command}`,
    timeoutMs,
  }).catch((error: Error) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    url: watched.ready[0],
    dir,
    output: watched.output,
    stop: async () => {
      const code = await watched.stop();
      rmSync(dir, { recursive: true, force: true });
      return code;
    },
  };
}
