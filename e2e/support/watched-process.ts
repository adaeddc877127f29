import { type ChildProcess, spawn } from 'node:child_process';

export interface WatchedProcess {
  child: ChildProcess;
  /** Everything the process printed so far, stdout and stderr together. */
  output(): string;
  /** What the readiness pattern matched. */
  ready: RegExpMatchArray;
  /** SIGTERM (SIGKILL after 15 s), then waits for the exit; resolves to the exit code or the signal's name. */
  stop(): Promise<number | string | null>;
}

/**
 * Starts a real process for a test and resolves once its output matches `ready` (a URL it prints, a
 * "listening" line), failing with everything it printed if it exits first or takes longer than
 * `timeoutMs`.
 */
export async function startWatched(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; ready: RegExp; name: string; timeoutMs: number },
): Promise<WatchedProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const ready = await new Promise<RegExpMatchArray>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} was not ready within ${options.timeoutMs} ms:\n${output}`));
    }, options.timeoutMs);
    const poll = setInterval(() => {
      const match = options.ready.exec(output);
      if (match) {
        clearTimeout(timer);
        clearInterval(poll);
        resolveReady(match);
      }
    }, 50);
    child.once('exit', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`${options.name} exited with ${code} before it was ready:\n${output}`));
    });
  });
  return { child, output: () => output, ready, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<number | string | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
  const exited = new Promise<number | string | null>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit(code ?? signal)),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const result = await exited;
  clearTimeout(timer);
  return result;
}
