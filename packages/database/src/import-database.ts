// An existing database to a nine-point specification: read its catalog (never writing), map it, and load
// the result as any specification is loaded, so that it is checked the same way.
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { type LoadResult, loadSpec } from '@ninefold/model';
import type { ImportReport } from '@ninefold/openapi';
import { catalogToDocument } from './map/to-document';
import { readPostgres, withoutPassword } from './read/postgres';
import { isSqliteHeader, readSqlite } from './read/sqlite';

export interface DatabaseImport {
  result: LoadResult;
  report: ImportReport;
  /** The specification's YAML/JSON form, to write out. */
  document: Record<string, unknown>;
}

/** Whether SOURCE names a database: a PostgreSQL URL, or a file that starts as SQLite files do. */
export function isDatabaseSource(source: string): boolean {
  if (/^postgres(?:ql)?:\/\//i.test(source)) return true;
  try {
    const fd = openSync(source, 'r');
    try {
      const head = Buffer.alloc(16);
      readSync(fd, head, 0, 16, 0);
      return isSqliteHeader(head);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Reads the database at SOURCE (a PostgreSQL URL or a SQLite file) and imports it. */
export async function importDatabase(
  source: string,
  options: { schemas?: string[] } = {},
): Promise<DatabaseImport> {
  const postgres = /^postgres(?:ql)?:\/\//i.test(source);
  const catalog = postgres ? await readPostgres(source, options.schemas) : readSqlite(source);
  const title = postgres
    ? decodeURIComponent(new URL(source).pathname.replace(/^\//, '')) || 'Database'
    : basename(source, extname(source));
  const { document, report } = catalogToDocument(catalog, titleCase(title));
  const file = postgres ? withoutPassword(source) : source;
  const result = loadSpec(JSON.stringify(document), { file: `${file}.json`, format: 'json' });
  return { result, report, document };
}

function titleCase(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Database';
}
