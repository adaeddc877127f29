import { basename } from 'node:path';
import {
  contentSecurityPolicy,
  DEV_DEFAULT_PORT,
  type DevApi,
  type DevServer,
  databaseProblem,
  databaseUrl,
  describeDatabase,
  PLAYGROUND_PATH,
  parseProxyTarget,
  parseUserOption,
  securityHeaders,
  signInOption,
  startDevServer,
  type UserRequest,
  wantsClientPage,
} from '@ninefold/server';
import { type ModuleClient, startModuleClient } from '@ninefold/web/module-client';
import { ensureRuntime } from '@ninefold/web/runtime';
import { parseCommandArgs } from '../args';
import { devIssues } from '../dev-issues';
import {
  allIssues,
  checksOf,
  type ExtensionState,
  type ModuleChecks,
  refreshOrphans,
} from '../dev-module-checks';
import { extensionFile, UI_OPTION_HELP } from '../extension-file';
import { type LoadAnyOptions, loadAnySpec } from '../load-any-spec';
import { loadSpecFile } from '../load-spec-file';
import { readSpecFile } from '../read-spec-file';
import { printReport } from '../report';
import { refreshSpecTypes } from '../spec-types-file';
import { listenForStop } from '../stop-signals';
import { paint, type Terminal } from '../terminal';
import { usersBanner } from '../users-banner';
import { watchFile } from '../watch-file';

export const DEV_HELP = `Usage: ninefold dev SPEC [options]

Serves the client of a specification while you write it, with the prototype API on a real database (as
ninefold serve does) or, with --api, a proxy to a real API. Watches SPEC: on each change it checks it
again and prints the issues, serves the new model, and reloads the open pages. While SPEC has errors the
last good model keeps running and the page shows the issues. Prints its URL when ready; Ctrl-C (SIGINT)
or SIGTERM stops it cleanly.

Options:
  --api URL             forward /api/* to this API (its origin and path prefix, nothing else) instead of
                        serving the prototype API, e.g. --api https://api.example.com/v1
  --db URL              the prototype API's database, as for serve (default: SQLite next to SPEC)
  --port P              port to listen on (default ${DEV_DEFAULT_PORT}; 0 picks a free one)
  --host H              address to listen on (default 127.0.0.1)
  --seed N              fill each empty entity with N generated records at start, and make a demo user
                        per role of point 6 with a new password at each start
  --user EMAIL:ROLE[:NAME=VALUE,...]
                        create a user of point 6's sign-in if missing (repeatable), as for serve
  --allow-destructive   apply schema changes that drop or narrow stored data
  --root DIR            an OpenAPI document's $refs may read files in DIR only (default: its own folder)
  --client-id ID        the OAuth2 or OpenID Connect client id to sign in with (documents never name it)
  --sign-in SCHEME      the security scheme to sign in with, when the document has several
${UI_OPTION_HELP}; served from its source, an edit
                        replaces it in the open pages without a reload
  -h, --help            show this help

Exit codes: 0 stopped cleanly, 1 the specification has errors or the server could not start, 2 the file
could not be read or the command was used wrongly.
`;

