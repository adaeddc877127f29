import type { ChildProcess } from 'node:child_process';

/**
 * What a benchmark started (servers, temporary directories, browsers), undone in reverse order on
 * success, on failure and on Ctrl-C alike. Importing this module installs the signal handlers.
 */
export const cleanups: Array<{ name: string; run: () => Promise<void> | void }> = [];

/** Child processes still running, killed outright if the process exits without cleaning up. */
export const children = new Set<ChildProcess>();

export async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    if (!step) break;
    try {
      await step.run();
    } catch (error) {
      console.error(`clean-up "${step.name}" failed: ${(error as Error).message}`);
    }
  }
}

// Last resort if the process exits without the async clean-up (an uncaught error in a callback).
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.pid) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up…`);
    cleanUp().finally(() => process.exit(130));
  });
}
