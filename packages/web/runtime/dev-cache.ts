import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A folder for the bundler's prepared packages, held until `release`. */
export interface DevCache {
  dir: string;
  release(): Promise<void>;
}

/**
 * The folder where the bundler keeps the packages it prepares for `ninefold dev`: the shared one, kept
 * between runs so that the next start is quick, for one dev server at a time. A second server at the
 * same time gets a folder of its own for its life. Two servers sharing one folder prepare each their own
 * set of packages (each team module imports its own) and write over each other's: the other's page then
 * asks for a package that is no longer there, and the bundler reloads it, losing what was typed.
 */
export async function claimDevCache(shared: string): Promise<DevCache> {
  const lock = `${shared}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (takeLock(lock)) return { dir: shared, release: async () => rmSync(lock, { force: true }) };
    // A lock whose process has gone (a dev server that was killed) is taken over.
    if (holderIsAlive(lock)) break;
    rmSync(lock, { force: true });
  }
  const own = await mkdtemp(join(tmpdir(), 'ninefold-dev-packages-'));
  return { dir: own, release: () => rm(own, { recursive: true, force: true }) };
}

function takeLock(lock: string): boolean {
  try {
    mkdirSync(dirname(lock), { recursive: true });
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

function holderIsAlive(lock: string): boolean {
  let holder: number;
  try {
    holder = Number(readFileSync(lock, 'utf8'));
  } catch {
    // Gone between the two reads: free again.
    return false;
  }
  // An empty file is a lock being written this instant.
  if (!Number.isInteger(holder) || holder <= 0) return true;
  try {
    process.kill(holder, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds it, alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
