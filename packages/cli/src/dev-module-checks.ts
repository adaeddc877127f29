import { basename } from 'node:path';
import type { LoadResult } from '@ninefold/model';
import type { DevIssue, DevServer } from '@ninefold/server';
import { typeCheckExtension } from '@ninefold/web/extension-types';
import type { ModuleState, RuntimeError } from '@ninefold/web/module-client';
import { devIssues } from './dev-issues';
import { orphanIssues } from './extension-check';
import { moduleIssue, runtimeIssue, runtimeStack } from './module-issue';
import type { Terminal } from './terminal';

/** The issues the page shows besides the specification's: the extension module's. */
export interface ExtensionState {
  /** Why the bundler cannot read the module, when it cannot. */
  issues: DevIssue[];
  /** The specification's issues as last checked, kept so that a change of the module shows both. */
  specIssues?: DevIssue[];
  /** What the module names that the specification lacks, and the other way round (`orphanIssues`). */
  orphans: DevIssue[];
  /** The module's type errors, as `check` finds them. */
  types: DevIssue[];
  /** What the module's code threw in an open page since its last save, at its own lines. */
  runtime: DevIssue[];
  /** The module, when there is one, and the specification it was last held against. */
  file?: string;
  spec?: LoadResult;
}

/** Every issue the page shows: the specification's, the module's build and types, and the names that do not fit. */
export function allIssues(state: ExtensionState): DevIssue[] {
  return [...(state.specIssues ?? []), ...state.issues, ...state.runtime, ...state.types, ...state.orphans];
}

/**
 * Holds the module against the model again, as `check` would (without its type check), and says in the
 * terminal what no longer fits. Runs after each build and each change of the specification.
 */
export async function refreshOrphans(state: ExtensionState, terminal: Terminal): Promise<void> {
  if (state.file === undefined || state.spec === undefined) return;
  const found = await orphanIssues(state.spec, state.file).catch(() => []);
  const before = new Set(state.orphans.map((issue) => issue.message));
  state.orphans = devIssues({ issues: found }, state.file);
  for (const issue of state.orphans) {
    if (!before.has(issue.message)) terminal.err(`${issue.source}: ${issue.severity}: ${issue.message}\n`);
  }
}

/** The most runtime errors the page lists at once: the first are the ones to fix. */
const MAX_RUNTIME_ISSUES = 5;

/** The extension module's checks in `dev` (see {@link checksOf}). */
export interface ModuleChecks {
  /** A file of the module was saved (undefined: the first look at start), and how the bundler reads it. */
  changed(state: ModuleState, file: string | undefined): void;
  /**
   * The specification changed, and its watcher has held the module's names against it before the reload:
   * the module's types are checked again (they may read the names just written, SPEC.types.ts).
   */
  recheckTypes(): void;
  /** Code threw in an open page: said in the terminal, and in the page when it was the module's. */
  threw(error: RuntimeError): void;
  /** Resolves once the checks under way are done. */
  settled(): Promise<void>;
  /**
   * Ends the checks under way (the type checker's process) and runs no more: `dev` is stopping, and a
   * check of a loaded machine may take longer than a supervisor waits before it kills.
   */
  stop(): void;
}

/**
 * What `dev` tells the page and the terminal about the extension module. A save the bundler cannot
 * read is told at once; one it can clears that and is then held against the specification, its names
 * (a second) and its types (two or three), as `check` would. The page is told each outcome without a
 * reload. Only the newest save's slow checks run: a burst of saves skips those already stale.
 */
export function checksOf(
  state: ExtensionState,
  terminal: Terminal,
  serverOf: () => DevServer | undefined,
): ModuleChecks {
  let latest = 0;
  let queue: Promise<void> = Promise.resolve();
  const stopping = new AbortController();
  const tell = async () => {
    const server = serverOf();
    if (server === undefined) return;
    await server.update({ issues: allIssues(state) });
    server.showIssues();
  };
  /** Types, and the names unless the caller has just held them against the specification itself. */
  const deep = async (mine: number, names: boolean) => {
    if (state.file === undefined || mine !== latest || stopping.signal.aborted) return;
    const [, problems] = await Promise.all([
      names ? refreshOrphans(state, terminal) : undefined,
      typeCheckExtension(state.file, stopping.signal).catch(() => undefined),
    ]);
    if (mine !== latest || stopping.signal.aborted) return;
    const before = new Set(state.types.map((issue) => `${issue.source} ${issue.message}`));
    state.types = (problems ?? []).map((problem) => moduleIssue(problem, 'extension-types'));
    for (const issue of state.types) {
      if (!before.has(`${issue.source} ${issue.message}`))
        terminal.err(`${issue.source}: error: ${issue.message}\n`);
    }
    await tell();
  };
  /** The places that threw since the module's last save. */
  const thrown = new Set<string>();
  const run = (work: () => Promise<void>) => {
    queue = queue
      .then(work)
      .catch((error: Error) => terminal.err(`error while checking the extension: ${error.message}\n`));
  };
  return {
    changed(read, file) {
      const mine = ++latest;
      // A new version of the module has not thrown yet.
      state.runtime = [];
      thrown.clear();
      if (read.ok) {
        state.issues = [];
        if (file !== undefined) terminal.err(`${basename(file)} changed: the open pages have it.\n`);
      } else {
        const issue = moduleIssue(read.problem, 'extension-build');
        state.issues = [issue];
        // Its names and types would only repeat the same failure.
        state.types = [];
        state.orphans = [];
        terminal.err(`${issue.source}: ${issue.message}\n`);
      }
      // Told at once, not behind the last save's slower checks.
      void tell().catch(() => undefined);
      if (read.ok) run(() => deep(mine, true));
    },
    recheckTypes() {
      if (state.issues.length > 0) return;
      const mine = ++latest;
      run(() => deep(mine, false));
    },
    threw(error) {
      const issue = runtimeIssue(error);
      // A throw in a table's cell is one per row, each with its own value: one place, said once.
      const frame = error.frames[0];
      const key = `${error.what} ${issue?.source ?? (frame ? `${frame.file}:${frame.line}` : error.message)}`;
      if (thrown.has(key)) return;
      thrown.add(key);
      if (issue !== undefined && state.runtime.length < MAX_RUNTIME_ISSUES) {
        state.runtime = [...state.runtime, issue];
        void tell().catch(() => undefined);
      }
      const where = issue?.source === undefined ? '' : `${issue.source}: `;
      terminal.err(
        `${where}error: ${error.what} threw in the page: ${error.message}\n${runtimeStack(error)}`,
      );
    },
    settled: () => queue,
    stop: () => stopping.abort(),
  };
}
