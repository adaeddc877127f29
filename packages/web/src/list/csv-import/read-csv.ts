// Reading a CSV file a person chose: its bytes decoded and its rows parsed by the core's rules (the API
// reads a file it is sent by the same ones), each problem said with where it is. Pure, so the worker
// (csv.worker.ts) runs it off the page and the tests run it as is.
import {
  type CsvDelimiter,
  type CsvEncoding,
  type CsvEncodingSource,
  type CsvRow,
  type CsvRowFault,
  decodeCsv,
  parseCsv,
} from '@ninefold/model';

export interface CsvFile {
  encoding: CsvEncoding;
  /** Whether the encoding was found in the file, or is what spreadsheets write when nothing says. */
  encodingSource: CsvEncodingSource;
  delimiter: CsvDelimiter;
  headers: string[];
  rows: CsvRow[];
  /** Rows the file itself spoils (of another width than the header): listed, never sent. */
  faults: CsvRowFault[];
}

/** `encodingFault`: the bytes did not decode as found; the person may say the encoding and read it again. */
export type CsvRead = ({ ok: true } & CsvFile) | { ok: false; message: string; encodingFault?: true };

/** What a person may correct about how the file is read. */
export interface ReadChoices {
  encoding?: CsvEncoding;
  delimiter?: CsvDelimiter;
}

/** More rows than one import takes are refused before anything is sent. */
export const MAX_ROWS = 100_000;

/**
 * The file's rows. Refused whole, with a reason a person can act on, only when it cannot be read: no
 * bytes, bytes that are not text in its encoding, a quote that never closes, or more than `MAX_ROWS`
 * rows. A row of another width is a fault of that row, listed with the others.
 *
 * @example
 * readCsv(new TextEncoder().encode('name,email\nAda,ada@example.com')); // { ok: true, encoding: 'utf-8', delimiter: ',', headers: ['name', 'email'], rows: [{ row: 2, cells: ['Ada', 'ada@example.com'] }], faults: [], … }
 */
export function readCsv(bytes: Uint8Array, choices: ReadChoices = {}): CsvRead {
  if (bytes.length === 0) return { ok: false, message: 'The file is empty.' };
  const decoded = decodeCsv(bytes, choices.encoding ? { chosen: choices.encoding } : {});
  if (!decoded.ok) {
    return decoded.code === 'UNKNOWN_CHARSET'
      ? { ok: false, message: decoded.message }
      : { ok: false, message: decoded.message, encodingFault: true };
  }
  const parsed = parseCsv(decoded.text, choices.delimiter);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const { headers, rows, faults, delimiter } = parsed.table;
  if (rows.length + faults.length === 0)
    return { ok: false, message: 'The file has a header row but no rows.' };
  if (rows.length + faults.length > MAX_ROWS) {
    return {
      ok: false,
      message: `The file has ${(rows.length + faults.length).toLocaleString('en')} rows; one import takes at most ${MAX_ROWS.toLocaleString('en')}. Split it.`,
    };
  }
  return {
    ok: true,
    encoding: decoded.encoding,
    encodingSource: decoded.source,
    delimiter,
    headers,
    rows,
    faults,
  };
}
