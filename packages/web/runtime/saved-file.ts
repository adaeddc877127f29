import { stat } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { isTeamFile } from './extension-module';

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

/** The team's scripts, which `dev` serves from their source as they are edited. */
const SCRIPT = /\.[cm]?[jt]sx?$/;

/**
 * In `dev` with an extension, a module of the team's (the extension and what it imports: `isTeamFile`, as
 * dev's watcher tells them) is read only once its save has landed (`savedFileReady`): the bundler's own
 * read of a file caught between an editor's truncation and its write would serve the page an empty module,
 * and no later change would replace it. The file is still read by the bundler itself, under its checks of
 * what may be served.
 */
export function savedModulesPlugin(extensionFile: string | undefined): Plugin {
  return {
    name: 'ninefold-saved-modules',
    apply: 'serve',
    async load(id) {
      if (extensionFile === undefined || id.includes('?') || !SCRIPT.test(id) || !isTeamFile(id))
        return undefined;
      await savedFileReady(id);
      return undefined;
    },
  };
}
