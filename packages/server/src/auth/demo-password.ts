import { chmod, readFile, writeFile } from 'node:fs/promises';

export type DemoPasswordFile = { ok: true; path: string } | { ok: false; message: string };

/**
 * The demo password of an earlier start, from the file it was kept in; undefined when there is none, or
 * when it is empty or too long to be one of ours.
 */
export async function readDemoPassword(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  const password = text?.trim();
  return password && password.length <= 200 && !/\s/.test(password) ? password : undefined;
}

/**
 * Keeps a new demo password for later starts and other nodes on this machine, readable and writable by
 * its owner only (mode 600): it signs in as every role of a database that may hold real-looking data.
 */
export async function writeDemoPassword(path: string, password: string): Promise<DemoPasswordFile> {
  try {
    await writeFile(path, `${password}\n`, { mode: 0o600 });
    // A file that existed keeps its mode through writeFile: it is narrowed here.
    await chmod(path, 0o600);
    return { ok: true, path };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
