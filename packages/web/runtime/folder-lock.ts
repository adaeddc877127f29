import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';

/** A lock folder without an owner file is a holder that crashed before writing it, once this old. */
const OWNERLESS_STALE_MS = 60_000;

/**
 * Takes a lock that is a folder (mkdir is atomic), with the holder's process and host written inside:
 * `taken`, `busy` when a live process holds it, or `cleared` when it removed a lock left by a process that
 * died (try again). The folder may hold the holder's work too; releasing is removing it.
 */
export async function takeFolderLock(lock: string): Promise<'taken' | 'busy' | 'cleared'> {
  const parent = dirname(lock);
  await mkdir(parent, { recursive: true });
  try {
    await mkdir(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (!(await lockIsStale(lock))) return 'busy';
    // Renamed away before removal, so that a waiter that judged the same lock stale removes only that one.
    const stale = join(parent, `stale-${basename(lock)}-${process.pid}-${Date.now()}`);
    await rename(lock, stale).catch(() => undefined);
    await rm(stale, { recursive: true, force: true });
    return 'cleared';
  }
  const owner = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  await writeFile(join(lock, 'owner.json'), JSON.stringify(owner));
  return 'taken';
}

async function lockIsStale(lock: string): Promise<boolean> {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(await readFile(join(lock, 'owner.json'), 'utf8'));
  } catch {
    const info = await stat(lock).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs > OWNERLESS_STALE_MS;
  }
  if (owner.host !== hostname() || typeof owner.pid !== 'number') return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
