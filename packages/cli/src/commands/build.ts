import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describeApi, specPayload } from '@ninefold/model';
import { ensureRuntime } from '@ninefold/web/runtime';
import { parseCommandArgs } from '../args';
import { extensionFile } from '../extension-file';
import { loadSpecFile } from '../load-spec-file';
import {
  apiBaseProblem,
  headersFile,
  normalizeBasePath,
  redirectsFile,
  staticApiBase,
  staticIndexHtml,
  staticPolicies,
} from '../static-site';
import { paint, type Terminal } from '../terminal';

export const BUILD_HELP = `Usage: ninefold build SPEC --out DIR [options]
       ninefold build --playground --out DIR [options]

Writes the client of a specification as static files, deployable to any static host or CDN: the prebuilt
web runtime, the checked model as spec.json, an index.html carrying a strict Content-Security-Policy, and
_headers and _redirects for hosts that read them (Netlify, Cloudflare Pages).

Options:
  --out DIR         where to write; created if missing. An existing DIR must be empty or hold a previous
                    build (spec.json and index.html), whose files are replaced
  --api-base URL    where the client calls its API: an absolute http(s) URL, whose origin the policy then
                    allows, or a path (default: the specification's calls.baseUrl, else /api)
  --base PATH       the path the client is served under, e.g. /shop/ (default /)
  --root DIR        an OpenAPI document's $refs may read files in DIR only (default: its own folder)
  --client-id ID    the OAuth2 or OpenID Connect client id to sign in with (documents never name it)
  --sign-in SCHEME  the security scheme to sign in with, when the document has several
  --ui FILE         the team's extension module (TSX), bundled with the client; by default SPEC's name
                    with .ui.tsx (shop.ui.tsx beside shop.md), or ui/index.tsx beside SPEC, when there
                    is one. See docs/extending.md
  --playground      also write the playground (the nine points beside the client they describe, run in
                    the browser alone) at _/playground/; without SPEC, write the playground alone
  -h, --help        show this help

Exit codes: 0 written, 1 the specification has errors or the client could not be built, 2 the file could
not be read, DIR cannot be used, or the command was used wrongly.
`;

/** Files a build writes at the top of DIR, besides the runtime's own. */
const BUILD_FILES = ['index.html', 'playground.html', 'spec.json', '_headers', '_redirects'];
/** Where a client's playground is, as `ninefold serve` answers it. */
const PLAYGROUND_DIR = '_/playground';

/** `ninefold build`: exit 0 written, 1 spec errors or no runtime, 2 bad usage or unusable DIR. */
export async function build(args: string[], terminal: Terminal): Promise<number> {
  let parsed: ReturnType<typeof parseBuildArgs>;
  try {
    parsed = parseBuildArgs(args);
  } catch (error) {
    terminal.err(`ninefold build: ${(error as Error).message}\n\n${BUILD_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(BUILD_HELP);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined && parsed.values.playground && extra.length === 0) {
    return buildPlayground(parsed.values, terminal);
  }
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold build: give exactly one SPEC file.\n\n${BUILD_HELP}`);
    return 2;
  }
  const out = parsed.values.out;
  if (out === undefined || out === '') {
    terminal.err(`ninefold build: say where to write with --out DIR.\n\n${BUILD_HELP}`);
    return 2;
  }
  const base = normalizeBasePath(parsed.values.base);
  if (base === undefined) {
    terminal.err(
      `ninefold build: --base must be a path such as / or /shop/ (letters, digits, . _ ~ -), not "${parsed.values.base}".\n`,
    );
    return 2;
  }
  const flagBase = parsed.values['api-base'];
  if (flagBase !== undefined) {
    const problem = apiBaseProblem(flagBase);
    if (problem) {
      terminal.err(`ninefold build: --api-base "${flagBase}": ${problem}.\n`);
      return 2;
    }
  }

  const loaded = await loadSpecFile(file, 'build', terminal, {
    root: parsed.values.root,
    clientId: parsed.values['client-id'],
    signInScheme: parsed.values['sign-in'],
  });
  if (!loaded.ok) return loaded.exitCode;
  const model = loaded.result.model;
  const ui = await extensionFile(file, parsed.values.ui);
  if (!ui.ok) {
    terminal.err(`ninefold build: ${ui.message}\n`);
    return 2;
  }

  const refusal = await outputRefusal(out);
  if (refusal) {
    terminal.err(`ninefold build: ${refusal}\n`);
    return 2;
  }
  const apiBase = staticApiBase(model, flagBase);
  const baseProblem = apiBaseProblem(apiBase);
  if (baseProblem) {
    // Only the specification's calls.baseUrl can get here: the flag was checked above.
    terminal.err(`ninefold build: the specification's calls.baseUrl "${apiBase}": ${baseProblem}.\n`);
    return 1;
  }

  let runtime: string;
  try {
    runtime = await ensureRuntime({ log: (line) => terminal.err(`${line}\n`), extension: ui.file });
  } catch (error) {
    terminal.err(`ninefold build: ${(error as Error).message}\n`);
    return 1;
  }

  const policies = staticPolicies(apiBase, model.roles.shown ? model.roles.signIn : undefined);
  const target = resolve(out);
  await mkdir(target, { recursive: true });
  // A previous build's hashed assets would pile up: they are replaced as a whole.
  await rm(join(target, 'assets'), { recursive: true, force: true });
  const copied = await copyRuntime(runtime, target);
  const html = await readFile(join(runtime, 'index.html'), 'utf8');
  await writeFile(join(target, 'index.html'), staticIndexHtml(html, { base, metaPolicy: policies.meta }));
  const api = { ...describeApi(model), base: apiBase };
  await writeFile(join(target, 'spec.json'), `${JSON.stringify(specPayload(model, api))}\n`);
  await writeFile(join(target, '_headers'), headersFile(base, policies.header));
  await writeFile(join(target, '_redirects'), redirectsFile(base));
  await rm(join(target, '_'), { recursive: true, force: true });
  if (parsed.values.playground) {
    await mkdir(join(target, PLAYGROUND_DIR), { recursive: true });
    const page = await readFile(join(runtime, 'playground.html'), 'utf8');
    await writeFile(
      join(target, PLAYGROUND_DIR, 'index.html'),
      staticIndexHtml(page, { base, metaPolicy: policies.meta }),
    );
  }

  const shown = relative(process.cwd(), target) || '.';
  const title = model.title ?? 'an untitled specification';
  terminal.out(
    `${paint(terminal, 'bold', `Static client for ${title}`)} written to ${shown}/\n` +
      `  index.html   the page, with its Content-Security-Policy in a <meta> element (base ${base})\n` +
      `  spec.json    the checked model and ${api.calls.length} calls, made to ${apiBase}\n` +
      `  assets/      the web runtime (${copied.assets} files, cached forever: their names change with them)\n` +
      `  _headers     the full policy and cache rules, for Netlify and Cloudflare Pages\n` +
      `  _redirects   deep links answered with the page, for Netlify\n` +
      (parsed.values.playground
        ? `  ${PLAYGROUND_DIR}/  the playground: the specification's text beside its client, in the browser alone\n`
        : '') +
      `Serve ${shown}/ from any static host${base === '/' ? '' : ` under ${base}`}.\n`,
  );
  return 0;
}

