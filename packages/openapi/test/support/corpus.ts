import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The shared corpus of real OpenAPI documents (never copied into the project). It sits beside the
 * repository as `../shared/corpus`; a clone elsewhere names it with NINEFOLD_CORPUS, and this machine
 * kind keeps it at /work/shared/corpus.
 */
const candidates = [
  process.env.NINEFOLD_CORPUS,
  resolve(import.meta.dirname, '../../../../../shared/corpus/openapi'),
  '/work/shared/corpus/openapi',
].filter((path): path is string => path !== undefined && path !== '');

export const CORPUS: string | undefined = candidates.find((path) => existsSync(path));

if (CORPUS === undefined) {
  // A visible reason, not a silent skip: the suites that read the corpus say they did not run.
  console.warn(`OpenAPI corpus not found (looked in ${candidates.join(', ')}); its tests are skipped.`);
}

/** A path inside the corpus; only called by tests that run when the corpus exists. */
export function corpusPath(path: string): string {
  return resolve(CORPUS ?? '/nonexistent-corpus', path);
}
