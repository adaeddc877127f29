import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/** What a command writes to; tests pass buffers, the real command passes the process streams. */
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  /** Colour only for a terminal that wants it: never when NO_COLOR is set or output is piped. */
  color: boolean;
  /** Whether standard output is a person's terminal rather than a pipe or a file (a log collector). */
  isTTY?: boolean;
  /** Set when `out` is the process's own standard output, which a log may then write to directly. */
  isProcessOutput?: true;
}

export function processTerminal(): Terminal {
  // A reader that stops early (`ninefold check bad.md | head -1`) closes the pipe: the rest of the output
  // has nowhere to go and is not wanted, which is no error of ours, so there is no stack trace for it.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  const env = process.env;
  const color =
    process.stdout.isTTY === true && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb';
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    color,
    isTTY: process.stdout.isTTY === true,
    isProcessOutput: true,
  };
}

export function paint(terminal: Terminal, style: Style, text: string): string {
  return terminal.color ? styleText(style, text) : text;
}
