import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeFolderLock } from './folder-lock';

/** `packages/web/`. */
const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
/**
 * The client bundles the shared rules of `packages/model` and, in its import worker, the importer of
 * `packages/openapi`, so their sources count as the client's too.
 */
const SPEC_SOURCES = fileURLToPath(new URL('../../model/src', import.meta.url));
const OPENAPI_SOURCES = fileURLToPath(new URL('../../openapi/src', import.meta.url));
const PLAYGROUND_SOURCES = [
  '../../server/src/seed',
  '../../../schema/ninefold.schema.json',
  '../../../examples/shop.md',
  '../../../examples/empty.md',
].map((path) => fileURLToPath(new URL(path, import.meta.url)));
const BUILD_SCRIPT = fileURLToPath(new URL('./build-runtime.mjs', import.meta.url));
/** Written into the built directory: which sources it was built from. A dotfile, so it is never served. */
const STAMP_FILE = '.ninefold-sources';
/**
 * The build lock and work area. Creating it is the lock (mkdir is atomic); the build is written inside it
 * and renamed into place, so a reader never sees a half-written runtime. It is named `dist` so that the
 * repository's ignore rules (and Biome's, which follow them) cover it.
 */
const WORK_PARENT = join(WEB_DIR, '.ninefold-build');
/** Clients built with a team's extension module, one directory per module (see `runtimeDir`). */
const EXTENSION_CLIENTS = join(WEB_DIR, '.ninefold-clients');
/** Written by the build beside the stamp: the extension's own source files, whose changes call for a new build. */
export const EXTENSION_FILES = '.ninefold-extension-files';
/** Written beside the stamp: the extension module a client was built with, to find clients of modules gone. */
const EXTENSION_SOURCE = '.ninefold-extension';
const WAIT_LIMIT_MS = 10 * 60_000;
const POLL_MS = 200;

/**
 * Every folder a build of the client writes, below the client's own sources: a dev server watching those
 * sources must not take a build's new pages there for an edit (its bundler reloads every open page when
 * an HTML file under its root changes).
 */
export const BUILD_OUTPUTS = [join(WEB_DIR, 'dist'), WORK_PARENT, EXTENSION_CLIENTS];

export interface EnsureRuntimeOptions {
  /** One line of progress at a time; quiet when the runtime is already built. */
  log?: (line: string) => void;
  /**
   * When the sources do not build (someone is in the middle of a change), go on with the previous build
   * if there is one, saying so, instead of failing. For serving; a build to deploy wants the failure.
   */
  allowPrevious?: boolean;
  /**
   * A team's extension module (docs/extending.md), by its path: the client is then built with it into a
   * directory of its own, and built again when the module or a file it imports changes.
   */
  extension?: string | undefined;
  /**
   * Stops a build under way (its bundler is killed) and the wait for another's: `ninefold dev` stopped in
   * the middle of a rebuild must not wait for the bundler, which took past 15 s on a loaded machine.
   */
  signal?: AbortSignal;
}

/**
 * Where the built web runtime lives: `packages/web/dist`, or for a client with an extension module a
 * directory named after the module's absolute path; see {@link ensureRuntime}.
 */
export function runtimeDir(extension?: string): string {
  if (extension === undefined) return join(WEB_DIR, 'dist');
  const id = createHash('sha256').update(resolve(extension)).digest('hex').slice(0, 16);
  return join(EXTENSION_CLIENTS, id);
}

/** The build lock and work area of one runtime directory. */
function workOf(extension: string | undefined): string {
  return join(WORK_PARENT, extension === undefined ? 'dist' : `dist-${runtimeDir(extension).slice(-16)}`);
}

