import type { LoadResult } from '@ninefold/model';
import { type LoadAnyOptions, loadAnySpec } from './load-any-spec';
import { readSpecFile } from './read-spec-file';
import { printReport } from './report';
import type { Terminal } from './terminal';

export type SpecOutcome =
  | { ok: true; result: LoadResult & { model: NonNullable<LoadResult['model']> } }
  | { ok: false; exitCode: 1 | 2 };

/**
 * Reads and loads a specification for a command that runs it (serve, dev, build). Errors stop the command
 * with the same report `ninefold check` prints; warnings are printed and the command goes on.
 */
export async function loadSpecFile(
  file: string,
  command: string,
  terminal: Terminal,
  options: LoadAnyOptions = {},
): Promise<SpecOutcome> {
  const read = await readSpecFile(file);
  if (!read.ok) {
    terminal.err(`ninefold ${command}: ${read.message}\n`);
    return { ok: false, exitCode: 2 };
  }
  const result = loadAnySpec(read.text, file, options);
  if (!result.ok || !result.model) {
    printReport(result, file, { ...terminal, out: terminal.err });
    terminal.err(`ninefold ${command}: ${file} has errors; fix them first (ninefold check ${file}).\n`);
    return { ok: false, exitCode: 1 };
  }
  if (result.issues.length > 0) printReport(result, file, { ...terminal, out: terminal.err });
  return { ok: true, result: result as LoadResult & { model: NonNullable<LoadResult['model']> } };
}
