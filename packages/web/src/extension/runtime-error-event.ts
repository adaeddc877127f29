/**
 * What the page tells `ninefold dev` when code throws in it, over the bundler's hot-reload socket. The
 * page sends the stack as the browser wrote it, at positions in the bundler's output; dev maps it back to
 * the team's own files and lines (`packages/web/runtime/module-client.ts`).
 */
export const RUNTIME_ERROR_EVENT = 'ninefold:runtime-error';

export interface RuntimeErrorReport {
  /** What threw, in the words of the page's notice: `the extension's Tool.rating's display`, `a screen`. */
  what: string;
  message: string;
  /** `Error.stack`, empty when what was thrown is not an Error. */
  stack: string;
}
