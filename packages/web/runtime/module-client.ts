import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { SourceMapPayload } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViteDevServer } from 'vite';
import { RUNTIME_ERROR_EVENT } from '../src/extension/runtime-error-event';
import { claimDevCache } from './dev-cache';
import { type ExtensionProblem, isTeamFile, problemOf } from './extension-module';
import { BUILD_OUTPUTS } from './index';
import { mapStack, type ServedModule, type StackFrame } from './runtime-stack';

const WEB_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The paths of modules the bundler serves: files by their path, the client's sources, and resolved ids. */
const MODULE_PATH = /^\/(?:@fs|@id|src)\//;

/**
 * The module a URL of the bundler's names, as its own middleware reads it before transforming: a resolved
 * id (`/@id/__x00__virtual:…` is the virtual `\0virtual:…`) without the `import` query.
 */
function moduleId(url: string): string {
  const plain = url.replace(/([?&])import(?:&|$)/, '$1').replace(/[?&]$/, '');
  return plain.startsWith('/@id/') ? plain.slice('/@id/'.length).replace('__x00__', '\0') : plain;
}

/** How the extension module reads now: transformed as the page asks for it, or its first problem. */
export type ModuleState = { ok: true } | { ok: false; problem: ExtensionProblem };

export interface ModuleClientOptions {
  /** The team's extension module, by its path. */
  extension: string;
  /** The dev server's listener: hot module replacement shares its port (and so its policy's `'self'`). */
  server: Server;
  /** Which page a request asks for (`index.html`, `playground.html`), or undefined when it is no page. */
  pageOf: (path: string, accept: string | undefined) => 'index.html' | 'playground.html' | undefined;
  /** The headers of a page, given the hashes (`sha256-…`) of the inline scripts the bundler put in it. */
  pageHeaders: (scriptHashes: string[]) => Record<string, string>;
  /** A file of the module's (it or one it imports) was saved: how the module reads now. */
  onChange: (state: ModuleState, file: string) => void;
  /** Code threw in an open page: what, and where in the source files (mapped through the bundler's maps). */
  onRuntimeError?: (error: RuntimeError) => void;
}

/** Code that threw in the page, as `reportRuntimeError` told it, with its stack at the source's lines. */
export interface RuntimeError {
  what: string;
  message: string;
  frames: StackFrame[];
}

export interface ModuleClient {
  /** Answers the page and the modules; calls `next` for what is not the client's. */
  handle(request: IncomingMessage, response: ServerResponse, next: () => void): void;
  /** Transforms the module as the page would ask for it, for its first problem. */
  state(): Promise<ModuleState>;
  close(): Promise<void>;
}

/**
 * Serves the client from its sources with the team's extension module, through Vite's dev server in
 * middleware mode: each module is transformed when the page asks for it, and an edit of the extension
 * reaches the open page by hot module replacement (main.tsx swaps the new module in, keeping the page's
 * state) instead of a new build of the whole client (8 to 20 s). The production build is unchanged
 * (`ensureRuntime`). Vite's own overlay is off: a problem is told through `onChange`, and the page lists
 * it with the specification's issues.
 */
