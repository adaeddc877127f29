// What an import is asked to do, read strictly before any row is: its options, its rows (CSV bytes in
// any encoding the core reads, or JSON), which column holds which field, and how the file writes numbers
// and dates (csv-import.ts imports them).
import {
  type CsvDateOrder,
  type CsvDecimal,
  type CsvDelimiter,
  type CsvFormat,
  type CsvRow,
  type CsvRowFault,
  dateExample,
  decodeCsv,
  detectCsvFormat,
  type Entity,
  entityLabel,
  type Field,
  fieldAccess,
  fieldLabel,
  fieldsEveryNewRecordNeeds,
  formatSample,
  machineOf,
  numberExample,
  parseCsv,
  uniqueFields,
} from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import { principalOf } from './access';
import { clip, ProblemError, problem } from './problem';
import type { Context } from './record-context';

/** Rows one request may carry: a larger file is sent in parts. */
export const MAX_IMPORT_ROWS = 100_000;

const DATE_ORDERS: readonly CsvDateOrder[] = ['ymd', 'dmy', 'mdy'];
const DELIMITER_NAMES: Record<string, CsvDelimiter> = { ',': ',', ';': ';', tab: '\t', '|': '|' };

export interface ImportOptions {
  dryRun: boolean;
  /** A unique field (or the key) that finds the record a row is about, when it exists. */
  match?: string;
  /** What a row matching an existing record does. */
  existing: 'skip' | 'update';
  /** The file's row number of the first row sent (a header is row 1), for the report's row numbers. */
  firstRow: number;
  /** How numbers and dates are written, where the request says. */
  decimal?: CsvDecimal;
  dateOrder?: CsvDateOrder;
  delimiter?: CsvDelimiter;
  /** Import rows an earlier import made already (matched on no field), as new records again. */
  again: boolean;
}

/** A column left unread, and why. */
export interface IgnoredColumn {
  column: string;
  reason: string;
}

/** The rows of a request: a header, rows numbered as in the file, and the rows the file itself spoils. */
export interface ImportTable {
  headers: string[];
  rows: CsvRow[];
  faults: CsvRowFault[];
  delimiter: CsvDelimiter;
}

const PARAMETERS = ['dryRun', 'match', 'existing', 'firstRow', 'decimal', 'dateOrder', 'delimiter', 'again'];

/** The import's options from the query, strictly: an unknown one, or a bad value, is a 400 saying which. */
export function importOptions(entity: Entity, context: Context, request: FastifyRequest): ImportOptions {
  const query = (request.query ?? {}) as Record<string, string | string[] | undefined>;
  const problems: string[] = [];
  const one = (name: string) => {
    const value = query[name];
    return Array.isArray(value) ? value.at(-1) : value;
  };
  for (const name of Object.keys(query)) {
    if (!PARAMETERS.includes(name)) {
      problems.push(`"${clip(name)}" is not a parameter of an import; it takes ${PARAMETERS.join(', ')}.`);
    }
  }
  const dry = one('dryRun') ?? 'false';
  if (dry !== 'true' && dry !== 'false') problems.push(`"dryRun" is true or false, not "${clip(dry)}".`);
  const existing = one('existing') ?? 'skip';
  if (existing !== 'skip' && existing !== 'update')
    problems.push(`"existing" is skip or update, not "${clip(existing)}".`);
  const first = one('firstRow') ?? '2';
  if (!/^\d{1,9}$/.test(first) || Number(first) < 1)
    problems.push(`"firstRow" is a row number from 1, not "${clip(first)}".`);
  const match = one('match');
  const unique = uniqueFields(context.model, entity);
  if (match !== undefined && !unique.includes(match)) {
    problems.push(
      `"match" names a field no two ${entityLabel(entity)} records share: ${unique.join(', ') || 'none'}; not "${clip(match)}".`,
    );
  }
  const decimal = one('decimal');
  if (decimal !== undefined && decimal !== '.' && decimal !== ',')
    problems.push(`"decimal" is . or , (the decimal mark), not "${clip(decimal)}".`);
  const again = one('again') ?? 'false';
  if (again !== 'true' && again !== 'false') problems.push(`"again" is true or false, not "${clip(again)}".`);
  const dateOrder = one('dateOrder');
  if (dateOrder !== undefined && !(DATE_ORDERS as readonly string[]).includes(dateOrder))
    problems.push(`"dateOrder" is ymd, dmy or mdy, not "${clip(dateOrder)}".`);
  const delimiter = one('delimiter');
  if (delimiter !== undefined && DELIMITER_NAMES[delimiter] === undefined)
    problems.push(`"delimiter" is one of , ; tab |, not "${clip(delimiter)}".`);
  if (problems.length > 0) throw new ProblemError(problem(400, 'INVALID_QUERY', problems.join(' ')));
  return {
    dryRun: dry === 'true',
    ...(match === undefined ? {} : { match }),
    existing: existing as ImportOptions['existing'],
    firstRow: Number(first),
    again: again === 'true',
    ...(decimal === undefined ? {} : { decimal: decimal as CsvDecimal }),
    ...(dateOrder === undefined ? {} : { dateOrder: dateOrder as CsvDateOrder }),
    ...(delimiter === undefined ? {} : { delimiter: DELIMITER_NAMES[delimiter] as CsvDelimiter }),
  };
}

