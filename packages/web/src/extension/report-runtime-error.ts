import { RUNTIME_ERROR_EVENT, type RuntimeErrorReport } from './runtime-error-event';

/**
 * Tells `ninefold dev` that code threw in the page, so that the terminal and the page's issues show it at
 * the team's own line. Does nothing in a build: `import.meta.hot` exists only under the bundler's dev
 * server, and a build drops this body.
 */
export function reportRuntimeError(what: string, error: unknown): void {
  if (!import.meta.hot) return;
  const report: RuntimeErrorReport = {
    what,
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? (error.stack ?? '') : '',
  };
  import.meta.hot.send(RUNTIME_ERROR_EVENT, report);
}
