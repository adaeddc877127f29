import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { SHARED } from './runtime/extension-module';
import { savedModulesPlugin } from './runtime/saved-file';
import { extensionPlugin, themeStylesheetPlugin } from './runtime/vite-plugins';

/** Resolves as Node does (the `default` condition), for the worker build. */
const nodeResolve = createRequire(import.meta.url);

/** The team's extension module, by its absolute path, when `ensureRuntime` builds a client with one. */
const extensionFile = process.env.NINEFOLD_EXTENSION || undefined;

// The runtime is built once and served for any specification: it fetches spec.json at start, so the
// same files work at any path (base './') on any static host. The playground's page is a second build
// (mode `playground`) into the same directory: a page of its own, whose code the client never loads.
export default defineConfig(({ mode }) => ({
  root: import.meta.dirname,
  base: './',
  plugins: [
    react(),
    themeStylesheetPlugin(extensionFile),
    extensionPlugin(extensionFile),
    savedModulesPlugin(extensionFile),
  ],
  define: { __NINEFOLD_EXTENSION__: JSON.stringify(extensionFile !== undefined) },
  // Workers have no DOM: the Markdown reader's entity decoder is then its table, not the page's parser.
  worker: {
    format: 'es',
    plugins: () => [
      {
        name: 'ninefold-worker-decoder',
        enforce: 'pre',
        resolveId: (id) => (id === 'decode-named-character-reference' ? nodeResolve.resolve(id) : undefined),
      },
    ],
  },
  resolve: {
    alias: {
      '@ninefold/web/extension': fileURLToPath(new URL('./src/extension/public.ts', import.meta.url)),
    },
    dedupe: SHARED,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or eval may be needed at run time (strict CSP); module preload polyfill is inline.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
    // Which chunks each screen's code needs: the server preloads the first screen's with the page
    // (see packages/server/src/screen-preload.ts), instead of after the model has come.
    manifest: mode !== 'playground',
    // One stylesheet with the page: a screen's own would be waited for before its code runs.
    cssCodeSplit: false,
    rolldownOptions: {
      input: fileURLToPath(
        new URL(mode === 'playground' ? './playground.html' : './index.html', import.meta.url),
      ),
      output: {
        codeSplitting: {
          // Only the engine: the small model helpers it uses are wanted at start by others.
          includeDependenciesRecursively: false,
          // The expression engine (cel-js and the spec's CEL modules) in a chunk of its own: left to the
          // bundler, it shared a chunk with the data layer that every page loads at start, when only the
          // screens that evaluate a rule, a guard or a condition need it.
          groups: [
            { name: 'cel', test: /@marcbachmann[\\/]cel-js|packages[\\/]model[\\/]src[\\/]cel/ },
            // Mantine's inputs, which every form needs and no first screen of a list or a record: left to
            // the bundler, shared by several lazy screens, they landed in the chunk every page loads.
            {
              name: 'inputs',
              test: /@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:Input|InputBase|TextInput)[\\/]/,
            },
            // The names behind a list's references (and a filter's day pattern), which a dashboard's figures
            // and the date input read too: left to the bundler, shared by those screens, they were seven
            // small chunks, each a request before a list could ask for its rows (it drew 12% later).
            {
              name: 'reference-names',
              test: /src[\\/](?:list[\\/]useReferenceNames|form[\\/]query-keys|app[\\/]link-policy|fields[\\/]reference-access|fields[\\/]date-format)\.tsx?$|@mantine[\\/]hooks[\\/]esm[\\/](?:use-debounced-callback|use-callback-ref)|@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/](?:useQueries|queriesObserver)/,
            },
            // Every module the page imports at start, in one chunk: left to the bundler they were a dozen
            // small ones, each a request before the first screen could render.
            { name: 'initial', tags: ['$initial'] },
          ],
        },
      },
    },
  },
}));
