import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isDatabaseSource, isPostgresUrl, withoutPassword } from '@ninefold/database/source';
import { toDocument, toMarkdown, yamlText } from '@ninefold/model';
import { formatImportReport, type ImportReport, importReportText, looksLikeOpenApi } from '@ninefold/openapi';
import { parseCommandArgs } from '../args';
import { type AnySpecResult, loadAnySpec } from '../load-any-spec';
import { readSpecFile } from '../read-spec-file';
import { printReport } from '../report';
import type { Terminal } from '../terminal';
import { writeOutput } from '../write-output';

/** Lines of the report under each point that a terminal is shown; the rest are counted. */
const TERMINAL_ENTRIES = 12;
/** A report this long or shorter is printed whole. */
const SUMMED_UP_PAST_LINES = 100;

export const IMPORT_HELP = `Usage: ninefold import OPENAPI|DATABASE [-o OUT] [--format yaml|markdown] [--report FILE|all]

Imports an OpenAPI 2.0, 3.0 or 3.1 document (JSON or YAML, one file or several joined by $ref), or an
existing database (postgres://… or a SQLite file, read and never written), into a nine-point
specification in YAML or Markdown, which a person can then read and edit. Prints the import report:
what was inferred rather than read, what was left not shown, and what was skipped, each with a JSON
pointer into the document (or /schema/table/column). A report longer than ${SUMMED_UP_PAST_LINES} lines is summed up, at most
${TERMINAL_ENTRIES} lines under each point; --report FILE writes every line of it.

Options:
  -o, --out FILE     write the specification to FILE (default: standard output)
  --format FORMAT    yaml or markdown (the default: markdown for an OUT ending in .md, else yaml);
                     Markdown cannot hold everything YAML can (call parameters, a maximum page
                     size, ...): what it leaves out is printed as a warning
  --report FILE      write the whole report to FILE, mapped items included; the terminal gets the summary
  --report all       print the whole report, mapped items included, to the terminal instead
  --root DIR         an OpenAPI document's $refs may read files in DIR only (default: its own folder)
  --client-id ID     the OAuth2 or OpenID Connect client id to sign in with (documents never name it)
  --sign-in SCHEME   the security scheme to sign in with, when the document has several
  --schema NAME      a PostgreSQL schema to read (repeat for several; default: every schema but the
                     database's own)
  -h, --help         show this help

Every command also takes an OpenAPI document directly as its SPEC; import writes the specification out.

Exit codes: 0 imported (warnings allowed), 1 the document has errors, 2 the file could not be read or
the command was used wrongly.
`;

/** `ninefold import`: OpenAPI in, a nine-point YAML specification and an import report out. */
export async function importCommand(args: string[], terminal: Terminal): Promise<number> {
  let parsed: ReturnType<typeof parseImportArgs>;
  try {
    parsed = parseImportArgs(args);
  } catch (error) {
    terminal.err(`ninefold import: ${(error as Error).message}\n\n${IMPORT_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(IMPORT_HELP);
    return 0;
  }
  const reportFile = parsed.values.report;
  if (reportFile === '') {
    terminal.err('ninefold import: --report takes a FILE to write the report to, or "all".\n');
    return 2;
  }
  if (
    reportFile !== undefined &&
    reportFile !== 'all' &&
    parsed.values.out !== undefined &&
    resolve(reportFile) === resolve(parsed.values.out)
  ) {
    terminal.err(
      `ninefold import: --report and --out both name ${reportFile}; the report would overwrite the specification.\n`,
    );
    return 2;
  }
  const format = parsed.values.format;
  if (format !== undefined && format !== 'yaml' && format !== 'markdown') {
    terminal.err(`ninefold import: --format takes "yaml" or "markdown", not "${format}".\n`);
    return 2;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold import: give exactly one OPENAPI file or DATABASE.\n\n${IMPORT_HELP}`);
    return 2;
  }
  let result: AnySpecResult;
  if (isDatabaseSource(file)) {
    try {
      const schemas = parsed.values.schema;
      // The drivers load only for a database: an OpenAPI import does without them (pg alone took 30 ms).
      const { importDatabase } = await import('@ninefold/database');
      const imported = await importDatabase(file, schemas ? { schemas } : {});
      result = { ...imported.result, report: imported.report };
    } catch (error) {
      terminal.err(`ninefold import: ${databaseName(file)} could not be read: ${(error as Error).message}\n`);
      return 2;
    }
  } else {
    const loaded = await importDocument(file, parsed.values, terminal);
    if (typeof loaded === 'number') return loaded;
    result = loaded;
  }
  return writeImport(result, file, parsed.values, terminal);
}

