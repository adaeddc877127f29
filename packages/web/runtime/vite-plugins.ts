import type { Plugin } from 'vite';
import { brandStylesheet } from '../src/extension/brand-theme';
import type { ThemeOverride } from '../src/extension/types';
import { readExtensionTheme } from './extension-module';
import { themeStylesheet } from './theme-stylesheet';

/**
 * `import 'virtual:ninefold-theme.css'`: the theme's stylesheet, made from `src/app/theme.ts` at build,
 * and after it the brand of the team's extension module when there is one (docs/extending.md).
 */
const THEME_CSS = 'virtual:ninefold-theme.css';

export function themeStylesheetPlugin(extensionFile: string | undefined): Plugin {
  return {
    name: 'ninefold-theme-stylesheet',
    resolveId: (id) => (id === THEME_CSS ? `\0${THEME_CSS}` : undefined),
    async load(id) {
      if (id !== `\0${THEME_CSS}`) return undefined;
      // Reading the module's brand loads it in Node (`readExtensionTheme`), where no stylesheet is wanted:
      // asking again there would never end. The page's build and `dev`'s page load it for the browser.
      const forBrowser = this.environment?.config.consumer !== 'server';
      const brand = extensionFile && forBrowser ? await brandOf(extensionFile) : undefined;
      return themeStylesheet() + (brand ? brandStylesheet(brand as ThemeOverride) : '');
    },
  };
}

/**
 * The brand of a module, read once per build process: the client's build and the playground's each ask,
 * and each reading starts a Vite server and loads the module (1.2 s at best). Kept on `globalThis`
 * because Vite loads this file afresh for each build's config.
 */
function brandOf(file: string): Promise<Record<string, unknown> | undefined> {
  const store = globalThis as { ninefoldBrands?: Map<string, Promise<Record<string, unknown> | undefined>> };
  store.ninefoldBrands ??= new Map();
  let brand = store.ninefoldBrands.get(file);
  if (brand === undefined) {
    brand = readExtensionTheme(file);
    store.ninefoldBrands.set(file, brand);
  }
  return brand;
}

/**
 * `import('virtual:ninefold-extension')`: the team's extension module (docs/extending.md), at its
 * absolute path when the client is built with one; a module that exports none otherwise.
 */
const EXTENSION_MODULE = 'virtual:ninefold-extension';

export function extensionPlugin(extensionFile: string | undefined): Plugin {
  return {
    name: 'ninefold-extension',
    resolveId: (id) => (id === EXTENSION_MODULE ? (extensionFile ?? `\0${EXTENSION_MODULE}`) : undefined),
    load: (id) => (id === `\0${EXTENSION_MODULE}` ? 'export default undefined;\n' : undefined),
  };
}
