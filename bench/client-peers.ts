// The peer web apps of the client benchmarks: installed on demand into bench/.peers/<name>/ (gitignored),
// never into the project's own dependencies, so that CI does not install them. Their entry files live in
// bench/peers/<name>/; they are copied next to the peer's node_modules before building, so that bare
// imports resolve to the peer's own packages rather than to the monorepo's.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { installFolder } from './support/install-once';

const BENCH = fileURLToPath(new URL('./', import.meta.url));
const SOURCES = join(BENCH, 'peers');
const INSTALLS = join(BENCH, '.peers');

// The same React and Vite as packages/web, so that the comparisons measure the apps rather than the
// versions of their shared foundations.
const REACT = '19.3.1';
const VITE = { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0' };

export type PeerName =
  | 'react-admin'
  | 'minimal-list'
  | 'stack-list'
  | 'rjsf-form'
  | 'swagger-ui'
  | 'sql-wasm';

/** Exact versions: a peer's figure must not change because a newer release appeared. */
const DEPENDENCIES: Record<PeerName, Record<string, string>> = {
  'react-admin': {
    react: REACT,
    'react-dom': REACT,
    'react-admin': '5.15.4',
    'ra-data-simple-rest': '5.15.3',
    ...VITE,
  },
  'minimal-list': { react: REACT, 'react-dom': REACT, ...VITE },
  // The minimal page on the client's own libraries, at the versions packages/web resolves.
  'stack-list': {
    react: REACT,
    'react-dom': REACT,
    '@mantine/core': '9.7.4',
    '@mantine/hooks': '9.7.4',
    '@tanstack/react-query': '5.108.0',
    ...VITE,
  },
  'rjsf-form': {
    react: REACT,
    'react-dom': REACT,
    '@rjsf/core': '6.11.1',
    '@rjsf/utils': '6.11.1',
    '@rjsf/validator-ajv8': '6.11.1',
    ...VITE,
  },
  // Prebuilt: served as its distribution ships, with no build of ours.
  'swagger-ui': { 'swagger-ui-dist': '5.35.0' },
  // SQLite compiled to WebAssembly, the other storage the playground's API could have had (issue 23).
  'sql-wasm': { 'sql.js': '1.13.0' },
};

export interface BuiltPeer {
  name: PeerName;
  /** The built files, to be served under `base`. */
  dist: string;
  /** The URL path the peer is built for, e.g. `/peers/react-admin/`. */
  base: string;
  /** Installed versions of the peer's main packages, for the results. */
  versions: Record<string, string>;
}

/**
 * Installs the peer's packages unless exactly these versions are installed already, or waits for the
 * install another process has under way (the suite starts them all at its start).
 */
export async function installPeer(name: PeerName): Promise<string> {
  const dir = join(INSTALLS, name);
  const manifest = `${JSON.stringify(
    {
      name: `ninefold-bench-peer-${name}`,
      private: true,
      type: 'module',
      description: 'Installed by bench/client.ts for a benchmark; not part of Ninefold.',
      dependencies: DEPENDENCIES[name],
    },
    null,
    2,
  )}\n`;
  await installFolder({
    dir,
    manifest,
    what: `the ${name} peer`,
    run: (npm) => npm(NPM_INSTALL, dir),
  });
  return dir;
}

/**
 * Installs several peers at once: the installs wait on the network far more than on the CPU, and one
 * after the other they were most of a fresh checkout's smoke run of the benchmarks.
 */
export async function installPeers(names: PeerName[]): Promise<void> {
  await Promise.all(names.map(installPeer));
}

export const PEER_NAMES: PeerName[] = [
  'react-admin',
  'minimal-list',
  'stack-list',
  'rjsf-form',
  'swagger-ui',
];

/**
 * No install scripts: none of these packages needs one, and a benchmark should not run arbitrary code.
 * Packages the project's own install fetched already (React, Vite, …) come from npm's cache.
 */
const NPM_INSTALL = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline'];

export function versionIn(dir: string, pkg: string): string {
  return (
    JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }
  ).version;
}

/**
 * The last build of each peer in this process, with the extra files it was made with: a build writes
 * over the peer's one output folder, so only the last is still there to serve.
 */
const builds = new Map<PeerName, { files: string; build: Promise<BuiltPeer> }>();

/**
 * Installs (when needed) and builds a peer with its own Vite in production mode. `extraFiles` are
 * written into the app before building (generated inputs such as a schema). A second ask for the same
 * build in one process gets the first's: bench/client.ts asks for react-admin in two of its parts, and
 * its build is the longest of the peers'.
 */
export function buildPeer(name: PeerName, extraFiles: Record<string, string> = {}): Promise<BuiltPeer> {
  const files = JSON.stringify(extraFiles);
  const last = builds.get(name);
  if (last?.files === files) return last.build;
  const build = buildPeerNow(name, extraFiles);
  builds.set(name, { files, build });
  // A failed build is not kept: the next ask tries again.
  build.catch(() => {
    if (builds.get(name)?.build === build) builds.delete(name);
  });
  return build;
}

async function buildPeerNow(name: PeerName, extraFiles: Record<string, string>): Promise<BuiltPeer> {
  const dir = await installPeer(name);
  const app = join(dir, 'app');
  rmSync(app, { recursive: true, force: true });
  cpSync(join(SOURCES, name), app, { recursive: true });
  for (const [file, content] of Object.entries(extraFiles)) writeFileSync(join(app, file), content);
  const base = `/peers/${name}/`;
  const dist = join(dir, 'dist');
  const vite = (await import(pathToFileURL(join(dir, 'node_modules/vite/dist/node/index.js')).href)) as {
    build(config: Record<string, unknown>): Promise<unknown>;
  };
  const react = (await import(
    pathToFileURL(join(dir, 'node_modules/@vitejs/plugin-react/dist/index.js')).href
  )) as { default: () => unknown };
  process.stdout.write(`building the ${name} peer… `);
  const started = performance.now();
  await vite.build({
    root: app,
    base,
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react.default()],
    // The peers are measured as they come: Vite's advice to split large chunks is not taken, so silence it.
    build: {
      outDir: dist,
      emptyOutDir: true,
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 100_000,
    },
  });
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
  const versions: Record<string, string> = {};
  for (const pkg of Object.keys(DEPENDENCIES[name])) versions[pkg] = versionIn(dir, pkg);
  return { name, dist, base, versions };
}

/**
 * Swagger UI's distribution and its standalone index page (bench/peers/swagger-ui/), in one directory to
 * serve: the peer of the benchmarks that open an OpenAPI description.
 */
export async function swaggerUiApp(): Promise<{ dir: string; version: string }> {
  const installed = await installPeer('swagger-ui');
  const dist = join(installed, 'node_modules/swagger-ui-dist');
  const dir = join(installed, 'app');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css'])
    cpSync(join(dist, file), join(dir, file));
  cpSync(join(SOURCES, 'swagger-ui'), dir, { recursive: true });
  return { dir, version: versionIn(installed, 'swagger-ui-dist') };
}
