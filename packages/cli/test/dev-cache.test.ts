import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimDevCache } from '../../web/runtime/dev-cache';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Who holds the shared folder's lock, as the lock says. */
function owner(shared: string): { pid: number } {
  return JSON.parse(readFileSync(join(`${shared}.lock`, 'owner.json'), 'utf8'));
}

function sharedFolder(): string {
  const parent = mkdtempSync(join(tmpdir(), 'ninefold-dev-cache-test-'));
  folders.push(parent);
  return join(parent, '.vite-dev');
}

describe("the dev server's folder of prepared packages", () => {
  it('is the shared one for one server at a time, and a folder of its own for a second beside it', async () => {
    const shared = sharedFolder();
    const first = await claimDevCache(shared);
    expect(first.dir).toBe(shared);
    expect(owner(shared).pid).toBe(process.pid);

    const second = await claimDevCache(shared);
    expect(second.dir).not.toBe(shared);
    expect(existsSync(second.dir)).toBe(true);
    await second.release();
    expect(existsSync(second.dir)).toBe(false);

    // Once the first is done, the next server has the shared folder again.
    await first.release();
    const third = await claimDevCache(shared);
    expect(third.dir).toBe(shared);
    await third.release();
    expect(existsSync(`${shared}.lock`)).toBe(false);
  });

  it('takes over the lock of a server that was killed', async () => {
    const shared = sharedFolder();
    // A process that has ended: its number names no live process now.
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    });
    mkdirSync(`${shared}.lock`, { recursive: true });
    writeFileSync(
      join(`${shared}.lock`, 'owner.json'),
      JSON.stringify({ pid: Number(ended.stdout), host: hostname(), started: new Date().toISOString() }),
    );
    const claim = await claimDevCache(shared);
    expect(claim.dir).toBe(shared);
    expect(owner(shared).pid).toBe(process.pid);
    await claim.release();
  });
});
