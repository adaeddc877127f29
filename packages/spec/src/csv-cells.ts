import type { Field, JsonValue } from './model';

// How a record's values are written as the cells of a CSV file. Here, in the shared core, because a file
// exported by the API is read again by an import, which must read each cell as this wrote it.

/**
 * A value as a cell. Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a
 * carriage return first: OWASP's CSV injection) gets a `'` before it, which spreadsheets show as text;
 * numbers, dates and the like are left as they are, so `-5` stays a number.
 *
 * @example
 * csvCell('=HYPERLINK("http://evil")', 'text'); // `'=HYPERLINK("http://evil")`
 * csvCell(-5, 'number'); // '-5'
 */
export function csvCell(value: JsonValue | undefined, kind: Field['kind'] | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  return (kind === 'text' || kind === 'markdown') && typeof value === 'string' && /^[=+\-@\t\r]/.test(text)
    ? `'${text}`
    : text;
}
