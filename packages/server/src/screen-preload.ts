import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Model, type ScreenKind, screenAt } from '@ninefold/model';

/**
 * The module of the web runtime that holds each kind of screen, as its build manifest names it (the
 * runtime loads the same modules in `src/screens/registry.tsx`).
 */
export const SCREEN_MODULES: Record<ScreenKind, string> = {
  list: 'src/screens/ListScreen.tsx',
  detail: 'src/screens/DetailScreen.tsx',
  create: 'src/screens/FormScreen.tsx',
  edit: 'src/screens/FormScreen.tsx',
  dashboard: 'src/screens/DashboardScreen.tsx',
  'sign-in': 'src/screens/SignInScreen.tsx',
  custom: 'src/screens/CustomScreen.tsx',
};

/** The runtime's module that sets point 1's brand (see `src/main.tsx`). */
const BRAND_MODULE = 'src/extension/brand-theme.ts';

/**
 * The kinds of screen that draw with the stylesheet the page loads with; every other kind waits for the
 * later one (`mantine-later.css`), which the page then preloads beside the screen's code. The web
 * runtime's own set is `FIRST_STYLESHEET_KINDS` in its src/screens/first-stylesheet.ts; a test holds the
 * two equal.
 */
export const FIRST_STYLESHEET_KINDS: ReadonlySet<ScreenKind> = new Set(['list', 'dashboard']);
const LATER_STYLESHEET = /^assets\/mantine-later-[\w-]+\.css$/;

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/**
 * The `<link rel="modulepreload">` tags of the code of the screen at a path, for the page served there:
 * the browser fetches that screen's chunks beside the entry and the model, where the client would ask for
 * them only once the model has come and told it which screen the address is. A screen that waits for the
 * later stylesheet gets it preloaded too. Without the build's manifest
 * (an older build), or at an address of no screen, there are none.
 *
 * @example
 * ```ts
 * const preload = screenPreloads(await ensureRuntime(), model);
 * html.replace('</head>', `${preload('/orders')}</head>`);
 * ```
 */
export function screenPreloads(dir: string, model: Model): (path: string) => string {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return () => '';
  }
  // The client's page (the runtime's other page is the playground's).
  const entry = manifest['index.html'] ?? Object.values(manifest).find((chunk) => chunk.isEntry);
  // What the page names already: the entry and what it imports.
  const named = new Set<string>();
  const closure = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
  };
  const entryKey = Object.keys(manifest).find((key) => manifest[key] === entry);
  if (entryKey) closure(entryKey, named);
  const later = Object.values(manifest).find((chunk) => LATER_STYLESHEET.test(chunk.file))?.file;
  const byKind = new Map<ScreenKind, string>();
  const tagsOf = (kind: ScreenKind): string => {
    let tags = byKind.get(kind);
    if (tags === undefined) {
      const files = new Set<string>();
      closure(SCREEN_MODULES[kind], files);
      tags = [...files]
        .filter((file) => !named.has(file) && file.endsWith('.js'))
        .map((file) => `<link rel="modulepreload" crossorigin href="./${file}">`)
        .join('');
      if (later !== undefined && !FIRST_STYLESHEET_KINDS.has(kind))
        tags += `<link rel="preload" as="style" href="./${later}">`;
      byKind.set(kind, tags);
    }
    return tags;
  };
  // Point 1's brand is set before the first render by a module of its own: fetched beside the entry.
  const brand = model.product.shown && model.product.theme !== undefined ? brandTags() : '';
  function brandTags(): string {
    const files = new Set<string>();
    closure(BRAND_MODULE, files);
    return [...files]
      .filter((file) => !named.has(file) && file.endsWith('.js'))
      .map((file) => `<link rel="modulepreload" crossorigin href="./${file}">`)
      .join('');
  }
  return (path) => {
    const match = screenAt(model, path);
    return brand + (match ? tagsOf(match.screen.kind) : '');
  };
}