/** An OpenAPI document read and imported, or the exit code when it cannot be. */
async function importDocument(
  file: string,
  values: ReturnType<typeof parseImportArgs>['values'],
  terminal: Terminal,
): Promise<AnySpecResult | number> {
  const read = await readSpecFile(file);
  if (!read.ok) {
    terminal.err(`ninefold import: ${read.message}\n`);
    return 2;
  }
  if (!looksLikeOpenApi(read.text)) {
    terminal.err(
      `ninefold import: ${file} is not an OpenAPI document (no top-level "openapi" or "swagger" key). A nine-point specification needs no import: run ninefold check ${file}.\n`,
    );
    return 2;
  }
  return loadAnySpec(read.text, file, {
    root: values.root,
    clientId: values['client-id'],
    signInScheme: values['sign-in'],
  });
}

/** Prints the report and writes the specification an import made. */
async function writeImport(
  result: AnySpecResult,
  file: string,
  values: ReturnType<typeof parseImportArgs>['values'],
  terminal: Terminal,
): Promise<number> {
  const report = values.report;
  // Without --format, the output file's name says which: `spec.md` is Markdown, anything else YAML.
  const format =
    values.format ?? (values.out !== undefined && /\.(md|markdown)$/i.test(values.out) ? 'markdown' : 'yaml');
  const source = databaseName(file);
  const toErr = { ...terminal, out: terminal.err };
  if (result.issues.length > 0 || !result.model) printReport(result, file, toErr);
  if (result.report) {
    const written = await writeReport(result.report, report, terminal);
    if (written !== 0) return written;
  }
  if (!result.model || !result.ok) {
    terminal.err(`ninefold import: ${source} could not be imported without errors; nothing was written.\n`);
    return 1;
  }
  let text: string;
  if (format === 'markdown') {
    const markdown = toMarkdown(result.model);
    for (const item of markdown.lost) terminal.err(`warning: not written in Markdown: ${item}\n`);
    // An HTML comment: the Markdown reader ignores it, so the note changes nothing in the model. `--`
    // would end it early, so a file name cannot break out of it.
    const from = source.replace(/[\r\n]+/g, ' ').replaceAll('--', '- -');
    text = `<!-- Imported by ninefold from ${from}. What the import inferred rather than read is listed in its report; check those parts before relying on them. -->\n\n${markdown.text}`;
  } else {
    const header = `# Imported by ninefold from ${source}. What the import inferred rather than read is listed in its\n# report; check those parts before relying on them.\n`;
    text = header + yamlText(toDocument(result.model));
  }
  const out = values.out;
  return writeOutput('import', terminal, out, text);
}

/**
 * The report on the terminal (whole with `all`, else summed up), and whole in the file `--report` names.
 * Answers 2 when that file cannot be written, before anything else is.
 */
async function writeReport(
  report: ImportReport,
  where: string | undefined,
  terminal: Terminal,
): Promise<number> {
  if (where === 'all') {
    terminal.err(`${formatImportReport(report, { all: true })}\n`);
    return 0;
  }
  const whole = formatImportReport(report);
  // A small document's report is read whole; a large one's would scroll away everything before it.
  const shown =
    whole.split('\n').length > SUMMED_UP_PAST_LINES
      ? importReportText(report, { limit: TERMINAL_ENTRIES })
      : { text: whole, unlisted: 0 };
  terminal.err(`${shown.text}\n`);
  if (where === undefined) {
    const { unlisted } = shown;
    if (unlisted > 0)
      terminal.err(`${unlisted} entries are left out above: --report FILE writes them all.\n`);
    return 0;
  }
  try {
    await writeFile(where, `${formatImportReport(report, { all: true })}\n`);
  } catch (error) {
    terminal.err(
      `ninefold import: the report could not be written to ${where}: ${(error as Error).message}\n`,
    );
    return 2;
  }
  terminal.err(`wrote the whole report to ${where}\n`);
  return 0;
}

function parseImportArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string', short: 'o' },
      report: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      root: { type: 'string' },
      'client-id': { type: 'string' },
      'sign-in': { type: 'string' },
      schema: { type: 'string', multiple: true },
    },
  });
}

/** How the report and the header name the source: a database URL never with its password. */
function databaseName(file: string): string {
  return isPostgresUrl(file) ? withoutPassword(file) : file;
}