/** `ninefold dev`: runs until SIGINT or SIGTERM, reloading the specification on every change. */
export async function dev(
  args: string[],
  terminal: Terminal,
  signals: NodeJS.EventEmitter = process,
): Promise<number> {
  let parsed: ReturnType<typeof parseDevArgs>;
  try {
    parsed = parseDevArgs(args);
  } catch (error) {
    terminal.err(`ninefold dev: ${(error as Error).message}\n\n${DEV_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(DEV_HELP);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold dev: give exactly one SPEC file.\n\n${DEV_HELP}`);
    return 2;
  }
  const numbers: Record<string, number | undefined> = {};
  for (const name of ['port', 'seed'] as const) {
    const text = parsed.values[name];
    if (text === undefined) continue;
    if (!/^\d{1,10}$/.test(text)) {
      terminal.err(`ninefold dev: --${name} must be a whole number, not "${text}".\n`);
      return 2;
    }
    numbers[name] = Number(text);
  }
  if (numbers.port !== undefined && numbers.port > 65535) {
    terminal.err('ninefold dev: --port must be at most 65535.\n');
    return 2;
  }
  const dbProblem = databaseProblem(parsed.values.db);
  if (dbProblem) {
    terminal.err(`ninefold dev: ${dbProblem}\n`);
    return 2;
  }
  const apiUrl = parsed.values.api;
  let api: DevApi;
  if (apiUrl !== undefined) {
    const prototypeOnly = [
      ...(parsed.values.db === undefined ? [] : ['db']),
      ...(parsed.values.seed === undefined ? [] : ['seed']),
      ...(parsed.values['allow-destructive'] ? ['allow-destructive'] : []),
    ];
    if (prototypeOnly.length > 0) {
      terminal.err(
        `ninefold dev: ${prototypeOnly.map((name) => `--${name}`).join(', ')} concern the prototype API, which --api replaces.\n`,
      );
      return 2;
    }
    const target = parseProxyTarget(apiUrl);
    if (!target.ok) {
      terminal.err(`ninefold dev: --api: ${target.message}\n`);
      return 2;
    }
    api = { kind: 'proxy', target: target.target };
  } else {
    api = {
      kind: 'prototype',
      db: databaseUrl(parsed.values.db, file),
      seed: numbers.seed,
      allowDestructive: parsed.values['allow-destructive'],
    };
  }

  const loaded = await loadSpecFile(file, 'dev', terminal, {
    root: parsed.values.root,
    clientId: parsed.values['client-id'],
    signInScheme: parsed.values['sign-in'],
  });
  if (!loaded.ok) return loaded.exitCode;
  const ui = await extensionFile(file, parsed.values.ui);
  if (!ui.ok) {
    terminal.err(`ninefold dev: ${ui.message}\n`);
    return 2;
  }
  if (parsed.values.user?.length) {
    if (api.kind === 'proxy') {
      terminal.err(
        'ninefold dev: --user makes users of the prototype API; with --api the real API has its own.\n',
      );
      return 2;
    }
    const users: UserRequest[] = [];
    for (const text of parsed.values.user) {
      const user = parseUserOption(text, loaded.result.model);
      if (!user.ok) {
        terminal.err(`ninefold dev: ${user.message}\n`);
        return 2;
      }
      users.push(user.user);
    }
    api = { ...api, users };
  }
  const stop = listenForStop(signals);
  const log = (line: string) => terminal.err(`${line}\n`);
  try {
    // The extension module's problems, shown in the page beside the specification's issues until fixed.
    const extensionState: ExtensionState = {
      issues: [],
      orphans: [],
      types: [],
      runtime: [],
      ...(ui.file ? { file: ui.file } : {}),
      spec: loaded.result,
    };
    const uiFile = ui.file;
    let clientDir: string | undefined;
    try {
      // Without a module the built client is served; with one, the client's sources through the bundler.
      if (uiFile === undefined) clientDir = await ensureRuntime({ log, allowPrevious: true });
    } catch (error) {
      terminal.err(`ninefold dev: ${(error as Error).message}\n`);
      return 1;
    }
    if (stop.received) return 0;
    extensionState.specIssues = devIssues(loaded.result, file);
    let server: DevServer | undefined;
    let moduleClient: ModuleClient | undefined;
    const moduleChecks = uiFile === undefined ? undefined : checksOf(extensionState, terminal, () => server);
    const started = await startDevServer({
      model: loaded.result.model,
      issues: allIssues(extensionState),
      ...(uiFile === undefined
        ? { clientDir }
        : {
            front: async (listener) => {
              moduleClient = await startModuleClient({
                extension: uiFile,
                server: listener,
                pageOf: (path, accept) =>
                  path === PLAYGROUND_PATH
                    ? 'playground.html'
                    : wantsClientPage(path, accept)
                      ? 'index.html'
                      : undefined,
                pageHeaders: (scriptHashes) =>
                  securityHeaders(
                    contentSecurityPolicy({
                      scriptHashes,
                      ...signInOption(extensionState.spec?.model ?? loaded.result.model),
                    }),
                  ),
                onChange: (state, changed) => moduleChecks?.changed(state, changed),
                onRuntimeError: (error) => moduleChecks?.threw(error),
              });
              return moduleClient;
            },
          }),
      api,
      host: parsed.values.host,
      port: numbers.port,
      log,
    });
    if (!started.ok) {
      terminal.err(`ninefold dev: ${started.message}\n`);
      return 1;
    }
    server = started.server;
    // Reading and type-checking the module take a second or three: the server does not wait for them, and
    // an open page is told what they find.
    if (moduleClient !== undefined) {
      const first = moduleClient;
      void first.state().then((state) => moduleChecks?.changed(state, undefined));
    }
    const title = loaded.result.model.title ?? 'an untitled specification';
    const backend =
      api.kind === 'proxy'
        ? `a proxy to ${api.target.origin}${api.target.path}`
        : `the prototype API on ${describeDatabase(api.db)}`;
    const calls = api.kind === 'proxy' ? `forwarded to ${api.target.origin}${api.target.path}` : 'the calls';
    terminal.out(
      `${paint(terminal, 'bold', `Ninefold dev for ${title}`)}: the client and ${backend}\n` +
        `  ${server.url}  (the client)\n` +
        `  ${server.url}api  (${calls}; the model at /spec.json)\n` +
        (uiFile
          ? `Watching ${basename(file)} and its extension ${basename(uiFile)}: open pages reload when the specification changes, and take the extension's edits in place.\n`
          : `Watching ${basename(file)}: open pages reload when it changes.\n`) +
        // In the same write as the URL, so that whoever waits for the URL also has the secrets.
        (server.users ? usersBanner(server.users, loaded.result.model) : ''),
    );

    const watcher = watchSpec(file, server, terminal, extensionState, moduleChecks, {
      root: parsed.values.root,
      clientId: parsed.values['client-id'],
      signInScheme: parsed.values['sign-in'],
    });
    const signal = await stop.wait();
    terminal.err(`\n${signal}: closing the pages' connections, the server and the database…\n`);
    await watcher.close();
    moduleChecks?.stop();
    await moduleChecks?.settled();
    await server.close();
    terminal.err('stopped.\n');
    return 0;
  } finally {
    stop.dispose();
  }
}

