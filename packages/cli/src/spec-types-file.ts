import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { type Model, specTypes } from '@ninefold/model';

/** Where a specification's names live when a team keeps them: `shop.types.ts` beside `shop.md`. */
export function specTypesFile(spec: string): string {
  return join(dirname(spec), `${basename(spec, extname(spec))}.types.ts`);
}

/**
 * Writes the names of `model` again into the file beside `spec` that holds them (`ninefold types -o`),
 * when there is one and they changed: `check` and `dev` keep them current, so that an extension module
 * typed with them is checked against the specification as it is now. Answers the file written, if any.
 */
export async function refreshSpecTypes(spec: string, model: Model): Promise<string | undefined> {
  const file = specTypesFile(spec);
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === undefined) return undefined;
  const next = specTypes(model, basename(spec));
  if (next === current) return undefined;
  await writeFile(file, next);
  return file;
}
