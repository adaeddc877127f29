import { parseArgs } from 'node:util';
import { DEFAULT_PORT, databaseUrl, describeDatabase, serve as startServer } from '@ninefold/server';
import { loadSpecFile } from '../load-spec-file';
import { paint, type Terminal } from '../terminal';

export const SERVE_HELP = `Usage: ninefold serve SPEC [options]

Serves the prototype API of a specification on a real database: SQLite in a file next to SPEC by
default, or PostgreSQL. It validates with the specification's rules and answers errors as RFC 9457
problem details. Prints its URL when ready; Ctrl-C (SIGINT) or SIGTERM stops it cleanly.

Options:
  --db URL              postgres://user@host:port/db, sqlite:FILE, FILE, or :memory:
  --port P              port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
  --host H              address to listen on (default 127.0.0.1)
  --seed N              fill each empty entity with N generated records (the same N gives the same data)
  --allow-destructive   apply schema changes that drop or narrow stored data
  --body-limit BYTES    largest request body accepted (default 1048576)
  -h, --help            show this help

Exit codes: 0 stopped cleanly, 1 the specification has errors or the server could not start,
2 the file could not be read or the command was used wrongly.
`;

/** `ninefold serve`: runs until SIGINT or SIGTERM, then closes requests and the database. */
export async function serve(
  args: string[],
  terminal: Terminal,
  signals: NodeJS.EventEmitter = process,
): Promise<number> {
  let parsed: ReturnType<typeof parseServeArgs>;
  try {
    parsed = parseServeArgs(args);
  } catch (error) {
    terminal.err(`ninefold serve: ${(error as Error).message}\n\n${SERVE_HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    terminal.out(SERVE_HELP);
    return 0;
  }
  const [file, ...extra] = parsed.positionals;
  if (file === undefined || extra.length > 0) {
    terminal.err(`ninefold serve: give exactly one SPEC file.\n\n${SERVE_HELP}`);
    return 2;
  }
  const numbers: Record<string, number | undefined> = {};
  for (const name of ['port', 'seed', 'body-limit'] as const) {
    const text = parsed.values[name];
    if (text === undefined) continue;
    if (!/^\d{1,10}$/.test(text)) {
      terminal.err(`ninefold serve: --${name} must be a whole number, not "${text}".\n`);
      return 2;
    }
    numbers[name] = Number(text);
  }
  if (numbers.port !== undefined && numbers.port > 65535) {
    terminal.err(`ninefold serve: --port must be at most 65535.\n`);
    return 2;
  }

  const loaded = await loadSpecFile(file, 'serve', terminal);
  if (!loaded.ok) return loaded.exitCode;
  const model = loaded.result.model;
  const database = databaseUrl(parsed.values.db, file);
  // Listen for signals before starting: a Ctrl-C that arrives while the server starts, or just as it
  // prints its URL, must still close the database instead of killing the process.
  let signal: string | undefined;
  let wake: (() => void) | undefined;
  const onInt = () => {
    signal ??= 'SIGINT';
    wake?.();
  };
  const onTerm = () => {
    signal ??= 'SIGTERM';
    wake?.();
  };
  signals.on('SIGINT', onInt);
  signals.on('SIGTERM', onTerm);
  try {
    const started = await startServer({
      model,
      specFile: file,
      db: database,
      host: parsed.values.host,
      port: numbers.port,
      seed: numbers.seed,
      allowDestructive: parsed.values['allow-destructive'],
      bodyLimit: numbers['body-limit'],
      log: (line) => terminal.err(`${line}\n`),
    });
    if (!started.ok) {
      terminal.err(`ninefold serve: ${started.message}\n`);
      return 1;
    }
    const { server } = started;
    const title = model.title ?? 'an untitled specification';
    terminal.out(
      `${paint(terminal, 'bold', `Ninefold prototype API for ${title}`)} on ${describeDatabase(database)}\n` +
        `  ${server.url}  (calls under /api, the model at /spec.json)\n`,
    );
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (signal) resolve();
    });
    terminal.err(`\n${signal}: finishing requests in flight and closing the database…\n`);
    await server.close();
    terminal.err('stopped.\n');
    return 0;
  } finally {
    signals.off('SIGINT', onInt);
    signals.off('SIGTERM', onTerm);
  }
}

function parseServeArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      'allow-destructive': { type: 'boolean', default: false },
      'body-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
