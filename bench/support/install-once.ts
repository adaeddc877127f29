// One npm install into a folder outside the project's dependencies (the benchmarks' peers, the real API
// servers of the browser tests), done once however many processes ask for it at the same time. The suite
// starts these installs in the background at its start (e2e/support/global-setup.ts), so a test or a
// benchmark may find one under way: it waits for it rather than installing into the same folder twice.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface InstallOnce {
  /** The lock file: it names the process doing the install, and exists only while one is. */
  lock: string;
  /** Whether what is wanted is in place already. */
  installed(): boolean;
  /** Does the install; `npm` runs npm with the lock naming it. */
  install(npm: (args: string[], cwd: string) => Promise<void>): Promise<void>;
}

/** Installs unless already installed, waiting for an install that another process has under way. */
export async function installOnce(what: InstallOnce): Promise<void> {
  for (;;) {
    if (what.installed()) return;
    if (takeLock(what.lock)) break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  try {
    if (!what.installed()) await what.install((args, cwd) => npm(args, cwd, what.lock));
  } finally {
    rmSync(what.lock, { force: true });
  }
}

/**
 * A folder of its own holding exactly this package.json, installed once: `run` makes the npm calls in
 * it. Done when its manifest is this one and the last install finished (a marker in node_modules), so a
 * changed version or an install cut short is done again. The lock sits beside the folder.
 */
export async function installFolder(folder: {
  dir: string;
  manifest: string;
  /** What it is, for the line said when it is installed: `the react-admin peer`. */
  what: string;
  run(npm: (args: string[], cwd: string) => Promise<void>): Promise<void>;
}): Promise<void> {
  const { dir, manifest } = folder;
  const manifestFile = join(dir, 'package.json');
  const done = join(dir, 'node_modules/.installed');
  mkdirSync(dirname(dir), { recursive: true });
  await installOnce({
    lock: join(dirname(dir), `.${basename(dir)}.installing`),
    installed: () =>
      existsSync(done) && existsSync(manifestFile) && readFileSync(manifestFile, 'utf8') === manifest,
    install: async (npm) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(manifestFile, manifest);
      console.log(`installing ${folder.what} into ${dir} (once)…`);
      await folder.run(npm);
      writeFileSync(done, new Date().toISOString());
    },
  });
}

/**
 * Runs npm; the lock names npm itself, so that a run whose test process ends first (the suite's main
 * process, which starts the background installs) still makes the next run wait for it.
 */
function npm(args: string[], cwd: string, lock: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn('npm', [...args, '--prefix', cwd, '--loglevel=error'], {
      cwd,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    if (child.pid !== undefined) writeFileSync(lock, String(child.pid));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ${args[0]} in ${cwd} failed (exit ${code})`)),
    );
  });
}

/**
 * Takes a lock: a file naming the process that holds it, made only if absent. A lock whose process has
 * gone (a run that was killed) is taken over.
 */
function takeLock(lock: string): boolean {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    const holder = Number(readFileSync(lock, { encoding: 'utf8', flag: 'a+' }));
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) return false;
    rmSync(lock, { force: true });
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
