import { basename } from 'node:path';
import { specTypes } from '@ninefold/model';
import { parseCommandArgs } from '../args';
import { loadAnySpec } from '../load-any-spec';
import { readSpecFile } from '../read-spec-file';
import { printReport } from '../report';
import type { Terminal } from '../terminal';
import { writeOutput } from '../write-output';

export const TYPES_HELP = `Usage: ninefold types SPEC [-o FILE]

Writes the names of the specification as a TypeScript module, for an extension module typed against
them (docs/extending.md): each entity's fields and the values they hold, the calls an action may run on
each entity's records, and the widgets, custom screen components and dashboards it names. With

  import type { Extension } from '@ninefold/web/extension';
  import type { Spec } from './shop.types';
  export default defineExtension<Extension<Spec>>({ … });

a field renamed or a transition removed in the specification is a compile error where the module uses it.

Options:
  -o, --out FILE     write it to FILE (default: standard output)
  -h, --help         show this help

Exit codes: 0 written, 1 the specification has errors, 2 the file could not be read or written, or
the command was used wrongly.
`;

/** `ninefold types`: a specification in, the TypeScript names of its nine points out. */
export async function typesCommand(args: string[], terminal: Terminal): Promise<number> {
  let parsed: ReturnType<typeof parseTypesArgs>;
  try {
    parsed = parseTypesArgs(args);
  } catch (error) {
    terminal.err(`ninefold types: ${(error as Error).message}\n\n${TYPES_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(TYPES_HELP);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold types: give exactly one SPEC file.\n\n${TYPES_HELP}`);
    return 2;
  }
  const read = await readSpecFile(file);
  if (!read.ok) {
    terminal.err(`ninefold types: ${read.message}\n`);
    return 2;
  }
  const result = loadAnySpec(read.text, file);
  if (!result.model || !result.ok) {
    printReport(result, file, { ...terminal, out: terminal.err });
    terminal.err(`ninefold types: ${file} has errors; nothing was written.\n`);
    return 1;
  }
  const text = specTypes(result.model, basename(file));
  const out = parsed.values.out;
  return writeOutput('types', terminal, out, text);
}

function parseTypesArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
