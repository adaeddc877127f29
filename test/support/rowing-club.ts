// The rowing club (test/fixtures/csv/rowing-club.yaml), loaded once for the CSV tests and the benchmark,
// and a typed handle on a SQLite file for reading what they stored by SQL, beside the store under test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadSpec, type Model } from '@ninefold/model';

export function rowingClub(): Model {
  const text = readFileSync(new URL('../fixtures/csv/rowing-club.yaml', import.meta.url), 'utf8');
  const loaded = loadSpec(text, { file: 'rowing-club.yaml' });
  if (!loaded.ok || !loaded.model) throw new Error(JSON.stringify(loaded.issues));
  return loaded.model;
}

/** The few calls of a better-sqlite3 database used here: it ships no types, and none are added for it. */
export interface SqliteFile {
  prepare(text: string): { all(...values: unknown[]): unknown[]; run(...values: unknown[]): unknown };
  exec(text: string): void;
  pragma(text: string): unknown;
  transaction(work: () => void): () => void;
  close(): void;
}

export function openSqliteFile(path: string, options: { readonly?: boolean } = {}): SqliteFile {
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (
    path: string,
    options?: { readonly?: boolean },
  ) => SqliteFile;
  return new Database(path, options);
}
