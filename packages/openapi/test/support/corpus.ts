import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

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

/**
 * Every document of the corpus, sorted, of every version; the fragments of multi-file documents are
 * left out (they are read through their root), and so are Postman collections. Empty without a corpus.
 */
export function corpusDocuments(): string[] {
  if (CORPUS === undefined) return [];
  const found: string[] = [];
  const visit = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (/\.(json|ya?ml)$/.test(name) && !name.includes('postman_collection')) found.push(path);
    }
  };
  visit(CORPUS);
  return found.filter((path) => !/petstore-separate\/(common|spec)\/(?!swagger\.)/.test(path));
}

/** Reads another file of a multi-file corpus document, as the reader's `readFile` option wants. */
export function readCorpusFile(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/**
 * The reader's options for a corpus document: its files, read from the corpus, with references allowed
 * anywhere in the corpus, since its multi-file examples reach a sibling folder (`../common/Error.yaml`).
 */
export function corpusReadOptions(): { readFile: typeof readCorpusFile; root: string } {
  return { readFile: readCorpusFile, root: CORPUS ?? '/nonexistent-corpus' };
}