/**
 * `ninefold build --playground` without SPEC: the playground alone, as the page at DIR's root, for any
 * static host. Its starting points are inside it; people open their own files, links and drafts.
 */
async function buildPlayground(
  values: ReturnType<typeof parseBuildArgs>['values'],
  terminal: Terminal,
): Promise<number> {
  const out = values.out;
  if (out === undefined || out === '') {
    terminal.err(`ninefold build: say where to write with --out DIR.\n\n${BUILD_HELP}`);
    return 2;
  }
  const base = normalizeBasePath(values.base);
  if (base === undefined) {
    terminal.err(`ninefold build: --base must be a path such as / or /play/, not "${values.base}".\n`);
    return 2;
  }
  const refusal = await outputRefusal(out);
  if (refusal) {
    terminal.err(`ninefold build: ${refusal}\n`);
    return 2;
  }
  let runtime: string;
  try {
    runtime = await ensureRuntime({ log: (line) => terminal.err(`${line}\n`) });
  } catch (error) {
    terminal.err(`ninefold build: ${(error as Error).message}\n`);
    return 1;
  }
  // The playground calls nothing but its own files: its API runs in the tab.
  const policies = staticPolicies('/');
  const target = resolve(out);
  await mkdir(target, { recursive: true });
  await rm(join(target, 'assets'), { recursive: true, force: true });
  const copied = await copyRuntime(runtime, target);
  const page = await readFile(join(runtime, 'playground.html'), 'utf8');
  await writeFile(join(target, 'index.html'), staticIndexHtml(page, { base, metaPolicy: policies.meta }));
  await writeFile(join(target, '_headers'), headersFile(base, policies.header));
  const shown = relative(process.cwd(), target) || '.';
  terminal.out(
    `${paint(terminal, 'bold', 'The Ninefold playground')} written to ${shown}/\n` +
      `  index.html   the page, with its Content-Security-Policy in a <meta> element (base ${base})\n` +
      `  assets/      the web runtime (${copied.assets} files)\n` +
      `  _headers     the full policy and cache rules, for Netlify and Cloudflare Pages\n` +
      `Serve ${shown}/ from any static host${base === '/' ? '' : ` under ${base}`}.\n`,
  );
  return 0;
}

/** Why DIR cannot be written to, or undefined: it must be new, empty, or a previous build. */
async function outputRefusal(out: string): Promise<string | undefined> {
  const info = await stat(out).catch(() => undefined);
  if (info === undefined) return undefined;
  if (!info.isDirectory()) return `${out} exists and is not a directory.`;
  const entries = await readdir(out);
  if (entries.length === 0) return undefined;
  if (entries.includes('spec.json') && entries.includes('index.html')) return undefined;
  // A previous playground built alone: its page, its assets and its headers, and no model.
  if (['index.html', 'assets', '_headers'].every((name) => entries.includes(name))) return undefined;
  return `${out} is not empty and holds no previous build (spec.json and index.html); choose a new or empty directory.`;
}

/** Copies the runtime's files, except its index.html (rewritten) and dotfiles (its build stamp). */
async function copyRuntime(runtime: string, target: string): Promise<{ assets: number }> {
  const entries = await readdir(runtime, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.') || BUILD_FILES.includes(entry.name)) continue;
    await cp(join(runtime, entry.name), join(target, entry.name), {
      recursive: true,
      filter: (source) =>
        !source
          .slice(runtime.length)
          .split(/[\\/]/)
          .some((part) => part.startsWith('.')),
    });
  }
  const assets = await readdir(join(target, 'assets')).catch(() => [] as string[]);
  return { assets: assets.length };
}

function parseBuildArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string', short: 'o' },
      'api-base': { type: 'string' },
      base: { type: 'string', default: '/' },
      help: { type: 'boolean', short: 'h', default: false },
      root: { type: 'string' },
      'client-id': { type: 'string' },
      'sign-in': { type: 'string' },
      ui: { type: 'string' },
      playground: { type: 'boolean', default: false },
    },
  });
}
