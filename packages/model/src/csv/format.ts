// How a file writes numbers and dates: "36.500" is thirty-six and a half in one country and thirty-six
// thousand five hundred in another. The format is detected from the whole file, shown, and may be changed
// by the person; a file whose values could be read two ways, with nothing in it to tell which, is never
// read by a guess: `detectFormat` says it is unsure, and the caller asks.

/** The decimal mark; the thousands mark is then the other one (spaces and `'` group digits too). */
export type CsvDecimal = '.' | ',';
/** The order of day, month and year in dates not written as ISO 8601 (`2024-12-31` is always read). */
export type CsvDateOrder = 'ymd' | 'dmy' | 'mdy';

export interface CsvFormat {
  decimal: CsvDecimal;
  dateOrder: CsvDateOrder;
}

/** What the API and an export write: ISO dates and numbers as JavaScript writes them. */
export const PLAIN_FORMAT: CsvFormat = { decimal: '.', dateOrder: 'ymd' };

/** How a format writes a number and a date, for messages and choices. */
export function numberExample(decimal: CsvDecimal): string {
  return decimal === '.' ? '1,234.56' : '1.234,56';
}

export function dateExample(order: CsvDateOrder): string {
  switch (order) {
    case 'ymd':
      return 'YYYY-MM-DD';
    case 'dmy':
      return 'DD/MM/YYYY';
    case 'mdy':
      return 'MM/DD/YYYY';
  }
}

export type CsvRead<T> = { ok: true; value: T } | { ok: false; message: string };

const GROUP_MARKS = [' ', '\u00a0', '\u202f', "'"];

/**
 * A number as the format writes it: an optional sign, digits grouped by threes with the thousands mark
 * (or a space, or `'`) or not grouped at all, and at most one decimal mark. Anything else is refused,
 * never read in part: "12,5" in a file with decimal points is not 125.
 *
 * @example
 * readNumber('36.500', ','); // { ok: true, value: 36500 }
 * readNumber('1 234,5', ','); // { ok: true, value: 1234.5 }
 * readNumber('12,5', '.'); // { ok: false, message: 'is not a number written as 1,234.56: "12,5"' }
 */
export function readNumber(text: string, decimal: CsvDecimal): CsvRead<number> {
  // Made only for a cell that is no number: most cells are, and a message per cell would cost more than
  // reading it.
  const refused = () => ({
    ok: false as const,
    message: `is not a number written as ${numberExample(decimal)}: "${shown(text)}"`,
  });
  const trimmed = text.trim();
  if (/^\d{1,15}$/.test(trimmed)) return { ok: true, value: Number(trimmed) };
  const sign = /^[+-]/.test(trimmed) ? (trimmed[0] as string) : '';
  const body = trimmed.slice(sign.length);
  const scientific = /^(\d+)(?:[.,](\d+))?[eE]([+-]?\d+)$/.exec(body);
  if (scientific) {
    if (body.includes(decimal === '.' ? ',' : '.')) return refused();
    const value = Number(`${sign}${scientific[1]}.${scientific[2] ?? '0'}e${scientific[3]}`);
    return Number.isFinite(value) ? { ok: true, value } : refused();
  }
  const parts = body.split(decimal);
  if (parts.length > 2) return refused();
  const [whole = '', fraction] = parts;
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return refused();
  const digits = ungrouped(whole, decimal === '.' ? ',' : '.');
  if (digits === undefined || (digits === '' && fraction === undefined)) return refused();
  const value = Number(`${sign}${digits || '0'}${fraction === undefined ? '' : `.${fraction}`}`);
  return Number.isFinite(value) ? { ok: true, value } : refused();
}

/** The digits of a whole part, plain or grouped by threes with one mark throughout; undefined if neither. */
function ungrouped(whole: string, thousands: string): string | undefined {
  if (/^\d*$/.test(whole)) return whole;
  for (const mark of [thousands, ...GROUP_MARKS]) {
    const groups = whole.split(mark);
    if (groups.length < 2) continue;
    const [first = '', ...rest] = groups;
    if (/^\d{1,3}$/.test(first) && rest.every((group) => /^\d{3}$/.test(group))) return groups.join('');
  }
  return undefined;
}

/**
 * A date as the format writes it, as ISO 8601: `2024-12-31` and `2024/12/31` always, and day, month and
 * year in the format's order with `/`, `.` or `-` between. Two-digit years and dates that do not exist
 * are refused. With a time after it (`31.12.2024 14:30`), the ISO date and time in UTC, as the API keeps
 * times (a file written by hand names no zone; docs/prototype-api.md says so).
 *
 * @example
 * readDate('31.12.2024', 'dmy', false); // { ok: true, value: '2024-12-31' }
 * readDate('12/31/2024 14:30', 'mdy', true); // { ok: true, value: '2024-12-31T14:30:00Z' }
 */
