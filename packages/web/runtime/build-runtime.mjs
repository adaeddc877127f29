// Builds the web runtime with Vite's JS API into the directory given as the only argument. It runs in its
// own process (see ensureRuntime in ./index.ts): Vite decides between a development and a production
// bundle from NODE_ENV, which a test runner or a shell may have set to something else, and the bundler's
// memory should not stay in a long-running server.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'vite';

const [outDir] = process.argv.slice(2);
if (!outDir) {
  process.stderr.write('usage: build-runtime.mjs OUT_DIR\n');
  process.exit(2);
}
const webDir = fileURLToPath(new URL('..', import.meta.url));
const packagesDir = fileURLToPath(new URL('../..', import.meta.url));
/** The team's own files the build read (the extension module and what it imports), for the stamp. */
const extensionFiles = new Set();
await build({
  root: webDir,
  configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
  plugins: process.env.NINEFOLD_EXTENSION
    ? [
        {
          name: 'ninefold-extension-files',
          generateBundle() {
            for (const id of this.getModuleIds()) {
              const file = id.split('?')[0];
              if (!file.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(file)) continue;
              if (file.includes('node_modules') || file.startsWith(packagesDir)) continue;
              extensionFiles.add(file);
            }
          },
        },
      ]
    : [],
});
// The playground's page, into the same directory: its own entry and chunks, never loaded by the client.
await build({
  root: webDir,
  configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
  mode: 'playground',
  logLevel: 'warn',
  build: { outDir, emptyOutDir: false },
});
if (process.env.NINEFOLD_EXTENSION) {
  await writeFile(join(outDir, '.ninefold-extension-files'), JSON.stringify([...extensionFiles].sort()));
  await preloadExtension(outDir, process.env.NINEFOLD_EXTENSION);
}

/**
 * The extension module is imported at start, beside the model: its chunks are named in the page, so that
 * the browser fetches them with the entry rather than after it has run.
 */
async function preloadExtension(dir, extension) {
  const manifest = JSON.parse(await readFile(join(dir, '.vite', 'manifest.json'), 'utf8'));
  const key = Object.keys(manifest).find(
    (name) => manifest[name].isDynamicEntry && join(webDir, manifest[name].src ?? '') === extension,
  );
  if (key === undefined) return;
  const named = new Set();
  const visit = (name, into) => {
    const chunk = manifest[name];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported, into);
  };
  visit('index.html', named);
  const files = new Set();
  visit(key, files);
  const links = [...files]
    .filter((file) => !named.has(file) && file.endsWith('.js'))
    .map((file) => `<link rel="modulepreload" crossorigin href="./${file}">`)
    .join('');
  const page = join(dir, 'index.html');
  await writeFile(page, (await readFile(page, 'utf8')).replace('</head>', `${links}</head>`));
}

// Each script and style sheet also as Brotli and gzip, which `ninefold serve` sends to browsers that
// accept them (@fastify/static's preCompressed): about a quarter of the bytes, at no cost per request.
// Compressing took longer than bundling (7 of 16.5 s for a client with an extension), and most files are
// the same as in a build already there (the one being replaced, the one without an extension): a file
// whose bytes are the same takes that build's compressed copies instead.
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const assets = join(outDir, 'assets');
const compressedIn = (process.env.NINEFOLD_COMPRESSED_IN ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '')
  .map((dir) => join(dir, 'assets'));
await Promise.all(
  (await readdir(assets))
    .filter((name) => /\.(?:js|css|svg)$/.test(name))
    .map(async (name) => {
      const file = join(assets, name);
      const content = await readFile(file);
      if (content.length < 1024) return;
      if (await reuseCompressed(name, content, file)) return;
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
        }),
        gzipped(content, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
);

/** Copies another build's `.br` and `.gz` of a file with the same name and bytes; false when none has them. */
async function reuseCompressed(name, content, file) {
  for (const dir of compressedIn) {
    const same = await readFile(join(dir, name)).then(
      (other) => other.equals(content),
      () => false,
    );
    if (!same) continue;
    try {
      await Promise.all([
        copyFile(join(dir, `${name}.br`), `${file}.br`),
        copyFile(join(dir, `${name}.gz`), `${file}.gz`),
      ]);
      return true;
    } catch {
      // That build has no compressed copies of it (it was cut short): the next, or compress it here.
    }
  }
  return false;
}
