// A CSV text as a header and rows, each row with its number in the file as a spreadsheet shows it (the
// header is row 1, a blank line still counts). A row of another width than the header is a fault of that
// row alone: it is reported with the others, and the rest of the file is read.
import Papa from 'papaparse';

/** The separators a file is read with: what spreadsheets write in any locale. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

export interface CsvRow {
  /** The row's number in the file: the header is row 1. */
  row: number;
  cells: string[];
}

/** A fault found in the file itself, before any value is read: the row is left out. */
export interface CsvRowFault {
  row: number;
  message: string;
  /** The row's cells as they are, for a file of the faulty rows to mend. */
  cells: string[];
}

export interface CsvTable {
  delimiter: CsvDelimiter;
  headers: string[];
  rows: CsvRow[];
  faults: CsvRowFault[];
}

export type CsvParsed = { ok: true; table: CsvTable } | { ok: false; message: string };

/**
 * The header and rows of a CSV text, separated by `delimiter`, or by the one of `CSV_DELIMITERS` that
 * splits the file evenly. Refused whole only when it cannot be read at all: nothing in it, or a quote that
 * opens and never closes (every row after it would be one cell).
 *
 * @example
 * parseCsv('name;price\nTea;3,5\nCake\n'); // { ok: true, table: { delimiter: ';', headers: ['name', 'price'], rows: [{ row: 2, cells: ['Tea', '3,5'] }], faults: [{ row: 3, message: 'Row 3 has 1 cell where the header has 2.', cells: ['Cake'] }] } }
 */
export function parseCsv(text: string, delimiter?: CsvDelimiter): CsvParsed {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { ok: false, message: 'The file is empty.' };
  const used = delimiter ?? guessDelimiter(body);
  const parsed = Papa.parse<string[]>(body, { skipEmptyLines: false, delimiter: used });
  const unclosed = parsed.errors.find((error) => error.code === 'MissingQuotes');
  if (unclosed) {
    return {
      ok: false,
      message: `Row ${(unclosed.row ?? 0) + 1}: a quote opens and never closes, so every row after it would be one cell.`,
    };
  }
  const records = parsed.data;
  const headerAt = records.findIndex((cells) => !blank(cells));
  const headers = (records[headerAt] ?? []).map((header) => header.trim());
  const rows: CsvRow[] = [];
  const faults: CsvRowFault[] = [];
  for (let index = headerAt + 1; index < records.length; index++) {
    const cells = records[index] as string[];
    if (blank(cells)) continue;
    const row = index + 1;
    // Spreadsheets often end rows with empty cells past the last column: those are no fault.
    const width =
      cells.length > headers.length && cells.slice(headers.length).every((cell) => cell === '')
        ? headers.length
        : cells.length;
    if (width !== headers.length) {
      faults.push({
        row,
        message: `Row ${row} has ${width} ${width === 1 ? 'cell' : 'cells'} where the header has ${headers.length}.`,
        cells,
      });
    } else rows.push({ row, cells: cells.slice(0, width) });
  }
  return { ok: true, table: { delimiter: used, headers, rows, faults } };
}

/**
 * The separator the header row uses most, outside quotes: the header is the one row every file has, and
 * its names seldom hold a separator. A header with none of them is one column (`,`).
 */
export function guessDelimiter(text: string): CsvDelimiter {
  const header = (text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').replace(/"[^"]*"/g, '');
  let best: CsvDelimiter = ',';
  let most = 0;
  for (const candidate of CSV_DELIMITERS) {
    const count = header.split(candidate).length - 1;
    if (count > most) [best, most] = [candidate, count];
  }
  return best;
}

function blank(cells: string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

/**
 * The refused rows as a CSV text in the file's own separator, as the file had them, with one more column:
 * each row's reasons. What a person downloads to mend the rows a check refused and import them again.
 *
 * @example
 * faultyRowsCsv(['name'], [{ row: 3, message: 'Price is missing.' }], [{ row: 3, cells: ['Tea'] }], ';'); // 'name;Errors\r\nTea;Price is missing.'
 */
export function faultyRowsCsv(
  headers: readonly string[],
  errors: ReadonlyArray<{ row: number; message: string }>,
  rows: Iterable<{ row: number; cells: readonly string[] }>,
  delimiter: CsvDelimiter,
  reasonsHeader = 'Errors',
): string {
  const reasons = new Map<number, string[]>();
  for (const error of errors) reasons.set(error.row, [...(reasons.get(error.row) ?? []), error.message]);
  const cells = new Map<number, readonly string[]>();
  for (const row of rows) if (reasons.has(row.row)) cells.set(row.row, row.cells);
  const width = headers.length;
  const longest = Math.max(width, ...[...cells.values()].map((found) => found.length));
  return Papa.unparse(
    {
      fields: [...headers, reasonsHeader, ...Array<string>(longest - width).fill('')],
      // The reasons stand in their own column whatever a row's width: a short row is padded to it, and a
      // long row's cells past the header follow the reasons, so that none is lost.
      data: [...reasons].map(([row, messages]) => {
        const found = cells.get(row) ?? [];
        return [
          ...found.slice(0, width),
          ...Array<string>(Math.max(0, width - found.length)).fill(''),
          messages.join(' '),
          ...found.slice(width),
        ];
      }),
    },
    { delimiter, newline: '\r\n' },
  );
}

/**
 * Rows of cells as CSV lines, each ended by a newline: an export writes its records a batch at a time
 * with it. The same library reads the file back (`parseCsv`), so what one quotes the other unquotes; a
 * cell is quoted only where it must be (a comma, a quote, a line break, a space at either end).
 *
 * @example
 * csvLines([['id', 'name'], ['1', 'Tea, green']]); // 'id,name\n1,"Tea, green"\n'
 */
export function csvLines(rows: ReadonlyArray<readonly string[]>): string {
  return rows.length === 0 ? '' : `${Papa.unparse(rows as string[][], { newline: '\n' })}\n`;
}
