import { processTerminal, type Terminal } from './terminal';

const HELP = `Usage: ninefold COMMAND [options]

Turns a nine-point specification of a web client into a working React client and a prototype API.

Commands:
  check  SPEC              issues with file:line:column and the coverage of the nine points
  import OPENAPI [-o OUT]  OpenAPI -> nine-point specification, with an import report
  dev    SPEC [--api URL]  client + prototype API (or a proxy to URL), reloading on change
  build  SPEC --out DIR    a static client for any static host
  serve  SPEC [--db URL]   the client and its prototype API on a real database
  diff   OLD NEW           what a change of specification does: screens, fields, permissions, calls,
                           the data migration it implies, and the extension overrides it orphans
  openapi SPEC [-o FILE]   the OpenAPI 3.1 contract of the API the specification describes
  types  SPEC [-o FILE]    the specification's names in TypeScript, for a typed extension module
  verify SPEC --api URL    whether a running API keeps the specification's rules, point by point

Run "ninefold COMMAND --help" for a command's options. SPEC is a nine-point specification (Markdown,
YAML or JSON) or an OpenAPI 2.0/3.0/3.1 document, imported on the fly.
`;

/**
 * Runs the command line and returns the exit code (0 success, 1 the specification has errors, 2 the
 * input could not be read or the command was misused).
 */
export async function main(argv: string[], terminal: Terminal = processTerminal()): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    terminal.out(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    terminal.out('ninefold 0.1.0\n');
    return 0;
  }
  if (Object.hasOwn(COMMANDS, command)) {
    const run = await COMMANDS[command as keyof typeof COMMANDS]();
    return run(args, terminal);
  }
  // As git says it: the one line, the closest command, and where the list is; not the whole help.
  const { didYouMean } = await import('@ninefold/model');
  const hint = didYouMean(command, Object.keys(COMMANDS));
  const what = command.startsWith('-') ? 'option' : 'command';
  terminal.err(
    `ninefold: unknown ${what} "${command}"${hint ? `; ${hint}` : ''}\nRun "ninefold --help" for the commands.\n`,
  );
  return 2;
}

type Command = (args: string[], terminal: Terminal) => Promise<number>;

/** Each command is loaded only when called, so that `--help` or `check` never load a server. */
const COMMANDS = {
  check: async (): Promise<Command> => (await import('./commands/check')).check,
  import: async (): Promise<Command> => (await import('./commands/import')).importCommand,
  dev: async (): Promise<Command> => (await import('./commands/dev')).dev,
  build: async (): Promise<Command> => (await import('./commands/build')).build,
  serve: async (): Promise<Command> => (await import('./commands/serve')).serve,
  diff: async (): Promise<Command> => (await import('./commands/diff')).diff,
  openapi: async (): Promise<Command> => (await import('./commands/openapi')).openapiCommand,
  verify: async (): Promise<Command> => (await import('./commands/verify')).verifyCommand,
  types: async (): Promise<Command> => (await import('./commands/types')).typesCommand,
} satisfies Record<string, () => Promise<Command>>;
