import { relative } from 'node:path';
import type { DevIssue } from '@ninefold/server';
import { BUILD_DIR, type ExtensionProblem, problemOf } from '@ninefold/web/extension-module';

/**
 * A failed build as an issue: its first `file:line:column` that is the team's (Vite and TypeScript name
 * the place), and the words of the bundler's message, without its stack or the quoted source.
 */
export function buildIssue(error: Error, extension: string): DevIssue {
  return moduleIssue(problemOf(error, extension, BUILD_DIR), 'extension-build');
}

/**
 * A problem of the extension module as the dev page lists it: `extension-build` when the bundler cannot
 * read it, `extension-types` for a type error.
 */
export function moduleIssue(
  problem: ExtensionProblem,
  code: 'extension-build' | 'extension-types',
): DevIssue {
  const where = relative(process.cwd(), problem.file);
  const file = where.startsWith('..') ? problem.file : where;
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