export async function startModuleClient(options: ModuleClientOptions): Promise<ModuleClient> {
  const extension = resolve(options.extension);
  const { createServer, searchForWorkspaceRoot } = await import('vite');
  // vite.config.ts names the module by this variable, as a build's process does.
  process.env.NINEFOLD_EXTENSION = extension;
  const cache = await claimDevCache(join(WEB_DIR, 'node_modules/.vite-dev'));
  const vite: ViteDevServer = await createServer({
    configFile: join(WEB_DIR, 'vite.config.ts'),
    // Bundled, as a build loads it: the config's plugins read the module's brand later, from a page's
    // request, by starting a server of their own, which the runner loader's closed runner cannot import.
    root: WEB_DIR,
    mode: 'development',
    logLevel: 'silent',
    appType: 'custom',
    // Its own prepared packages: `check`'s reading of the module (extension-module.ts) prepares only React
    // in the default folder, and a page whose prepared packages vanish under it fails to load a screen.
    cacheDir: cache.dir,
    server: {
      middlewareMode: true,
      hmr: { server: options.server, overlay: false },
      // A build of the client beside it (`serve --ui` or `build`, in another terminal) writes its pages
      // under this root: seen as edits, they reloaded the open page and lost what was typed in it.
      watch: { ignored: BUILD_OUTPUTS.map((dir) => `${dir.replaceAll('\\', '/')}/**`) },
      // The team's folder is outside the client's: its files are served under /@fs/.
      fs: { allow: [searchForWorkspaceRoot(WEB_DIR), dirname(extension)] },
    },
  }).catch(async (error: unknown) => {
    await cache.release();
    throw error;
  });
  const moduleUrl = `/@fs${extension.startsWith('/') ? '' : '/'}${extension.replaceAll('\\', '/')}`;
  listenForRuntimeErrors(vite, options.onRuntimeError);

  const transformed = async (file: string, url: string): Promise<ModuleState> => {
    // Vite drops the file's transform on the same change event; dropped here too, so that this reads the
    // saved text whichever listener runs first.
    for (const module of vite.moduleGraph.getModulesByFile(file) ?? [])
      vite.moduleGraph.invalidateModule(module);
    try {
      await vite.transformRequest(url);
      return { ok: true };
    } catch (error) {
      return { ok: false, problem: problemOf(error, file) };
    }
  };
  vite.watcher.add(extension);
  vite.watcher.on('change', (changed) => {
    const file = resolve(changed);
    if (!isTeamFile(file)) return;
    const url =
      file === extension
        ? moduleUrl
        : (vite.moduleGraph.getModulesByFile(file)?.values().next().value?.url ?? `/@fs${file}`);
    void transformed(file, url).then((state) => options.onChange(state, file));
  });

  const page = async (
    name: 'index.html' | 'playground.html',
    request: IncomingMessage,
    response: ServerResponse,
  ) => {
    try {
      const html = await vite.transformIndexHtml(
        request.url ?? '/',
        await readFile(join(WEB_DIR, name), 'utf8'),
      );
      response.writeHead(200, {
        ...options.pageHeaders(inlineScriptHashes(html)),
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
      });
      response.end(html);
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`The page could not be made from the client's sources: ${(error as Error).message}\n`);
    }
  };

  return {
    handle(request, response, next) {
      vite.middlewares(request, response, () => {
        const url = request.url ?? '/';
        const path = url.split('?')[0] ?? '/';
        // A module the bundler could not transform (a syntax error): in middleware mode it logs the error
        // and passes the request on, which would make a 404 of it. Asked again, for its words and a 500.
        if (MODULE_PATH.test(path)) {
          void vite.transformRequest(moduleId(url)).then(
            () => next(),
            (error: unknown) => {
              // A file that is not there stays a 404.
              if ((error as { code?: string }).code === 'ERR_LOAD_URL') return next();
              response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
              response.end(error instanceof Error ? error.message : String(error));
            },
          );
          return;
        }
        const name =
          request.method === 'GET' || request.method === 'HEAD'
            ? options.pageOf(path, request.headers.accept)
            : undefined;
        if (name === undefined) next();
        else void page(name, request, response);
      });
    },
    state: () => transformed(extension, moduleUrl),
    close: async () => {
      try {
        await vite.close();
      } finally {
        await cache.release();
      }
    },
  };
}

/**
 * The SHA-256 of each inline script in a page, as a policy names it: the bundler's dev page has one (the
 * React refresh preamble), which a policy without `'unsafe-inline'` must allow by its exact text.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc\s*=/i.test(attributes) || body === '') continue;
    hashes.push(`sha256-${createHash('sha256').update(body).digest('base64')}`);
  }
  return hashes;
}

/** The longest message and stack a page's report is read to: past that it is noise, or not a page's. */
const MAX_REPORT_CHARS = 20_000;

/** Maps the stacks the page reports (`reportRuntimeError`) through the bundler's maps of what it served. */
function listenForRuntimeErrors(vite: ViteDevServer, onRuntimeError: ModuleClientOptions['onRuntimeError']) {
  if (onRuntimeError === undefined) return;
  const graph = vite.environments.client.moduleGraph;
  const served = async (url: string): Promise<ServedModule | undefined> => {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (parsed === undefined) return undefined;
    const module = await graph.getModuleByUrl(parsed.pathname + parsed.search);
    if (!module?.file) return undefined;
    const map = module.transformResult?.map;
    if (!map || !('version' in map)) return { file: module.file };
    const payload: SourceMapPayload = {
      version: map.version,
      file: map.file ?? module.file,
      sourceRoot: '',
      sources: map.sources,
      sourcesContent: [],
      names: map.names,
      mappings: map.mappings,
    };
    return { file: module.file, map: payload };
  };
  vite.environments.client.hot.on(RUNTIME_ERROR_EVENT, (data: unknown) => {
    const report = data as Partial<Record<'what' | 'message' | 'stack', unknown>> | null;
    if (typeof report !== 'object' || report === null) return;
    const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, MAX_REPORT_CHARS) : '');
    void mapStack(text(report.stack), served).then(
      (frames) => onRuntimeError({ what: text(report.what), message: text(report.message), frames }),
      () => undefined,
    );
  });
}
