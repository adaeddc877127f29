// Reading a CSV file a person chose: its bytes as UTF-8 text, then rows with a header, each problem said
// with where it is. Pure, so the worker (csv.worker.ts) runs it off the page and the tests run it as is.
import Papa from 'papaparse';

export type CsvRead = { ok: true; headers: string[]; rows: string[][] } | { ok: false; message: string };

/** More rows than one import takes are refused before anything is sent. */
export const MAX_ROWS = 100_000;

/**
 * The file's rows. Refused with a reason a person can act on: no bytes, bytes that are not UTF-8 (a
 * spreadsheet's "CSV" in a legacy encoding), quotes that never close, rows of another width than the
 * header, a single column that looks like another separator, or more than `MAX_ROWS` rows.
 *
 * @example
 * readCsv(new TextEncoder().encode('name,email\nAda,ada@example.com')); // { ok: true, headers: ['name', 'email'], rows: [['Ada', 'ada@example.com']] }
 */
export function readCsv(bytes: Uint8Array): CsvRead {
  if (bytes.length === 0) return { ok: false, message: 'The file is empty.' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstBadByte(bytes);
    return {
      ok: false,
      message: `The file is not UTF-8 text (byte ${at.toLocaleString('en')} is not). Save it as "CSV UTF-8" and choose it again.`,
    };
  }
  text = text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { ok: false, message: 'The file is empty.' };
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const [headers = [], ...rows] = parsed.data;
  const broken = parsed.errors.find((error) => error.type === 'Quotes');
  if (broken) {
    return { ok: false, message: `Row ${(broken.row ?? 0) + 1}: a quote opens and never closes.` };
  }
  if (headers.length === 1 && /[;\t|:]/.test(headers[0] ?? '')) {
    return {
      ok: false,
      message: `The file has one column, "${clip(headers[0] ?? '')}": its values seem to be separated by something other than commas. Save it as CSV with commas.`,
    };
  }
  if (rows.length === 0) return { ok: false, message: 'The file has a header row but no rows.' };
  if (rows.length > MAX_ROWS) {
    return {
      ok: false,
      message: `The file has ${rows.length.toLocaleString('en')} rows; one import takes at most ${MAX_ROWS.toLocaleString('en')}. Split it.`,
    };
  }
  const uneven = rows.findIndex((row) => row.length !== headers.length);
  if (uneven >= 0) {
    return {
      ok: false,
      message: `Row ${uneven + 2} has ${rows[uneven]?.length} cells where the header has ${headers.length}.`,
    };
  }
  return { ok: true, headers: headers.map((header) => header.trim()), rows };
}

function firstBadByte(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Halves the prefix until the bad byte is found: a handful of decodes, not one per byte.
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    try {
      decoder.decode(bytes.subarray(0, middle), { stream: true });
      decoder.decode();
      good = middle;
    } catch {
      bad = middle;
    }
  }
  return bad;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
