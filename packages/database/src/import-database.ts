// An existing database to a nine-point specification: read its catalog (never writing), map it, and load
// the result as any specification is loaded, so that it is checked the same way.
import { basename, extname } from 'node:path';
import { type LoadResult, loadSpec } from '@ninefold/model';
import type { ImportReport } from '@ninefold/openapi';
import { catalogToDocument } from './map/to-document';
import { readPostgres } from './read/postgres';
import { readSqlite } from './read/sqlite';
import { isPostgresUrl, withoutPassword } from './source';

export interface DatabaseImport {
  result: LoadResult;
  report: ImportReport;
  /** The specification's YAML/JSON form, to write out. */
  document: Record<string, unknown>;
}

/** Reads the database at SOURCE (a PostgreSQL URL or a SQLite file) and imports it. */
export async function importDatabase(
  source: string,
  options: { schemas?: string[] } = {},
): Promise<DatabaseImport> {
  const postgres = isPostgresUrl(source);
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
