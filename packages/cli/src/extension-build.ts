import { readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { DevIssue } from '@ninefold/server';
import { BUILD_DIR, problemOf } from '@ninefold/web/extension-module';
import { EXTENSION_FILES, ensureRuntime, runtimeDir } from '@ninefold/web/runtime';
import { type FileWatcher, watchFile } from './watch-file';

/** A build of the client with the team's extension module, or why it failed and what is served instead. */
export type ClientBuild =
  | { ok: true; dir: string }
  | {
      ok: false;
      /** What is served meanwhile: the extension's previous build, else the client without it. */
      dir: string;
      issue: DevIssue;
    };

/**
 * Builds the client with an extension for `dev`: a build that fails does not stop the server. The page
 * shows the failure with its `file:line:column` (as a specification's issue), and the extension's
 * previous build keeps running. Without a previous build, the client runs without the extension.
 */
export async function buildForDev(
  extension: string,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<ClientBuild> {
  try {
    return { ok: true, dir: await ensureRuntime({ log, extension, ...(signal ? { signal } : {}) }) };
  } catch (error) {
    // Stopped: the command is closing, and no one will see the build's outcome.
    if (signal?.aborted) throw error;
    const issue = buildIssue(error as Error, extension);
    const previous = runtimeDir(extension);
    const hasPrevious = await stat(join(previous, 'index.html')).then(
      () => true,
      () => false,
    );
    return {
      ok: false,
      dir: hasPrevious ? previous : await ensureRuntime({ log, allowPrevious: true }),
      issue,
    };
  }
}

/**
 * A failed build as an issue: its first `file:line:column` that is the team's (Vite and TypeScript name
 * the place), and the words of the bundler's message, without its stack or the quoted source.
 */
export function buildIssue(error: Error, extension: string): DevIssue {
  const problem = problemOf(error, extension, BUILD_DIR);
  const where = relative(process.cwd(), problem.file);
  const file = where.startsWith('..') ? problem.file : where;
  return {
    severity: 'error',
    code: 'extension-build',
    message: `The extension module could not be built: ${problem.message}`,
    source: problem.line === undefined ? file : `${file}:${problem.line}:${problem.column ?? 1}`,
  };
}

/**
 * Calls `onChange` when the extension module or a file it imported in its last build changes: the
 * files to watch are read again after each build, so a new import is watched from then on.
 */
export function watchExtension(extension: string, onChange: () => Promise<void>): { close(): Promise<void> } {
  let watchers: FileWatcher[] = [];
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  const rewatch = async () => {
    for (const watcher of watchers) watcher.close();
    if (closed) return;
    const files = new Set([extension, ...(await builtFiles(extension))]);
    watchers = [...files].map((file) =>
      watchFile(file, () => {
        queue = queue.then(async () => {
          if (closed) return;
          await onChange();
          await rewatch();
        });
      }),
    );
  };
  const ready = rewatch();
  return {
    async close() {
      closed = true;
      await ready;
      for (const watcher of watchers) watcher.close();
      await queue;
    },
  };
}

async function builtFiles(extension: string): Promise<string[]> {
  try {
    return JSON.parse(await readFile(join(runtimeDir(extension), EXTENSION_FILES), 'utf8')) as string[];
  } catch {
    return [];
  }
}
