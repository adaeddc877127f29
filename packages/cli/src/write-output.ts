import { writeFile } from 'node:fs/promises';
import type { Terminal } from './terminal';

/**
 * What a command made, on standard output, or in `out` with a line saying so. Answers the exit code: 0,
 * or 2 when the file could not be written (said with the command's name and the system's reason).
 */
export async function writeOutput(
  command: string,
  terminal: Terminal,
  out: string | undefined,
  text: string,
): Promise<number> {
  if (out === undefined) {
    terminal.out(text);
    return 0;
  }
  try {
    await writeFile(out, text);
  } catch (error) {
    terminal.err(`ninefold ${command}: ${out} could not be written: ${(error as Error).message}\n`);
    return 2;
  }
  terminal.err(`wrote ${out}\n`);
  return 0;
}
