import { isAbsolute, relative } from 'node:path';
import type { DevIssue } from '@ninefold/server';
import { type ExtensionProblem, isTeamFile } from '@ninefold/web/extension-module';
import type { RuntimeError } from '@ninefold/web/module-client';

/**
 * A problem of the extension module as the dev page lists it, at its `file:line:column` (relative to the
 * working folder when it is inside it): `extension-build` when the bundler cannot read it,
 * `extension-types` for a type error.
 */
export function moduleIssue(
  problem: ExtensionProblem,
  code: 'extension-build' | 'extension-types',
): DevIssue {
  const file = shown(problem.file);
  return {
    severity: 'error',
    code,
    message:
      code === 'extension-build'
        ? `The extension module could not be built: ${problem.message}`
        : `The extension module does not type-check: ${problem.message}`,
    source: problem.line === undefined ? file : `${file}:${problem.line}:${problem.column ?? 1}`,
  };
}

/**
 * Code that threw in an open page, as the dev page lists it: at the first frame in the team's own files,
 * or nothing when no frame is theirs (the client's own failure is the terminal's, not the module's).
 */
export function runtimeIssue(error: RuntimeError): DevIssue | undefined {
  const frame = error.frames.find((each) => isAbsolute(each.file) && isTeamFile(each.file));
  if (frame === undefined) return undefined;
  return {
    severity: 'error',
    code: 'extension-runtime',
    message: `${capitalize(error.what)} threw: ${error.message}`,
    source: `${shown(frame.file)}:${frame.line}:${frame.column}`,
  };
}

/** The stack of code that threw in the page, at the source files' lines, as the terminal prints it. */
export function runtimeStack(error: RuntimeError, frames = 8): string {
  return error.frames
    .slice(0, frames)
    .map((frame) => {
      const at = `${shown(frame.file)}:${frame.line}:${frame.column}`;
      return `    at ${frame.name === undefined ? at : `${frame.name} (${at})`}\n`;
    })
    .join('');
}

/** A file as the terminal and the page name it: relative to the working folder when inside it; a URL as it is. */
export function shown(file: string): string {
  if (!isAbsolute(file)) return file;
  const where = relative(process.cwd(), file);
  return where.startsWith('..') ? file : where;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