function watchSpec(
  file: string,
  server: DevServer,
  terminal: Terminal,
  extension: ExtensionState,
  checks: ModuleChecks | undefined,
  options: LoadAnyOptions,
) {
  // Unknown at first, so that a change between the first load and the watch is never missed.
  let lastText: string | undefined;
  let queue: Promise<void> = Promise.resolve();
  const handle = async () => {
    const read = await readSpecFile(file);
    if (!read.ok) {
      // Mid-save (the file renamed away for a moment) or deleted: say so, keep serving.
      terminal.err(`${basename(file)}: ${read.message} Still serving the last good model.\n`);
      extension.specIssues = [
        { severity: 'error', code: 'unreadable-file', message: read.message, source: file },
      ];
      await server.update({ issues: allIssues(extension) });
      lastText = undefined;
      server.reload();
      return;
    }
    if (read.text === lastText) return;
    lastText = read.text;
    // The same loader as the first load, so an OpenAPI document is imported again, within its root.
    const result = loadAnySpec(read.text, file, options);
    const stamp = new Date().toTimeString().slice(0, 8);
    terminal.err(`\n${paint(terminal, 'dim', stamp)} ${basename(file)} changed\n`);
    printReport(result, file, { ...terminal, out: terminal.err });
    const model = result.ok ? result.model : undefined;
    if (model) {
      const written = await refreshSpecTypes(file, model).catch(() => undefined);
      if (written) terminal.err(`wrote ${basename(written)}: the specification's names changed\n`);
      extension.spec = result;
      await refreshOrphans(extension, terminal);
    }
    extension.specIssues = devIssues(result, file);
    const outcome = await server.update({ model, issues: allIssues(extension) });
    if (model === undefined) {
      terminal.err('It has errors: the last good model keeps running, and the page shows the issues.\n');
    } else if (!outcome.ok) {
      terminal.err(`The new model is not served: ${outcome.message}\n`);
    } else if (outcome.rebuilt) {
      terminal.err('Serving the new model.\n');
    }
    server.reload();
    // The module's types may read the names just written (SPEC.types.ts).
    if (model) checks?.recheckTypes();
  };
  const watcher = watchFile(file, () => {
    queue = queue
      .then(handle)
      .catch((error: Error) => terminal.err(`error while reloading: ${error.message}\n`));
  });
  return {
    async close() {
      watcher.close();
      await queue;
    },
  };
}

function parseDevArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      api: { type: 'string' },
      db: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      user: { type: 'string', multiple: true },
      'allow-destructive': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      root: { type: 'string' },
      'client-id': { type: 'string' },
      'sign-in': { type: 'string' },
      ui: { type: 'string' },
    },
  });
}
