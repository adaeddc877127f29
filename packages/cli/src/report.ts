import { type Coverage, type Issue, type LoadResult, POINT_KEYS, type PointKey } from '@ninefold/model';
import { paint, type Terminal } from './terminal';

/** Every issue as `file:line:column  severity message (hint)  code`, a summary, and the coverage line. */
export function printReport(result: LoadResult, file: string, terminal: Terminal): void {
  for (const issue of result.issues) terminal.out(`${formatIssue(issue, file, terminal)}\n`);
  const errors = result.issues.filter((issue) => issue.severity === 'error').length;
  const warnings = result.issues.length - errors;
  if (result.issues.length > 0) {
    const summary = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
    terminal.out(`\n${paint(terminal, errors > 0 ? 'red' : 'yellow', summary)}\n`);
  }
  terminal.out(`${formatCoverage(result.coverage)}\n`);
}

function formatIssue(issue: Issue, file: string, terminal: Terminal): string {
  const where = issue.source ? `${issue.source.file}:${issue.source.line}:${issue.source.column}` : file;
  const severity = paint(terminal, issue.severity === 'error' ? 'red' : 'yellow', issue.severity.padEnd(7));
  const hint = issue.hint ? paint(terminal, 'dim', ` (${issue.hint})`) : '';
  return `${paint(terminal, 'bold', where)}  ${severity} ${issue.message}${hint}  ${paint(terminal, 'dim', issue.code)}`;
}

/** `coverage: 4 of 9 points shown (not shown: 4 states, 6 roles, 8 errors, 9 constants)` */
export function formatCoverage(coverage: Coverage | undefined): string {
  if (!coverage) return 'coverage: unknown (the specification could not be read)';
  const label = (key: PointKey) => `${POINT_KEYS.indexOf(key) + 1} ${key}`;
  const notShown = coverage.notShown.length ? ` (not shown: ${coverage.notShown.map(label).join(', ')})` : '';
  return `coverage: ${coverage.shown.length} of 9 points shown${notShown}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
