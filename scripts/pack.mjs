// Packs the ninefold command as an npm tarball that installs and runs on its own, on a machine that has
// only the npm registry: the built command, the built web client, and as dependencies only what the
// bundle leaves out (the database drivers). The repository itself is a private workspace whose packages
// are not published, so the tarball is assembled from what `prepare` built rather than packed in place.
//
//   node scripts/pack.mjs [DIR]    writes ninefold-VERSION.tgz into DIR (default: the current directory)
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { commandDir } from './command-build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readJson = async (path) => JSON.parse(await readFile(join(ROOT, path), 'utf8'));

/** Builds what is missing, stages the package and packs it; answers the tarball's path. */
export async function pack(destination = process.cwd()) {
  const dir = await commandDir();
  const { ensureRuntime } = await import(pathToFileURL(`${dir}/runtime.js`).href);
  const web = await ensureRuntime({ log: (line) => console.error(`ninefold: ${line}`) });

  const stage = await mkdtemp(join(tmpdir(), 'ninefold-pack-'));
  try {
    // The same layout as the repository, so that the command finds its web client and its drivers by the
    // same relative paths; `command-build.mjs` uses the build it finds when there are no sources.
    await cp(join(ROOT, 'bin/ninefold.js'), join(stage, 'bin/ninefold.js'));
    await cp(join(ROOT, 'scripts/command-build.mjs'), join(stage, 'scripts/command-build.mjs'));
    await cp(dir, join(stage, 'packages/cli/dist/installed'), { recursive: true });
    await cp(web, join(stage, 'packages/web/dist'), { recursive: true });
    await cp(join(ROOT, 'README.md'), join(stage, 'README.md'));

    const root = await readJson('package.json');
    const server = await readJson('packages/server/package.json');
    const manifest = {
      name: 'ninefold',
      version: root.version,
      description: root.description,
      type: 'module',
      license: root.license,
      engines: root.engines,
      bin: root.bin,
      dependencies: {
        'better-sqlite3': server.dependencies['better-sqlite3'],
        pg: server.dependencies.pg,
      },
    };
    await writeFile(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(destination, { recursive: true });
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', resolve(destination)], {
      cwd: stage,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [packed] = JSON.parse(out);
    return join(resolve(destination), packed.filename);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await pack(process.argv[2]));
}
