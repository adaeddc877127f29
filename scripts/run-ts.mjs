// Runs a TypeScript script (a benchmark, a test's helper process) as `node --import tsx FILE` would, but
// bundled first. tsx transpiles each module in a loader thread as Node asks for it: importing the server
// and the model that way cost 3.3 s of CPU per process, and the suite's smoke runs start 23 such processes.
// esbuild bundles our sources (npm's packages stay where they are) in a fraction of that, and Node then
// loads one file.
//
//   node [node options] scripts/run-ts.mjs FILE [arguments...]
//
// The script sees itself as FILE: process.argv[1] and import.meta.url name it and each bundled module's
// import.meta names its own source, so paths relative to a source still resolve.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('Usage: node scripts/run-ts.mjs FILE [arguments...]');
  process.exit(2);
}
const entry = resolve(file);

/** Only this workspace's packages are bundled: they export TypeScript, which Node cannot load. */
const ours = /^@ninefold\//;
const NODE_RESOLUTION = Symbol('resolved as Node would');
const sourceMeta = {
  name: 'source-meta',
  setup(build) {
    // npm's packages stay external, each named by the file Node would load for the importer, since the
    // bundle itself sits outside the tree (a package may be nested under the workspace that needs it).
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (ours.test(args.path) || args.pluginData === NODE_RESOLUTION) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const found = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: NODE_RESOLUTION,
      });
      return found.errors.length > 0 ? { errors: found.errors } : { path: found.path, external: true };
    });
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const loader = /\.[cm]?tsx?$/.test(args.path) ? (args.path.endsWith('x') ? 'tsx' : 'ts') : 'js';
      if (!text.includes('import.meta.')) return { contents: text, loader };
      const url = pathToFileURL(args.path).href;
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(url))
        .replaceAll('import.meta.dirname', JSON.stringify(resolve(args.path, '..')))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader };
    });
  },
};

const esbuild = await import('esbuild');
const folder = mkdtempSync(join(tmpdir(), 'ninefold-run-ts-'));
// On exit, not after the import: a script may end by process.exit (bench/support/clean-up.ts does on a
// signal) while its top level is still running.
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
const outfile = join(folder, 'script.mjs');
const result = await esbuild.build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // A stack trace names the sources' lines, as under tsx.
  sourcemap: 'inline',
  // Node's own choice among a package's files: no `module` condition, `main` before `module`.
  conditions: ['node'],
  mainFields: ['main', 'module'],
  logLevel: 'silent',
  plugins: [sourceMeta],
});
writeFileSync(outfile, result.outputFiles[0].contents);
process.argv = [process.argv[0], entry, ...rest];
process.setSourceMapsEnabled(true);
await import(pathToFileURL(outfile).href);
