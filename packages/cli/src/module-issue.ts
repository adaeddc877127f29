import { relative } from 'node:path';
import type { DevIssue } from '@ninefold/server';
import type { ExtensionProblem } from '@ninefold/web/extension-module';

/**
 * A problem of the extension module as the dev page lists it, at its `file:line:column` (relative to the
 * working folder when it is inside it): `extension-build` when the bundler cannot read it,
 * `extension-types` for a type error.
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
