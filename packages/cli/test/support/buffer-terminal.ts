import type { Terminal } from '../../src/terminal';

/** A terminal that keeps what a command prints, for tests that run commands in-process. */
export function bufferTerminal(): Terminal & { stdout: string; stderr: string } {
  const terminal = {
    stdout: '',
    stderr: '',
    color: false,
    out: (text: string) => {
      terminal.stdout += text;
    },
    err: (text: string) => {
      terminal.stderr += text;
    },
  };
  return terminal;
}
