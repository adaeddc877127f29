import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeFolderLock } from './folder-lock';

/** A folder for the bundler's prepared packages, held until `release`. */
export interface DevCache {
  dir: string;
  release(): Promise<void>;
}

/**
 * The folder where the bundler keeps the packages it prepares for `ninefold dev`: the shared one, kept
 * between runs so that the next start is quick, for one dev server at a time (the lock of the builds,
 * beside it). A second server at the same time gets a folder of its own for its life. Two servers
 * sharing one folder prepare each their own set of packages (each team module imports its own) and
 * write over each other's: the other's page then asks for a package that is no longer there, and the
 * bundler reloads it, losing what was typed.
 */
export async function claimDevCache(shared: string): Promise<DevCache> {
  const lock = `${shared}.lock`;
  // `cleared`: a lock left by a dev server that was killed, removed; tried once more.
  for (let attempt = 0; attempt < 2; attempt++) {
    const taken = await takeFolderLock(lock);
    if (taken === 'taken') return { dir: shared, release: () => rm(lock, { recursive: true, force: true }) };
    if (taken === 'busy') break;
  }
  const own = await mkdtemp(join(tmpdir(), 'ninefold-dev-packages-'));
  return { dir: own, release: () => rm(own, { recursive: true, force: true }) };
}