export function readDate(text: string, order: CsvDateOrder, withTime: boolean): CsvRead<string> {
  const trimmed = text.trim();
  const refused = () => ({
    ok: false as const,
    message: `is not a date written as ${withTime ? `${dateExample(order)} hh:mm` : dateExample(order)}: "${shown(text)}"`,
  });
  if (!withTime && /^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
    const [year, month, day] = trimmed.split('-').map(Number) as [number, number, number];
    return exists(year, month, day) ? { ok: true, value: trimmed } : refused();
  }
  if (withTime && /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(trimmed)) {
    // ISO 8601 with a time, a zone or not: read as the API reads it.
    return Number.isNaN(Date.parse(trimmed.replace(' ', 'T'))) ? refused() : { ok: true, value: trimmed };
  }
  const match = /^(\d{1,4})([-/.])(\d{1,2})\2(\d{1,4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(trimmed);
  if (!match) return refused();
  const [, first = '', , second = '', third = '', hour, minute, secondOfMinute] = match;
  if (hour !== undefined && !withTime) return refused();
  let year: string;
  let month: string;
  let day: string;
  if (first.length === 4) [year, month, day] = [first, second, third];
  else if (third.length === 4 && order === 'dmy') [day, month, year] = [first, second, third];
  else if (third.length === 4 && order === 'mdy') [month, day, year] = [first, second, third];
  else if (third.length === 2 || first.length === 2) {
    return { ok: false, message: `has a two-digit year; write the year in full: "${shown(text)}"` };
  } else return refused();
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  if (!exists(Number(year), Number(month), Number(day))) return refused();
  if (!withTime) return { ok: true, value: iso };
  if (hour === undefined) return { ok: true, value: `${iso}T00:00:00Z` };
  if (Number(hour) > 23 || Number(minute) > 59 || Number(secondOfMinute ?? 0) > 59) return refused();
  return { ok: true, value: `${iso}T${hour.padStart(2, '0')}:${minute}:${secondOfMinute ?? '00'}Z` };
}

function exists(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The cells a format is detected from: those of number columns and of date columns. */
export interface FormatSample {
  numbers: Iterable<string>;
  dates: Iterable<string>;
}

/** A format, with what could not be told from the file (the person must say) and a value that shows why. */
export interface DetectedFormat {
  format: CsvFormat;
  unsure: Array<{ part: keyof CsvFormat; example: string }>;
}

/**
 * The format of a file, from its values: a value only one format reads ("172101,96", "1.234.567",
 * "31/12/2024") decides; a value two formats read differently ("36.500", "03/04/2024") decides nothing,
 * and when nothing in the file decides, that part is unsure. Values that decide two ways are counted and
 * the larger count wins: the others are then refused, row by row, when read.
 *
 * @example
 * detectCsvFormat({ numbers: ['172101,96', '36.500'], dates: ['31.12.2024'] }); // { format: { decimal: ',', dateOrder: 'dmy' }, unsure: [] }
 * detectCsvFormat({ numbers: ['36.500'], dates: [] }).unsure; // [{ part: 'decimal', example: '36.500' }]
 */
export function detectCsvFormat(sample: FormatSample, fallback: CsvFormat = PLAIN_FORMAT): DetectedFormat {
  const unsure: DetectedFormat['unsure'] = [];
  const marks = { '.': 0, ',': 0 };
  let twoWays: string | undefined;
  for (const cell of sample.numbers) {
    const evidence = decimalEvidence(cell);
    if (evidence === 'either') twoWays ??= cell.trim();
    else if (evidence) marks[evidence]++;
  }
  let decimal = fallback.decimal;
  if (marks['.'] + marks[','] > 0) decimal = marks[','] > marks['.'] ? ',' : '.';
  else if (twoWays !== undefined) unsure.push({ part: 'decimal', example: twoWays });

  const orders = { dmy: 0, mdy: 0 };
  let eitherDate: string | undefined;
  let local = false;
  for (const cell of sample.dates) {
    const evidence = dateEvidence(cell);
    if (evidence === undefined) continue;
    local = true;
    if (evidence === 'either') eitherDate ??= cell.trim();
    else if (evidence !== 'same') orders[evidence]++;
  }
  let dateOrder = fallback.dateOrder;
  if (orders.dmy + orders.mdy > 0) dateOrder = orders.mdy > orders.dmy ? 'mdy' : 'dmy';
  else if (eitherDate !== undefined) unsure.push({ part: 'dateOrder', example: eitherDate });
  // Only dates whose day is their month ("03/03/2024"): either order reads them alike.
  else if (local && dateOrder === 'ymd') dateOrder = 'dmy';
  return { format: { decimal, dateOrder }, unsure };
}

/** Which decimal mark a number's text shows, if one alone reads it; 'either' when both read it, differently. */
function decimalEvidence(text: string): CsvDecimal | 'either' | undefined {
  const body = text.trim().replace(/^[+-]/, '');
  const dot = body.lastIndexOf('.');
  const comma = body.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) {
    const decimal: CsvDecimal = dot > comma ? '.' : ',';
    return readNumber(body, decimal).ok ? decimal : undefined;
  }
  if (dot < 0 && comma < 0) return undefined;
  const mark: CsvDecimal = dot >= 0 ? '.' : ',';
  const other: CsvDecimal = mark === '.' ? ',' : '.';
  const asDecimal = readNumber(body, mark).ok;
  const asThousands = /^[1-9]\d{0,2}(?:[.,]\d{3})+$/.test(body) && readNumber(body, other).ok;
  if (asDecimal && asThousands) return 'either';
  if (asDecimal) return mark;
  if (asThousands) return other;
  return undefined;
}

/** Which order a date's text shows: undefined when it is ISO or no date, 'either' when both orders read it differently. */
function dateEvidence(text: string): 'dmy' | 'mdy' | 'either' | 'same' | undefined {
  const match = /^(\d{1,2})[-/.](\d{1,2})[-/.]\d{4}\b/.exec(text.trim());
  if (!match) return undefined;
  const first = Number(match[1]);
  const second = Number(match[2]);
  if (first > 12 && second <= 12) return 'dmy';
  if (second > 12 && first <= 12) return 'mdy';
  if (first > 12 || second > 12) return undefined;
  return first === second ? 'same' : 'either';
}

function shown(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