/**
 * The rows of the body: CSV bytes with a header row, decoded by the core's rule (its `charset` is used
 * when the bytes are not UTF-8), or JSON `{ rows: [{ column: text }], rowNumbers?: [n] }`.
 */
export function tableOf(request: FastifyRequest, options: ImportOptions): ImportTable {
  const body = request.body;
  let table: ImportTable;
  if (Buffer.isBuffer(body)) table = csvTable(body, charsetOf(request), options);
  else if (body !== null && typeof body === 'object' && Array.isArray((body as { rows?: unknown }).rows)) {
    table = jsonTable(body as { rows: unknown[]; rowNumbers?: unknown }, options);
  } else {
    throw new ProblemError(
      problem(
        400,
        'BAD_REQUEST',
        'Send the rows as text/csv with a header row, or as JSON { "rows": [{ "column": "text" }] }.',
      ),
    );
  }
  const count = table.rows.length + table.faults.length;
  if (count === 0)
    throw new ProblemError(problem(400, 'EMPTY_FILE', 'The file has a header row but no rows.'));
  if (count > MAX_IMPORT_ROWS) {
    throw new ProblemError(
      problem(
        413,
        'TOO_MANY_ROWS',
        `${count.toLocaleString('en')} rows are more than one request takes (${MAX_IMPORT_ROWS.toLocaleString('en')}); send the file in parts with firstRow.`,
      ),
    );
  }
  return table;
}

function charsetOf(request: FastifyRequest): string | undefined {
  const type = String(request.headers['content-type'] ?? '');
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1];
}

function csvTable(bytes: Buffer, charset: string | undefined, options: ImportOptions): ImportTable {
  const decoded = decodeCsv(bytes, charset ? { declared: charset } : {});
  if (!decoded.ok) throw new ProblemError(problem(400, decoded.code, decoded.message));
  const parsed = parseCsv(decoded.text, options.delimiter);
  if (!parsed.ok) {
    const code = parsed.message === 'The file is empty.' ? 'EMPTY_FILE' : 'BAD_CSV';
    throw new ProblemError(problem(400, code, parsed.message));
  }
  // A part of a file sent with its header: its rows are numbered from firstRow.
  const shift = options.firstRow - 2;
  const { headers, rows, faults, delimiter } = parsed.table;
  return {
    headers,
    delimiter,
    rows: shift === 0 ? rows : rows.map((row) => ({ ...row, row: row.row + shift })),
    faults: faults.map((fault) =>
      shift === 0
        ? fault
        : {
            ...fault,
            row: fault.row + shift,
            message: fault.message.replace(/^Row \d+/, `Row ${fault.row + shift}`),
          },
    ),
  };
}

