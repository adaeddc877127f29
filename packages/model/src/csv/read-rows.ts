// A file's rows as values of their fields, and every fault a row has before anything is written: cells
// that are not values of their field, and unique values the file repeats. One function for the client,
// which checks a whole file, and the API, which checks the rows it is sent: both refuse the same rows
// with the same words.
import { fieldLabel, findEntity, hasNumericKey, uniqueFields } from '../lookup';
import type { Entity, Field, Model } from '../model';
import { csvValue } from './cells';
import { type ReadRow, repeatedValues } from './duplicates';
import type { CsvFormat, FormatSample } from './format';
import type { CsvRow } from './rows';

/** A cell longer than this is not a value a form could have taken either. */
export const MAX_CELL_CHARS = 1_000_000;

export interface RowError {
  row: number;
  field?: string;
  message: string;
}

/** Rows read as values, and the faults of those that have any, by row number. */
export interface ReadRows {
  rows: ReadRow[];
  errors: Map<number, RowError[]>;
}

/**
 * Each row's values by field name, and the faults of the rows that have any, by row number: cells that
 * are no value of their field (`readCells`), then unique values the rows repeat (`addRepeats`).
 *
 * @example
 * readRows(model, product, [{ row: 2, cells: ['Tea', '3,50'] }], new Map([[0, name], [1, price]]), { decimal: ',', dateOrder: 'dmy' });
 * // { rows: [{ row: 2, values: { name: 'Tea', price: 3.5 } }], errors: Map {} }
 */
export function readRows(
  model: Model,
  entity: Entity,
  rows: readonly CsvRow[],
  columns: ReadonlyMap<number, Field>,
  format: CsvFormat,
): ReadRows {
  return addRepeats(model, entity, readCells(model, rows, columns, format));
}

/** The cells of the rows as values, each cell that is none a fault of its row. Row by row: a caller may read a file in parts. */
export function readCells(
  model: Model,
  rows: readonly CsvRow[],
  columns: ReadonlyMap<number, Field>,
  format: CsvFormat,
): ReadRows {
  const numericKey = new Map<string, boolean>();
  for (const field of columns.values()) {
    const target = field.kind === 'reference' ? findEntity(model, field.entity) : undefined;
    numericKey.set(field.name, target ? hasNumericKey(target) : false);
  }
  const read: ReadRow[] = [];
  const errors = new Map<number, RowError[]>();
  for (const { row, cells } of rows) {
    const values: ReadRow['values'] = {};
    const faults: RowError[] = [];
    for (const [column, field] of columns) {
      const text = cells[column] ?? '';
      if (text.length > MAX_CELL_CHARS) {
        faults.push({
          row,
          field: field.name,
          message: `${fieldLabel(field)}: the cell holds ${text.length.toLocaleString('en')} characters; a cell holds at most ${MAX_CELL_CHARS.toLocaleString('en')}.`,
        });
        continue;
      }
      const value = csvValue(text, field, numericKey.get(field.name), format);
      if (!value.ok)
        faults.push({ row, field: field.name, message: `${fieldLabel(field)} ${value.message}.` });
      else if (value.value !== undefined) values[field.name] = value.value;
    }
    if (faults.length > 0) errors.set(row, faults);
    read.push({ row, values });
  }
  return { rows: read, errors };
}

/** Every row (of those without a fault yet) that repeats a unique value of an earlier one, as a fault of the later row. */
export function addRepeats(model: Model, entity: Entity, read: ReadRows): ReadRows {
  const { errors } = read;
  const clean = read.rows.filter((row) => !errors.has(row.row));
  for (const repeat of repeatedValues(clean, uniqueFields(model, entity))) {
    const field = entity.fields.find((candidate) => candidate.name === repeat.field) ?? {
      name: repeat.field,
    };
    errors.set(repeat.row, [
      ...(errors.get(repeat.row) ?? []),
      {
        row: repeat.row,
        field: repeat.field,
        message: `${fieldLabel(field)} is the same as in row ${repeat.earlier} of this file.`,
      },
    ]);
  }
  return read;
}

/**
 * The cells a file's format is detected from (`detectCsvFormat`): those of its number columns and of its
 * date columns, as mapped.
 */
export function formatSample(rows: readonly CsvRow[], columns: ReadonlyMap<number, Field>): FormatSample {
  const numbers: string[] = [];
  const dates: string[] = [];
  for (const [index, field] of columns) {
    const into =
      field.kind === 'number' || field.kind === 'money' || field.kind === 'integer'
        ? numbers
        : field.kind === 'date' || field.kind === 'datetime'
          ? dates
          : undefined;
    if (!into) continue;
    for (const { cells } of rows) if (cells[index]) into.push(cells[index] as string);
  }
  return { numbers, dates };
}
