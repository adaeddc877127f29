import type { DevIssue } from '@ninefold/model';

/** The codes of the issues that come from the extension module: its build, its types, and what it names. */
const EXTENSION_CODES: ReadonlySet<string> = new Set([
  'extension-build',
  'extension-types',
  'extension-runtime',
  'extension-error',
  'unknown-override',
  'missing-override',
]);

/**
 * The title of `ninefold dev`'s issues, by where they come from: a syntax error in the extension module
 * is not the specification's.
 *
 * @example
 * devIssuesTitle([{ severity: 'error', code: 'extension-build', message: '…' }]); // 'shell.devIssuesExtensionTitle'
 */
export function devIssuesTitle(
  issues: readonly DevIssue[],
): 'shell.devIssuesTitle' | 'shell.devIssuesExtensionTitle' | 'shell.devIssuesBothTitle' {
  const fromModule = issues.filter((issue) => EXTENSION_CODES.has(issue.code)).length;
  if (fromModule === 0) return 'shell.devIssuesTitle';
  return fromModule === issues.length ? 'shell.devIssuesExtensionTitle' : 'shell.devIssuesBothTitle';
}
