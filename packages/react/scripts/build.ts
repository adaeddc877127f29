// Builds @ninefold/react into dist/: the client as an ES library (dist/index.js and its lazy chunks,
// dist/style.css), the Vite plugin for Node (dist/vite.js), and one declaration file for each, with the
// model's types written out in it, so that an app needs none of Ninefold's TypeScript sources.
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { sourceStamp } from '@ninefold/web/runtime';
import { themeStylesheetPlugin } from '@ninefold/web/vite-plugins';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { writeClientDeclarations, writePluginDeclarations } from './declarations';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const PACKAGE = here('..');
const DIST = here('../dist');
const WEB_ENTRY = here('../../web/src/library/index.ts');
const PLUGIN_ENTRY = here('../src/vite-plugin.ts');

/**
 * What the library leaves to the app's bundler: every package but Ninefold's own, whose TypeScript
 * sources are compiled in. The app then has one React, one Mantine, one of each (a test holds the list
 * equal to package.json's dependencies).
 */
export function isExternal(id: string): boolean {
  if (id.startsWith('\0') || id.startsWith('.') || id.startsWith('/') || id.startsWith('virtual:'))
    return false;
  if (id.startsWith('@ninefold/')) return false;
  return true;
}

/**
 * The runtime fetches the later stylesheet by URL; in the library it is part of dist/style.css (the entry
 * imports it), and a `?url` import would inline the whole sheet into the JavaScript as a data URL.
 */
function laterStylesInStylesheet(): Plugin {
  return {
    name: 'ninefold-later-styles-in-stylesheet',
    enforce: 'pre',
    resolveId: (id) => (id.endsWith('mantine-later.css?url') ? '\0later-styles-url' : undefined),
    load: (id) => (id === '\0later-styles-url' ? 'export default "";\n' : undefined),
  };
}

/** Written into dist/: which sources it was built from, so that `--if-stale` can skip a current build. */
const STAMP_FILE = '.ninefold-sources';

/**
 * The sources the package is built from: the web client's and the model's (the runtime's own stamp), and
 * this package's code and build scripts, by their files, sizes and newest modification time.
 */
async function packageStamp(): Promise<string> {
  const totals = { files: 0, bytes: 0, newest: 0 };
  const visit = async (path: string): Promise<void> => {
    const info = await stat(path).catch(() => undefined);
    if (!info) return;
    totals.newest = Math.max(totals.newest, info.mtimeMs);
    if (!info.isDirectory()) {
      totals.files += 1;
      totals.bytes += info.size;
      return;
    }
    for (const entry of await readdir(path)) await visit(`${path}/${entry}`);
  };
  for (const part of ['src', 'scripts', 'package.json', 'tsconfig.json']) await visit(`${PACKAGE}/${part}`);
  return `${await sourceStamp()}; react ${totals.files} files, ${totals.bytes} bytes, newest ${Math.trunc(totals.newest)}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const stamp = await packageStamp();
  // `npm ci` builds it (scripts/prepare.mjs); a test or a person after a change of the sources asks again.
  if (process.argv.includes('--if-stale')) {
    const built = await readFile(`${DIST}/${STAMP_FILE}`, 'utf8').catch(() => undefined);
    if (built === stamp) {
      console.log(`@ninefold/react in ${DIST} is current`);
      return;
    }
  }
  await rm(DIST, { recursive: true, force: true });
  await build({
    configFile: false,
    root: PACKAGE,
    logLevel: 'warn',
    // Files the library refers to (the importer's worker) are found beside the chunk that names them.
    base: './',
    plugins: [react(), themeStylesheetPlugin(undefined), laterStylesInStylesheet()],
    // Overrides are compiled in: the app passes its extension as a prop.
    define: { __NINEFOLD_EXTENSION__: 'true' },
    build: {
      outDir: DIST,
      emptyOutDir: false,
      minify: false,
      sourcemap: true,
      reportCompressedSize: false,
      cssCodeSplit: false,
      lib: { entry: { index: WEB_ENTRY }, formats: ['es'], cssFileName: 'style' },
      rolldownOptions: { external: isExternal },
    },
  });
  await build({
    configFile: false,
    root: PACKAGE,
    logLevel: 'warn',
    build: {
      outDir: DIST,
      emptyOutDir: false,
      minify: false,
      ssr: true,
      target: 'node20',
      reportCompressedSize: false,
      lib: { entry: { vite: PLUGIN_ENTRY }, formats: ['es'] },
      rolldownOptions: {
        external: (id) => isExternal(id) || builtinModules.includes(id) || id.startsWith('node:'),
      },
    },
  });
  await writeClientDeclarations(WEB_ENTRY, `${DIST}/index.d.ts`);
  await writePluginDeclarations(PLUGIN_ENTRY, `${DIST}/vite.d.ts`);
  await writeFile(`${DIST}/${STAMP_FILE}`, stamp);
  console.log(`@ninefold/react built into ${DIST} in ${Math.round(performance.now() - started)} ms`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
