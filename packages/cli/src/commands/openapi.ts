import { prototypeApi, yamlText } from '@ninefold/model';
import { parseCommandArgs } from '../args';
import { loadAnySpec } from '../load-any-spec';
import { readSpecFile } from '../read-spec-file';
import { printReport } from '../report';
import type { Terminal } from '../terminal';
import { writeOutput } from '../write-output';

export const OPENAPI_HELP = `Usage: ninefold openapi SPEC [-o FILE] [--format json|yaml]

Writes the OpenAPI 3.1 contract of the API the specification describes, exactly as "ninefold serve"
serves it (and answers at GET /openapi.json): every call with its parameters, paging, sorting,
filters and search; the schema of every entity, with point 5's constraints; the sign-in; every
refusal each call can answer, with its status, code and message; idempotency keys and If-Match; the
transitions; the event stream; and an example of each record. What OpenAPI cannot say (states and
guards, rules, grants, the error catalogue, constants) is in x-ninefold-* extensions (docs/contract.md).

Options:
  -o, --out FILE     write it to FILE (default: standard output)
  --format FORMAT    json (the default; yaml when FILE ends in .yaml or .yml) or yaml
  -h, --help         show this help

Exit codes: 0 written, 1 the specification has errors, 2 the file could not be read or written, or
the command was used wrongly.
`;

/** `ninefold openapi`: a specification in, the OpenAPI contract of its prototype API out. */
export async function openapiCommand(args: string[], terminal: Terminal): Promise<number> {
  let parsed: ReturnType<typeof parseOpenapiArgs>;
  try {
    parsed = parseOpenapiArgs(args);
  } catch (error) {
    terminal.err(`ninefold openapi: ${(error as Error).message}\n\n${OPENAPI_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(OPENAPI_HELP);
    return 0;
  }
  const out = parsed.values.out;
  const format = parsed.values.format ?? (out && /\.ya?ml$/i.test(out) ? 'yaml' : 'json');
  if (format !== 'json' && format !== 'yaml') {
    terminal.err(`ninefold openapi: --format takes "json" or "yaml", not "${format}".\n`);
    return 2;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold openapi: give exactly one SPEC file.\n\n${OPENAPI_HELP}`);
    return 2;
  }
  const read = await readSpecFile(file);
  if (!read.ok) {
    terminal.err(`ninefold openapi: ${read.message}\n`);
    return 2;
  }
  const result = loadAnySpec(read.text, file);
  if (!result.model || !result.ok) {
    printReport(result, file, { ...terminal, out: terminal.err });
    terminal.err(`ninefold openapi: ${file} has errors; nothing was written.\n`);
    return 1;
  }
  // The server package holds the seed that makes the examples; loaded only for this command.
  const { contractDocument } = await import('@ninefold/server');
  const document = contractDocument(result.model, prototypeApi(result.model));
  const text = format === 'yaml' ? yamlText(document) : `${JSON.stringify(document, null, 2)}\n`;
  return writeOutput('openapi', terminal, out, text);
}

function parseOpenapiArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string', short: 'o' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