/**
 * Makes sure the built web runtime is there and current, building it with Vite when it is missing or its
 * sources (the client's, the shared rules of `packages/model` and the importer) changed since, and returns its directory.
 * So a fresh clone needs no separate build step. Safe to call from several processes at once: one builds
 * while the others wait, and the result appears in one rename.
 *
 * @example
 * ```ts
 * const dir = await ensureRuntime({ log: (line) => process.stderr.write(`${line}\n`) });
 * // dir/index.html, dir/assets/...
 * ```
 */
export async function ensureRuntime(options: EnsureRuntimeOptions = {}): Promise<string> {
  const log = options.log ?? (() => undefined);
  const extension = options.extension === undefined ? undefined : resolve(options.extension);
  const dir = runtimeDir(extension);
  const work = workOf(extension);
  const stampNow = async () =>
    extension === undefined
      ? sourceStamp()
      : `${await sourceStamp()}; ${await extensionStamp(dir, extension)}`;
  // An installed package (scripts/pack.mjs) has the client built and none of its sources to build from.
  if (!(await exists(join(WEB_DIR, 'src')))) {
    if (extension === undefined && (await exists(join(dir, 'index.html')))) return dir;
    throw new Error(
      extension === undefined
        ? `the web client is not built at ${dir}, and its sources are not here to build it from`
        : "a client with an extension module is built from the web client's sources: run it from a clone of Ninefold (docs/extending.md)",
    );
  }
  const deadline = Date.now() + WAIT_LIMIT_MS;
  let waiting = false;
  for (;;) {
    options.signal?.throwIfAborted();
    if (await isCurrent(dir, await stampNow())) return dir;
    const lock = await takeFolderLock(work);
    if (lock === 'cleared') {
      log('cleared the lock of a build of the web client that did not finish');
      continue;
    }
    if (lock === 'taken') {
      try {
        // Checked again under the lock: another process may have finished a build just before.
        const stamp = await stampNow();
        if (await isCurrent(dir, stamp)) return dir;
        try {
          await build(dir, work, extension, log, options.signal);
        } catch (error) {
          if (!options.allowPrevious || !(await exists(join(dir, 'index.html')))) throw error;
          log(`${(error as Error).message}\nserving the previous build of the web client instead.`);
        }
        return dir;
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    }
    if (!waiting) {
      log('waiting for another process to finish building the web client…');
      waiting = true;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `gave up waiting for another build of the web client; if none is running, remove ${work}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * What the sources look like now: the number of files, their total size, and the newest modification
 * time of any file or directory (a deleted file changes its directory's time).
 */
export async function sourceStamp(): Promise<string> {
  const totals = { files: 0, bytes: 0, newest: 0 };
  const roots = [
    join(WEB_DIR, 'src'),
    join(WEB_DIR, 'public'),
    join(WEB_DIR, 'index.html'),
    join(WEB_DIR, 'playground.html'),
    join(WEB_DIR, 'vite.config.ts'),
    // The theme's stylesheet and the extension module are made at build by these (vite.config.ts's plugins).
    join(WEB_DIR, 'runtime/theme-stylesheet.ts'),
    join(WEB_DIR, 'runtime/vite-plugins.ts'),
    join(WEB_DIR, 'package.json'),
    SPEC_SOURCES,
    OPENAPI_SOURCES,
    // The playground bundles the prototype API's calls and seed, the published schema and two examples.
    ...PLAYGROUND_SOURCES,
  ];
  for (const root of roots) await visit(root, totals);
  return `${totals.files} files, ${totals.bytes} bytes, newest ${Math.trunc(totals.newest)}`;
}

async function visit(path: string, totals: { files: number; bytes: number; newest: number }) {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    return; // an optional source (public/) or one deleted while we looked
  }
  totals.newest = Math.max(totals.newest, info.mtimeMs);
  if (info.isDirectory()) {
    const entries = await readdir(path).catch(() => [] as string[]);
    for (const entry of entries) await visit(join(path, entry), totals);
  } else {
    totals.files += 1;
    totals.bytes += info.size;
  }
}

async function isCurrent(dir: string, stamp: string): Promise<boolean> {
  try {
    await stat(join(dir, 'index.html'));
    return (await readFile(join(dir, STAMP_FILE), 'utf8')) === stamp;
  } catch {
    return false;
  }
}

/**
 * What an extension's sources look like now: the files its last build read (or the module alone before
 * the first build), each by size and modification time.
 */
async function extensionStamp(dir: string, extension: string): Promise<string> {
  let files: string[];
  try {
    files = JSON.parse(await readFile(join(dir, EXTENSION_FILES), 'utf8')) as string[];
  } catch {
    files = [extension];
  }
  const parts: string[] = [`extension ${extension}`];
  for (const file of [...new Set([extension, ...files])].sort()) {
    const info = await stat(file).catch(() => undefined);
    parts.push(info ? `${file} ${info.size} ${Math.trunc(info.mtimeMs)}` : `${file} missing`);
  }
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

async function build(
  dir: string,
  work: string,
  extension: string | undefined,
  log: (line: string) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  const first = !(await exists(join(dir, 'index.html')));
  const what = extension === undefined ? 'the web client' : 'the web client with its extension';
  log(`building ${what} (${first ? 'first run only' : 'its sources changed'})…`);
  const started = performance.now();
  const out = join(work, 'out');
  // The sources as the build reads them: taken after it, a file saved during the build was stamped as
  // built while the output held it as it was, and the stale client was served as current until the
  // next change.
  const sources = await sourceStamp();
  // The runtime being replaced and the one without an extension hold most of the same chunks, already
  // compressed.
  await runBuildScript(out, extension, signal, [dir, runtimeDir()]);
  // The extension's part after the build, which wrote the list of its files the stamp covers.
  const stamp = extension === undefined ? sources : `${sources}; ${await extensionStamp(out, extension)}`;
  await writeFile(join(out, STAMP_FILE), stamp);
  if (extension !== undefined) await writeFile(join(out, EXTENSION_SOURCE), extension);
  // Two renames: the old runtime moves into the work area (removed with it), the new one takes its place.
  await mkdir(join(dir, '..'), { recursive: true });
  try {
    await rename(dir, join(work, 'old'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await rename(out, dir);
  log(`  built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (extension !== undefined) await pruneClients();
}

function runBuildScript(
  out: string,
  extension: string | undefined,
  signal: AbortSignal | undefined,
  compressedIn: string[],
): Promise<void> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [BUILD_SCRIPT, out], {
      cwd: WEB_DIR,
      ...(signal ? { signal } : {}),
      // Always a production bundle, whatever NODE_ENV the caller runs with (Vitest sets "test"); with
      // the extension module vite.config.ts is to bundle, or none even if the caller's environment names one.
      env: {
        ...process.env,
        NODE_ENV: 'production',
        NINEFOLD_EXTENSION: extension ?? '',
        // A notice about Vite's next config loader, not about this build: it would lead a failure's text.
        VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
        NINEFOLD_COMPRESSED_IN: compressedIn.join(delimiter),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      // Only the end matters for a failure, and a runaway log must not fill memory.
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) done();
      else
        reject(
          new Error(
            `the web client could not be built (vite exited with ${signal ?? code}):\n${output.trim()}`,
          ),
        );
    });
  });
}

/**
 * Removes the clients built for extension modules that no longer exist (a test's temporary folder, a
 * module moved), so that builds do not pile up. One whose build is under way has no record yet and stays.
 */
async function pruneClients(): Promise<void> {
  const entries = await readdir(EXTENSION_CLIENTS).catch(() => [] as string[]);
  for (const entry of entries) {
    const dir = join(EXTENSION_CLIENTS, entry);
    const source = await readFile(join(dir, EXTENSION_SOURCE), 'utf8').catch(() => undefined);
    if (source !== undefined && !(await exists(source))) await rm(dir, { recursive: true, force: true });
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
