// What names a database, and how a report may print it: read before anything is imported, without the
// drivers, so that `ninefold import` of an OpenAPI document loads neither pg nor better-sqlite3.
import { closeSync, openSync, readSync } from 'node:fs';

/** Whether SOURCE is a PostgreSQL URL. */
export function isPostgresUrl(source: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(source);
}

/** Whether a file starts as every SQLite database does. */
export function isSqliteHeader(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 16)).toString('latin1') === 'SQLite format 3\u0000';
}

/** Whether SOURCE names a database: a PostgreSQL URL, or a file that starts as SQLite files do. */
export function isDatabaseSource(source: string): boolean {
  if (isPostgresUrl(source)) return true;
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

/** The URL as the report may print it: never its password. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database';
  }
}
