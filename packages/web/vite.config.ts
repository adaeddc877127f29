import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { readExtensionTheme } from './runtime/extension-module';
import { themeStylesheet } from './runtime/theme-stylesheet';
import { brandStylesheet } from './src/extension/brand-theme';
import type { ThemeOverride } from './src/extension/types';

/**
 * `import 'virtual:ninefold-theme.css'`: the theme's stylesheet, made from `src/app/theme.ts` at build,
 * and after it the brand of the team's extension module when there is one (docs/extending.md).
 */
const THEME_CSS = 'virtual:ninefold-theme.css';

function themeStylesheetPlugin(): Plugin {
  return {
    name: 'ninefold-theme-stylesheet',
    resolveId: (id) => (id === THEME_CSS ? `\0${THEME_CSS}` : undefined),
    load: async (id) => {
      if (id !== `\0${THEME_CSS}`) return undefined;
      const brand =
        extensionFile && !process.env.NINEFOLD_READING_EXTENSION
          ? await readExtensionTheme(extensionFile)
          : undefined;
      return themeStylesheet() + (brand ? brandStylesheet(brand as ThemeOverride) : '');
    },
  };
}

/**
 * `import('virtual:ninefold-extension')`: the team's extension module (docs/extending.md), named by its
 * absolute path in NINEFOLD_EXTENSION when `ensureRuntime` builds a client with one; none otherwise.
 */
const EXTENSION_MODULE = 'virtual:ninefold-extension';
const extensionFile = process.env.NINEFOLD_EXTENSION || undefined;

function extensionPlugin(): Plugin {
  return {
    name: 'ninefold-extension',
    resolveId: (id) => (id === EXTENSION_MODULE ? (extensionFile ?? `\0${EXTENSION_MODULE}`) : undefined),
    load: (id) => (id === `\0${EXTENSION_MODULE}` ? 'export default undefined;\n' : undefined),
  };
}

/**
 * The libraries an extension shares with the runtime: resolved from here whatever folder the team's
 * file is in, so that React, Mantine and the rest are bundled once (two Reacts would break hooks).
 */
const SHARED = [
  'react',
  'react-dom',
  '@mantine/core',
  '@mantine/hooks',
  '@tanstack/react-query',
  'react-hook-form',
];

// The runtime is built once and served for any specification: it fetches spec.json at start, so the
// same files work at any path (base './') on any static host.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react(), themeStylesheetPlugin(), extensionPlugin()],
  define: { __NINEFOLD_EXTENSION__: JSON.stringify(extensionFile !== undefined) },
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
    manifest: true,
    // One stylesheet with the page: a screen's own would be waited for before its code runs.
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only the engine: the small model helpers it uses are wanted at start by others.
          includeDependenciesRecursively: false,
          // The expression engine (cel-js and the spec's CEL modules) in a chunk of its own: left to the
          // bundler, it shared a chunk with the data layer that every page loads at start, when only the
          // screens that evaluate a rule, a guard or a condition need it.
          groups: [
            { name: 'cel', test: /@marcbachmann[\\/]cel-js|packages[\\/]spec[\\/]src[\\/]cel/ },
            // Mantine's inputs, which every form needs and no first screen of a list or a record: left to
            // the bundler, shared by several lazy screens, they landed in the chunk every page loads.
            {
              name: 'inputs',
              test: /@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:Input|InputBase|TextInput)[\\/]/,
            },
            // Every module the page imports at start, in one chunk: left to the bundler they were a dozen
            // small ones, each a request before the first screen could render.
            { name: 'initial', tags: ['$initial'] },
          ],
        },
      },
    },
  },
});
