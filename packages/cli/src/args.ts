import { type ParseArgsConfig, parseArgs } from 'node:util';
import { didYouMean } from '@ninefold/model';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Node's `parseArgs`, with its errors in our words: which option or argument, what is wrong with it, and
 * the known option closest to a misspelt one (`unknown option "--frmat"; did you mean "--format"?`).
 * Node's own text speaks of positional arguments and quotes the option twice over.
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(
      config.args ? { ...config, args: negativeValues(config.args, config.options ?? {}) } : config,
    );
  } catch (error) {
    throw new Error(argsProblem(error, config.options ?? {}));
  }
}

/**
 * What is wrong with the command line, from `parseArgs`'s error.
 *
 * @example
 * argsProblem(unknownOptionError('--prot'), { port: { type: 'string' } }); // 'unknown option "--prot"; did you mean "--port"?'
 */
export function argsProblem(error: unknown, options: Options): string {
  const { code, message } = error as { code?: string; message?: string };
  const text = message ?? String(error);
  const quoted = /'([^']*)'/.exec(text)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const name = quoted.split('=')[0] ?? quoted;
      const known = Object.entries(options).flatMap(([long, option]) => [
        `--${long}`,
        ...(option.short ? [`-${option.short}`] : []),
      ]);
      const hint = didYouMean(name, known);
      return `unknown option "${name}"${hint ? `; ${hint}` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = /--[\w-]+/.exec(text)?.[0] ?? quoted;
      return /does not take/.test(text)
        ? `option "${name}" takes no value`
        : `option "${name}" needs a value`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${quoted}"`;
    default:
      return text;
  }
}

/**
 * `--seed -3` as `--seed=-3`: a value that looks like a number is the option's value, not an option of
 * its own, so that the command can say what is wrong with it ("must be a whole number") rather than
 * Node saying the option has no value.
 */
function negativeValues(args: readonly string[], options: Options): string[] {
  const takesValue = new Set(
    Object.entries(options).flatMap(([long, option]) =>
      option.type === 'string' ? [`--${long}`, ...(option.short ? [`-${option.short}`] : [])] : [],
    ),
  );
  const out: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const next = args[index + 1];
    if (takesValue.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      index++;
    } else out.push(arg);
  }
  return out;
}
