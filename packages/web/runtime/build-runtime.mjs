// Builds the web runtime with Vite's JS API into the directory given as the only argument. It runs in its
// own process (see ensureRuntime in ./index.ts): Vite decides between a development and a production
// bundle from NODE_ENV, which a test runner or a shell may have set to something else, and the bundler's
// memory should not stay in a long-running server.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const [outDir] = process.argv.slice(2);
if (!outDir) {
  process.stderr.write('usage: build-runtime.mjs OUT_DIR\n');
  process.exit(2);
}
await build({
  root: fileURLToPath(new URL('..', import.meta.url)),
  configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true },
});
