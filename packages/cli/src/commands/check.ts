import { parseArgs } from 'node:util';
import {
  type Coverage,
  type Issue,
  type LoadResult,
  loadSpec,
  POINT_KEYS,
  type PointKey,
} from '@ninefold/spec';
import { readSpecFile } from '../read-spec-file';
import { paint, type Terminal } from '../terminal';

export const CHECK_HELP = `Usage: ninefold check SPEC [--format text|json]

Checks a specification (nine-point Markdown, YAML or JSON) and reports every issue with
file:line:column, then the coverage of the nine points.

Options:
  --format text|json  text for people (default); json prints one JSON object and nothing else
  -h, --help          show this help

Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 the file could not be read or the
command was used wrongly.
`;

/** `ninefold check`: exit 0 clean, 1 errors, 2 unreadable. */
export async function check(args: string[], terminal: Terminal): Promise<number> {
  let parsed: ReturnType<typeof parseCheckArgs>;
  try {
    parsed = parseCheckArgs(args);
  } catch (error) {
    terminal.err(`ninefold check: ${(error as Error).message}\n\n${CHECK_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(CHECK_HELP);
    return 0;
  }
  const format = parsed.values.format;
  if (format !== 'text' && format !== 'json') {
    terminal.err(`ninefold check: --format must be text or json, not "${format}".\n`);
    return 2;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold check: give exactly one SPEC file.\n\n${CHECK_HELP}`);
    return 2;
  }

  const read = await readSpecFile(file);
  if (!read.ok) {
    if (format === 'json') {
      terminal.out(
        `${JSON.stringify({ coverage: null, issues: [{ code: 'unreadable-file', severity: 'error', message: read.message, file, line: null, column: null }] })}\n`,
      );
    }
    terminal.err(`ninefold check: ${read.message}\n`);
    return 2;
  }

  const result = loadSpec(read.text, { file });
  if (format === 'json') terminal.out(`${JSON.stringify(toJson(result, file))}\n`);
  else printText(result, file, terminal);
  return result.issues.some((issue) => issue.severity === 'error') ? 1 : 0;
}

function parseCheckArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      format: { type: 'string', default: 'text' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

function toJson(result: LoadResult, file: string) {
  return {
    coverage: result.coverage ? { shown: result.coverage.shown, notShown: result.coverage.notShown } : null,
    issues: result.issues.map((issue) => ({
      code: issue.code,
      severity: issue.severity,
      message: issue.message,
      file: issue.source?.file ?? file,
      line: issue.source?.line ?? null,
      column: issue.source?.column ?? null,
      ...(issue.hint === undefined ? {} : { hint: issue.hint }),
    })),
  };
}

function printText(result: LoadResult, file: string, terminal: Terminal): void {
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
