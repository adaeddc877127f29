import { exhaustiveSwitchError } from '../exhaustive';
import type { Field, JsonValue } from '../model';
import { type CsvFormat, PLAIN_FORMAT, readDate, readNumber } from './format';

// How a record's values are written as the cells of a CSV file. Here, in the shared core, because a file
// exported by the API is read again by an import, which must read each cell as this wrote it.

/** The first characters that make a spreadsheet run a cell (`=`, `+`, `-`, `@`, tab, carriage return), and `'`. */
const FORMULA_START = new Set([..."=+-@\t\r'"].map((character) => character.charCodeAt(0)));

/**
 * A value as a cell. Text that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a
 * carriage return first: OWASP's CSV injection), or that starts with `'` itself, gets a `'` before it, which spreadsheets show as text;
 * numbers, dates and the like are left as they are, so `-5` stays a number.
 *
 * @example
 * csvCell('=HYPERLINK("http://evil")', 'text'); // `'=HYPERLINK("http://evil")`
 * csvCell(-5, 'number'); // '-5'
 */
export function csvCell(value: JsonValue | undefined, kind: Field['kind'] | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value !== 'string') return String(value);
  // A text that starts with ' gets one more, so that reading it back takes off exactly the one added.
  return (kind === 'text' || kind === 'markdown') && FORMULA_START.has(value.charCodeAt(0))
    ? `'${value}`
    : value;
}

/** Whether a cell is text that `csvCell` guarded: a `'` before what a spreadsheet would run. */
function isGuarded(text: string): boolean {
  return text.charCodeAt(0) === 39 && FORMULA_START.has(text.charCodeAt(1));
}

/** A cell read back as a field's value, or why it cannot be one. */
export type CsvValue = { ok: true; value: JsonValue | undefined } | { ok: false; message: string };

/**
 * A cell as a value of the field, read as `csvCell` wrote it (so an export imported again changes
 * nothing) or as the file's `format` writes numbers and dates: an empty cell is no value; a guarded
 * formula loses its `'`; numbers, yes/no, dates, an enum's value or label, and JSON for objects and
 * lists. `numericKey`: a reference whose target's key is a number. A refusal names the form expected and
 * the value found.
 *
 * @example
 * csvValue(`'=SUM(A1)`, { name: 'note', kind: 'text' }); // { ok: true, value: '=SUM(A1)' }
 * csvValue('Paid', statusField); // { ok: true, value: 'paid' }
 * csvValue('36.500', priceField, false, { decimal: ',', dateOrder: 'dmy' }); // { ok: true, value: 36500 }
 * csvValue('12,5', priceField); // { ok: false, message: 'is not a number written as 1,234.56: "12,5"' }
 */
export function csvValue(
  text: string,
  field: Field,
  numericKey = false,
  format: CsvFormat = PLAIN_FORMAT,
): CsvValue {
  if (text === '') return { ok: true, value: undefined };
  switch (field.kind) {
    case 'text':
    case 'markdown':
      return { ok: true, value: isGuarded(text) ? text.slice(1) : text };
    case 'number':
    case 'money':
      return readNumber(text, format.decimal);
    case 'integer': {
      const read = readNumber(text, format.decimal);
      if (!read.ok) return read;
      return Number.isSafeInteger(read.value)
        ? read
        : { ok: false, message: `is not a whole number: "${clipped(text)}"` };
    }
    case 'boolean': {
      const word = text.trim().toLowerCase();
      if (['true', 'yes', 'y', '1'].includes(word)) return { ok: true, value: true };
      if (['false', 'no', 'n', '0'].includes(word)) return { ok: true, value: false };
      return { ok: false, message: `is not yes or no: "${clipped(text)}"` };
    }
    case 'enum': {
      const wanted = text.trim().toLowerCase();
      const found = field.values.find(
        (option) => option.value.toLowerCase() === wanted || option.label?.toLowerCase() === wanted,
      );
      return found
        ? { ok: true, value: found.value }
        : {
            ok: false,
            message: `is not one of ${field.values.map((option) => option.label ?? option.value).join(', ')}: "${clipped(text)}"`,
          };
    }
    case 'date':
      return readDate(text, format.dateOrder, false);
    case 'datetime':
      return readDate(text, format.dateOrder, true);
    case 'reference':
      if (!numericKey) return { ok: true, value: text.trim() };
      return /^\s*\d{1,15}\s*$/.test(text)
        ? { ok: true, value: Number(text) }
        : { ok: false, message: `is not a record number: "${clipped(text)}"` };
    case 'object':
    case 'list':
    case 'file':
      try {
        return { ok: true, value: JSON.parse(text) as JsonValue };
      } catch {
        return {
          ok: false,
          message: `is not JSON, as an export writes ${field.kind === 'list' ? 'a list' : 'it'}: "${clipped(text)}"`,
        };
      }
    default:
      return exhaustiveSwitchError(field);
  }
}

/** What a CSV import did, or (a dry run) would do: the prototype API's answer, which the client shows. */
export interface CsvImportReport {
  dryRun: boolean;
  rows: number;
  created: number;
  updated: number;
  /** Rows matching a record that already holds every value they carry: nothing written, no new version. */
  unchanged: number;
  skipped: number;
  /**
   * Of the skipped rows, those whose every value an earlier import made into a record still there (an
   * entity matched on no unique field): the same file imported twice makes nothing twice.
   */
  alreadyImported: number;
  refused: number;
  /** Every refused row's errors, by the file's row number (a header is row 1). */
  errors: Array<{ row: number; field?: string; message: string }>;
  /** Columns not read, each with why. */
  ignored: Array<{ column: string; reason: string }>;
  /** How the file's numbers and dates were read. */
  format?: CsvFormat;
}

function clipped(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A report of nothing done yet, for `rows` rows: where a check's or an import's counting starts. */
export function emptyImportReport(rows: number, dryRun: boolean): CsvImportReport {
  return {
    dryRun,
    rows,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    alreadyImported: 0,
    refused: 0,
    errors: [],
    ignored: [],
  };
}