function jsonTable(body: { rows: unknown[]; rowNumbers?: unknown }, options: ImportOptions): ImportTable {
  const numbers = body.rowNumbers;
  if (
    numbers !== undefined &&
    !(
      Array.isArray(numbers) &&
      numbers.length === body.rows.length &&
      numbers.every((number) => Number.isSafeInteger(number) && number >= 2)
    )
  ) {
    throw new ProblemError(
      problem(
        400,
        'BAD_REQUEST',
        '"rowNumbers" gives each row its number in the file: one number from 2 per row.',
      ),
    );
  }
  let headers: string[] = [];
  const rows: CsvRow[] = [];
  for (const [index, row] of body.rows.entries()) {
    if (
      row === null ||
      typeof row !== 'object' ||
      Array.isArray(row) ||
      Object.values(row).some((value) => typeof value !== 'string')
    ) {
      throw new ProblemError(
        problem(400, 'BAD_REQUEST', `Row ${index + 1} is not an object of texts, one per column.`),
      );
    }
    if (index === 0) headers = Object.keys(row);
    const cells = headers.map((header) => (row as Record<string, string>)[header] ?? '');
    rows.push({ row: (numbers as number[] | undefined)?.[index] ?? options.firstRow + index, cells });
  }
  return { headers, rows, faults: [], delimiter: ',' };
}

/**
 * How the rows write numbers and dates: as the request says, else as their values show. A part that the
 * values leave open ("36.500" and nothing else) and the request does not settle is refused, naming the
 * value and the parameter that settles it: it is never guessed.
 */
export function formatOf(table: ImportTable, fields: Map<number, Field>, options: ImportOptions): CsvFormat {
  const detected = detectCsvFormat(formatSample(table.rows, fields));
  const format: CsvFormat = {
    decimal: options.decimal ?? detected.format.decimal,
    dateOrder: options.dateOrder ?? detected.format.dateOrder,
  };
  const open = detected.unsure.filter((part) => options[part.part] === undefined);
  if (open.length > 0) {
    throw new ProblemError(
      problem(
        422,
        'AMBIGUOUS_FORMAT',
        open
          .map((part) =>
            part.part === 'decimal'
              ? `The file's numbers can be read two ways ("${clip(part.example)}" is one): say how it writes them with decimal=. (${numberExample('.')}) or decimal=, (${numberExample(',')}).`
              : `The file's dates can be read two ways ("${clip(part.example)}" is one): say their order with dateOrder=dmy (${dateExample('dmy')}) or dateOrder=mdy (${dateExample('mdy')}).`,
          )
          .join(' '),
      ),
    );
  }
  return format;
}

/**
 * Which column holds which field: a column named like a field (its name or label, in any case) that the
 * role may write; every other column is left aside with the reason. A file without a column a new record
 * needs is refused before any row is read.
 */
export function columnPlan(
  context: Context,
  request: FastifyRequest,
  entity: Entity,
  headers: string[],
  options: ImportOptions,
): { fields: Map<number, Field>; ignored: IgnoredColumn[] } {
  const { model } = context;
  const access = fieldAccess(model, principalOf(request), entity.name);
  const machine = machineOf(model, entity);
  const fields = new Map<number, Field>();
  const ignored: IgnoredColumn[] = [];
  const taken = new Set<string>();
  for (const [index, header] of headers.entries()) {
    const wanted = header.trim().toLowerCase();
    const field = entity.fields.find(
      (candidate) =>
        candidate.name.toLowerCase() === wanted || fieldLabel(candidate).toLowerCase() === wanted,
    );
    const reason = !field
      ? `it is not a field of ${entityLabel(entity)}`
      : taken.has(field.name)
        ? `another column holds ${fieldLabel(field)} already`
        : field.name === options.match
          ? undefined
          : field.kind === 'file'
            ? 'files are not imported from CSV'
            : field.readOnly || field.derived !== undefined || field.name === machine?.field
              ? 'the API sets it'
              : access.hidden.has(field.name) || access.readOnly.has(field.name)
                ? 'your role may not write it'
                : undefined;
    if (reason !== undefined || !field) ignored.push({ column: header, reason: reason ?? 'unknown' });
    else {
      fields.set(index, field);
      taken.add(field.name);
    }
  }
  const missing = fieldsEveryNewRecordNeeds(context.model, entity).filter((name) => !taken.has(name));
  if (missing.length > 0 && options.existing !== 'update') {
    const labels = missing.map((name) =>
      fieldLabel(entity.fields.find((field) => field.name === name) ?? { name }),
    );
    throw new ProblemError(
      problem(
        422,
        'MISSING_COLUMNS',
        `The file has no column for ${labels.join(', ')}, which every ${entityLabel(entity)} needs.`,
        {
          errors: missing.map((name) => ({
            pointer: `/${name}`,
            code: 'required',
            detail: 'No column holds it.',
          })),
        },
      ),
    );
  }
  return { fields, ignored };
}
