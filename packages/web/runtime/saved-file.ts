import { readFile, stat } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import type { Plugin } from 'vite';

export interface SavedFileOptions {
  /** How long an empty file is given for its write to land; a file still empty then is empty. */
  waitMs?: number;
  pollMs?: number;
}

/**
 * Waits while a file is empty and was not written since: a save (an editor's, `writeFileSync`) truncates
 * the file before it writes, and on a busy machine the watcher can report the change, and the bundler read
 * it, in between. Chokidar then takes the write, within its 50 ms of quiet, as the same change, so the empty
 * read would be all the page ever gets: a module that exports nothing, whose extension silently vanishes.
 * Resolves once the file has content or a newer write; a file left empty for `waitMs` is taken as empty.
 *
 * @example
 * await savedFileReady('/work/shop/shop.ui.tsx'); // at once when it has content
 */
export async function savedFileReady(file: string, options: SavedFileOptions = {}): Promise<void> {
  const { waitMs = 500, pollMs = 10 } = options;
  const first = await stat(file).catch(() => undefined);
  if (first === undefined || first.size > 0) return;
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const now = await stat(file).catch(() => undefined);
    if (now === undefined || now.size > 0 || now.mtimeMs !== first.mtimeMs) return;
  }
}

/** The file's text once `savedFileReady` says it is saved. */
export async function readSavedFile(file: string, options: SavedFileOptions = {}): Promise<string> {
  await savedFileReady(file, options);
  return readFile(file, 'utf8');
}

/** The scripts of a team's folder, which `dev` serves from their source as they are edited. */
const SCRIPT = /\.[cm]?[jt]sx?$/;

/**
 * In `dev`, a module of the team's folder (the extension and what it imports) is read only once its save
 * has landed (`savedFileReady`): the bundler's own read of a file caught between an editor's truncation
 * and its write would serve the page an empty module, and no later change would replace it. The file is
 * still read by the bundler itself, under its checks of what may be served.
 */
export function savedModulesPlugin(extensionFile: string | undefined): Plugin {
  const folder = extensionFile === undefined ? undefined : dirname(extensionFile);
  return {
    name: 'ninefold-saved-modules',
    apply: 'serve',
    async load(id) {
      if (folder === undefined || id.includes('?') || !SCRIPT.test(id)) return undefined;
      const path = relative(folder, id);
      if (path.startsWith('..') || path.split(sep).includes('node_modules')) return undefined;
      await savedFileReady(id);
      return undefined;
    },
  };
}
