import { writeFile } from 'node:fs/promises';
import { parseCommandArgs } from '../args';
import { loadAnySpec } from '../load-any-spec';
import { readSpecFile } from '../read-spec-file';
import { printReport } from '../report';
import type { Terminal } from '../terminal';
import { type AsOption, parseAs } from '../verify/actors';
import { formatJunit, formatText } from '../verify/report';
import { disagreements } from '../verify/results';
import { DEFAULT_RATE, verify } from '../verify/verify';

export const VERIFY_HELP = `Usage: ninefold verify SPEC --api URL [--as ROLE=EMAIL:PASSWORD ...] [options]

Checks that a running API keeps the specification's rules, point by point: what each role may list,
read, create, change, remove and transition (6), each constraint and rule met and broken (5), each
transition from each state it can reach (4), the status and catalogue entry of each refusal (8), the
limits (9) and the shapes of the calls (7). Every disagreement is shown as the request sent, the answer
the specification calls for, and the answer received. See docs/verify.md.

It creates only records it can remove, and removes them; it never sends a call the specification does
not describe.

Options:
  --api URL               the API's base: each call's path follows it (http://127.0.0.1:4321/api)
  --as ROLE=EMAIL:PASSWORD  sign in as ROLE through the sign-in call (repeat for each role); or
  --as ROLE=token:TOKEN   a token (or API key) that is ROLE's
  --read-only             send no write at all: reads, rows, fields, shapes and limits only
  --rate N                at most N requests a second (default ${DEFAULT_RATE})
  --seed N                the seed of the records it writes (default: from the clock)
  --format FORMAT         text (the default) or json, on standard output
  --junit FILE            also write the results as JUnit XML, for CI
  -h, --help              show this help

Exit codes: 0 no disagreement, 1 a disagreement (or verify had to stop), 2 the specification or the
command line could not be used.
`;

/** \`ninefold verify\`: a running API against the specification's rules. */
export async function verifyCommand(args: string[], terminal: Terminal): Promise<number> {
  let parsed: ReturnType<typeof parseVerifyArgs>;
  let as: AsOption[];
  try {
    parsed = parseVerifyArgs(args);
    as = (parsed.values.as ?? []).map(parseAs);
  } catch (error) {
    terminal.err(`ninefold verify: ${(error as Error).message}\n\n${VERIFY_HELP}`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) {
    terminal.out(VERIFY_HELP);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0 || values.api === undefined) {
    terminal.err(`ninefold verify: give exactly one SPEC and --api URL.\n\n${VERIFY_HELP}`);
    return 2;
  }
  let api: URL;
  try {
    api = new URL(values.api);
    if (api.protocol !== 'http:' && api.protocol !== 'https:') throw new Error('not http');
  } catch {
    terminal.err(`ninefold verify: --api takes an http or https URL, not "${values.api}".\n`);
    return 2;
  }
  const rate = values.rate === undefined ? DEFAULT_RATE : Number(values.rate);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (!Number.isFinite(rate) || rate <= 0 || (seed !== undefined && !Number.isInteger(seed))) {
    terminal.err('ninefold verify: --rate takes a number above 0, and --seed a whole number.\n');
    return 2;
  }
  if (values.format !== 'text' && values.format !== 'json') {
    terminal.err(`ninefold verify: --format takes "text" or "json", not "${values.format}".\n`);
    return 2;
  }
  const read = await readSpecFile(file);
  if (!read.ok) {
    terminal.err(`ninefold verify: ${read.message}\n`);
    return 2;
  }
  const loaded = loadAnySpec(read.text, file);
  if (!loaded.model || !loaded.ok) {
    printReport(loaded, file, { ...terminal, out: terminal.err });
    terminal.err(`ninefold verify: ${file} has errors; nothing was sent.\n`);
    return 2;
  }
  const report = await verify(loaded.model, {
    api: api.href.replace(/\/+$/, ''),
    as,
    readOnly: values['read-only'] === true,
    rate,
    ...(seed === undefined ? {} : { seed }),
    onEntity: (entity) => terminal.err(`checking ${entity.name}…\n`),
  });
  terminal.out(values.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatText(report, file));
  if (values.junit !== undefined) {
    try {
      await writeFile(values.junit, formatJunit(report));
    } catch (error) {
      terminal.err(`ninefold verify: ${values.junit} could not be written: ${(error as Error).message}\n`);
      return 2;
    }
  }
  return disagreements(report).length > 0 || report.stopped ? 1 : 0;
}

function parseVerifyArgs(args: string[]) {
  return parseCommandArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      api: { type: 'string' },
      as: { type: 'string', multiple: true },
      'read-only': { type: 'boolean', default: false },
      rate: { type: 'string' },
      seed: { type: 'string' },
      format: { type: 'string', default: 'text' },
      junit: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
