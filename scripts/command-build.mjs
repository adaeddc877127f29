// The ninefold command, built to JavaScript. Its packages export TypeScript sources, and transpiling
// them at every start (tsx) cost 2 s before the first line of output. The command is bundled instead,
// once per state of its sources, with each command in a chunk of its own so that `--help` loads almost
// nothing. Plain JavaScript, because it runs before anything could transpile it.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'packages/cli/dist');
/** What the command is made of. A tree without them (an installed package) runs its build as it is. */
const SOURCES = [
  'packages/cli/src',
  'packages/server/src',
  'packages/openapi/src',
  'packages/database/src',
  'packages/model/src',
  'packages/web/runtime',
  'packages/cli/package.json',
  'packages/server/package.json',
  'packages/openapi/package.json',
  'packages/database/package.json',
  'packages/model/package.json',
  'packages/web/package.json',
  'scripts/command-build.mjs',
].map((path) => join(ROOT, path));
/** Builds kept besides the newest: a process started on one may still load its lazy chunks. */
const KEEP_PREVIOUS = 2;
const DAY_MS = 24 * 3600_000;

/**
 * The directory of a build of the command that matches its sources now, building it first when there is
 * none. Safe for many processes at once: each builds into a directory of its own and renames it into
 * place, and a build of the same sources that lands first is simply used.
 */
export async function commandDir() {
  // An installed package (scripts/pack.mjs) carries its build and none of the sources to build from.
  if (!(await exists(join(ROOT, 'packages/cli/src')))) return join(DIST, 'installed');
  const stamp = await sourceStamp();
  if (stamp === undefined) return join(DIST, 'installed');
  const dir = join(DIST, stamp);
  if (await exists(join(dir, 'main.js'))) return dir;
  await buildCommand(dir);
  await prune(stamp);
  return dir;
}

/** Files, bytes and the newest modification time of the sources, hashed; undefined when they are absent. */
export async function sourceStamp() {
  const totals = { files: 0, bytes: 0, newest: 0 };
  let found = false;
  for (const path of SOURCES) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) continue;
    found = true;
    await visit(path, info, totals);
  }
  if (!found) return undefined;
  const text = `${totals.files}:${totals.bytes}:${totals.newest}`;
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

async function visit(path, info, totals) {
  totals.newest = Math.max(totals.newest, info.mtimeMs);
  if (!info.isDirectory()) {
    totals.files += 1;
    totals.bytes += info.size;
    return;
  }
  const entries = await readdir(path);
  await Promise.all(
    entries.map(async (name) => {
      const child = join(path, name);
      await visit(child, await stat(child), totals);
    }),
  );
}

/** Bundles the command into `dir` (through a directory of its own, renamed into place). */
export async function buildCommand(dir) {
  const esbuild = await import('esbuild');
  const work = `${dir}.${process.pid}.${Date.now()}`;
  await mkdir(dirname(work), { recursive: true });
  try {
    await esbuild.build({
      entryPoints: {
        main: join(ROOT, 'packages/cli/src/main.ts'),
        // For the install step, which builds the web runtime too (scripts/prepare.mjs).
        runtime: join(ROOT, 'packages/web/runtime/index.ts'),
      },
      outdir: work,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // For stack traces that name the sources' lines (see bin/ninefold.js).
      sourcemap: 'linked',
      banner: { js: REQUIRE_BANNER },
      logLevel: 'silent',
      plugins: [thirdPartyExternal, sourceRelativeUrls(work)],
    });
    await rename(work, dir).catch(async (error) => {
      // Another process built the same sources first: theirs is as good.
      if (!(await exists(join(dir, 'main.js')))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Packages from npm are bundled too: Node's loader spent more time finding and reading their hundreds of
 * files (zod alone 250 ms, micromark 190 ms) than running them. These stay where npm put them: native
 * code, and the build tools that are large and loaded only to build an extension.
 */
const EXTERNAL = /^(?:better-sqlite3|pg|pg-native|vite|typescript|esbuild|fsevents)(?:\/|$)/;

const thirdPartyExternal = {
  name: 'third-party-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      EXTERNAL.test(args.path) ? { path: args.path, external: true } : undefined,
    );
  },
};
/** Bundled CommonJS packages call require for Node's own modules, which an ES module has no binding for. */
const REQUIRE_BANNER =
  "import { createRequire as __ninefoldRequire } from 'node:module'; const require = __ninefoldRequire(import.meta.url);";

/**
 * `import.meta.url` keeps meaning the source file's own address, so that the web runtime still finds
 * `packages/web` beside it. It is written relative to the bundle, which sits at the same depth under
 * `packages/cli/dist` wherever the tree is.
 */
function sourceRelativeUrls(work) {
  return {
    name: 'source-relative-urls',
    setup(build) {
      build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        const loader = args.path.endsWith('x') ? 'tsx' : 'ts';
        if (!text.includes('import.meta.url')) return { contents: text, loader };
        const fromBundle = relative(work, args.path).split(sep).join('/');
        const address = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', address), loader };
      });
    },
  };
}

/** Removes all but the newest builds, and leftovers of builds that crashed. */
async function prune(current) {
  const names = await readdir(DIST).catch(() => []);
  // Another command starting at the same moment may be pruning too: a build it removed is gone, not an error.
  const found = await Promise.all(
    names
      .filter((name) => name !== current && name !== 'installed')
      .map(async (name) => {
        const info = await stat(join(DIST, name)).catch(() => undefined);
        return info === undefined ? undefined : { name, time: info.mtimeMs };
      }),
  );
  const entries = found.filter((entry) => entry !== undefined);
  const builds = entries.filter((entry) => /^[0-9a-f]{16}$/.test(entry.name));
  builds.sort((a, b) => b.time - a.time);
  const stale = [
    ...builds.filter((build, index) => index >= KEEP_PREVIOUS || Date.now() - build.time > DAY_MS),
    // Another process's build in progress is young; one this old crashed.
    ...entries.filter((entry) => !builds.includes(entry) && Date.now() - entry.time > 10 * 60_000),
  ];
  await Promise.all(stale.map((build) => rm(join(DIST, build.name), { recursive: true, force: true })));
}

async function exists(path) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(relative(ROOT, await commandDir()));
}
