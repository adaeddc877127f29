import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtensionNames } from '@ninefold/model';
import { isComponent } from '../src/extension/is-component';

const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));
const READING_STUB = join(WEB_DIR, 'src/extension/reading-stub.ts');

/**
 * The libraries an extension shares with the runtime: resolved from here whatever folder the team's
 * file is in, so that React, Mantine and the rest are bundled once (two Reacts would break hooks).
 */
export const SHARED = [
  'react',
  'react-dom',
  '@mantine/core',
  '@mantine/hooks',
  '@tanstack/react-query',
  'react-hook-form',
];
/** Where the bundler of `ensureRuntime` runs: the paths in its messages are relative to it. */
export const BUILD_DIR = WEB_DIR;

/** A problem in the team's extension module, where it is. */
export interface ExtensionProblem {
  message: string;
  file: string;
  line?: number;
  column?: number;
}

export type ExtensionRead =
  | {
      ok: true;
      names: ExtensionNames;
      /** The team's files the module is made of (it and what it imports), for positions and watching. */
      files: string[];
    }
  | { ok: false; problem: ExtensionProblem };

/**
 * Loads an extension module as the client would bundle it (Vite, the same config and aliases), in Node,
 * and reads the names its default export gives: what `check` holds against the specification. Its
 * components are not rendered, only defined. A module that does not build or throws while loading is a
 * problem at its `file:line:column`.
 */
export async function readExtensionModule(file: string): Promise<ExtensionRead> {
  const path = resolve(file);
  const server = await moduleServer();
  try {
    let module: Record<string, unknown>;
    try {
      module = (await server.ssrLoadModule(path)) as Record<string, unknown>;
    } catch (error) {
      return { ok: false, problem: problemOf(error, path) };
    }
    const files = [...server.moduleGraph.idToModuleMap.keys()]
      .map((id) => id.split('?')[0] ?? id)
      .filter((id) => isAbsolute(id) && !id.includes('node_modules') && !id.startsWith(join(WEB_DIR, '..')));
    const value = module.default;
    if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) {
      return {
        ok: false,
        problem: { message: 'its default export is not the object defineExtension returns', file: path },
      };
    }
    return {
      ok: true,
      names: namesOf(value as Record<string, unknown>),
      files: [...new Set([path, ...files])],
    };
  } finally {
    await server.close();
  }
}

/**
 * A Vite server that loads a module in Node as the client's build transforms it (TypeScript, JSX with
 * React's automatic runtime, the define the client's code reads), with `@ninefold/web/extension` as its
 * exports alone (`reading-stub.ts`): what is read is the default export, never rendered. The client's
 * own config is not loaded, nor its sources transformed: they were two seconds each of every read.
 */
async function moduleServer() {
  const { createServer } = await import('vite');
  return createServer({
    configFile: false,
    root: WEB_DIR,
    logLevel: 'silent',
    define: { __NINEFOLD_EXTENSION__: 'true' },
    oxc: { jsx: { runtime: 'automatic' } },
    // A team's folder has no React of its own: its JSX runtime and the libraries it shares come from here.
    resolve: { alias: { '@ninefold/web/extension': READING_STUB }, dedupe: SHARED },
    server: { middlewareMode: true, hmr: false, watch: null },
    appType: 'custom',
    optimizeDeps: { noDiscovery: true, include: [] },
  });
}

/**
 * The brand an extension module states (`theme`), read when the client is built, so that it is a
 * stylesheet rather than code the page runs. Undefined when it states none, or cannot be loaded here
 * (the client then reports the module's own failure when it loads it).
 */
export async function readExtensionTheme(file: string): Promise<Record<string, unknown> | undefined> {
  const server = await moduleServer();
  try {
    const module = (await server.ssrLoadModule(resolve(file))) as { default?: { theme?: unknown } };
    const theme = module.default?.theme;
    return typeof theme === 'object' && theme !== null ? (theme as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  } finally {
    await server.close();
  }
}

/** The model-facing names of an extension object (see `ExtensionNames` in packages/model). */
export function namesOf(extension: Record<string, unknown>): ExtensionNames {
  const record = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  const fields = record(extension.fields);
  const slots: ExtensionNames['slots'] = [];
  for (const [slot, value] of Object.entries(record(extension.slots))) {
    if (isComponent(value)) slots.push({ slot });
    else for (const key of Object.keys(record(value))) slots.push({ slot, key });
  }
  return {
    fields: Object.keys(record(fields.fields)),
    kinds: Object.keys(record(fields.kinds)),
    widgets: Object.keys(record(fields.widgets)),
    screens: Object.keys(record(extension.screens)),
    slots,
    actions: Object.entries(record(extension.actions)).map(([name, value]) => {
      const action = record(value);
      return {
        name,
        ...(typeof action.entity === 'string' ? { entity: action.entity } : {}),
        ...(typeof action.call === 'string' ? { call: action.call } : {}),
        hasBody: typeof action.body === 'function',
        hasRun: typeof action.run === 'function',
      };
    }),
  };
}

/**
 * Vite's and the bundler's errors name their place in the message (relative to `base`, where the
 * bundler ran) or in `loc`; the stack and the quoted source lines are left out.
 */
export function problemOf(error: unknown, file: string, base: string = process.cwd()): ExtensionProblem {
  const raw = error instanceof Error ? error.message : String(error);
  const text = raw.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
  const loc = (error as { loc?: { file?: string; line?: number; column?: number } }).loc;
  // The first place in the team's files: a message may also name the client's own (a config warning).
  const places = [...text.matchAll(/((?:[A-Za-z]:)?[^\s:()'"[\]]+\.(?:tsx|ts|jsx|js|css)):(\d+):(\d+)/g)];
  const place = places.find((match) => isTeamFile(resolve(base, match[1] ?? ''))) ?? places[0];
  const where =
    loc?.line !== undefined
      ? { file: loc.file ?? file, line: loc.line, column: (loc.column ?? 0) + 1 }
      : place
        ? {
            file: placeFile(place[1] ?? file, (error as { id?: string }).id, base),
            line: Number(place[2]),
            column: Number(place[3]),
          }
        : { file: (error as { id?: string }).id ?? file };
  const lines = text
    .split('\n')
    .map((line) => line.replace(/[\u2500-\u257f]+/g, ' ').trim())
    .filter(
      (line) =>
        line !== '' &&
        !/^at\s/.test(line) &&
        !/^\[?\s*[\w./-]+:\d+:\d+\s*\]?$/.test(line) &&
        !/^\d+\s/.test(line) &&
        // The bundler's and Node's own framing of the failure, not what is wrong.
        !/^(?:Node\.js v|errors: |\}$|\^$|the web client could not be built|✗ Build failed|Build failed with|Transform failed with|node:internal|triggerUncaughtException|file:\/\/|at )/.test(
          line,
        ),
    );
  return { message: lines.slice(0, 3).join(' ') || 'it could not be loaded', ...where };
}

/** The file a message names, relative to where the process runs; the module's own id when it is that one. */
function placeFile(named: string, id: string | undefined, base: string): string {
  const path = resolve(base, named);
  if (id && !id.startsWith('\0') && resolve(id).endsWith(named.replace(/^(\.\.\/)+/, '/')))
    return resolve(id);
  return path;
}

/** A file of the team's, not of the client's own sources or of a package. */
export function isTeamFile(file: string): boolean {
  return !file.includes('node_modules') && !resolve(file).startsWith(join(WEB_DIR, '..'));
}
