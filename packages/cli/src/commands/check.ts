import type { LoadResult } from '@ninefold/model';
import { parseCommandArgs } from '../args';
import { extensionIssues } from '../extension-check';
import { extensionFile } from '../extension-file';
import { loadAnySpec } from '../load-any-spec';
import { readSpecFile } from '../read-spec-file';
import { printReport } from '../report';
import { refreshSpecTypes } from '../spec-types-file';
import type { Terminal } from '../terminal';

export const CHECK_HELP = `Usage: ninefold check SPEC [--format text|json]

Checks a specification (nine-point Markdown, YAML or JSON, or an OpenAPI document, imported first)
and its extension module if it has one, and reports every issue with file:line:column, then the
coverage of the nine points.

Options:
  --format text|json  text for people (default); json prints one JSON object and nothing else
  --root DIR          an OpenAPI document's $refs may read files in DIR only (default: its own folder)
  --ui FILE           the extension module to check with SPEC (default: SPEC's name with .ui.tsx, or
                      ui/index.tsx, beside SPEC); its build and type errors, and every name it shares
                      with SPEC that one of the two no longer has
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

  const ui = await extensionFile(file, parsed.values.ui);
  if (!ui.ok) {
    terminal.err(`ninefold check: ${ui.message}\n`);
    return 2;
  }
  const loaded = loadAnySpec(read.text, file, { root: parsed.values.root });
  const fromExtension = await extensionIssues(loaded, ui.file);
  const result =
    fromExtension.length === 0
      ? loaded
      : {
          ...loaded,
          ok: loaded.ok && !fromExtension.some((issue) => issue.severity === 'error'),
          issues: [...loaded.issues, ...fromExtension],
        };
  if (format === 'json') terminal.out(`${JSON.stringify(toJson(result, file))}\n`);
  else printReport(result, file, terminal);
  // The names an extension is typed with follow the specification (docs/extending.md).
  if (loaded.ok && loaded.model) {
    const written = await refreshSpecTypes(file, loaded.model);
    if (written) terminal.err(`wrote ${written}: the specification's names changed\n`);
  }
  return result.issues.some((issue) => issue.severity === 'error') ? 1 : 0;
}

function parseCheckArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      format: { type: 'string', default: 'text' },
      help: { type: 'boolean', short: 'h', default: false },
      root: { type: 'string' },
      ui: { type: 'string' },
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
