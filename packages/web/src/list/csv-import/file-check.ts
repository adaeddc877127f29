// What the client finds in a whole file before it sends a row: the format its values show, rows the file
// itself spoils, cells that are not values of their field, and unique values it repeats. The core's rules,
// as the API runs them on each part: a check sent in parts, and the import after it, refuse the same rows.

import type { CsvImportReport as ImportReport } from '@ninefold/model';
import {
  type CsvFormat,
  type DetectedFormat,
  detectCsvFormat,
  type Entity,
  emptyImportReport,
  type Field,
  formatSample,
  type Model,
  readRows,
} from '@ninefold/model';
import type { CsvFile } from './read-csv';
import type { SendableRow } from './run-batches';

/** Each mapped column's field, by the column's place. */
export function mappedColumns(
  entity: Entity,
  mapping: ReadonlyArray<string | undefined>,
): Map<number, Field> {
  const columns = new Map<number, Field>();
  for (const [index, name] of mapping.entries()) {
    const field = name === undefined ? undefined : entity.fields.find((candidate) => candidate.name === name);
    if (field) columns.set(index, field);
  }
  return columns;
}

/** The format the file's number and date columns show, and what they leave open. */
export function fileFormat(file: CsvFile, columns: ReadonlyMap<number, Field>): DetectedFormat {
  return detectCsvFormat(formatSample(file.rows, columns));
}

/**
 * The rows worth sending (by field name, as the file wrote them), and a report of those that are not:
 * the start of the check's report and of the import's.
 */
export function fileCheck(
  model: Model,
  entity: Entity,
  file: CsvFile,
  columns: ReadonlyMap<number, Field>,
  format: CsvFormat,
  dryRun: boolean,
): { sendable: SendableRow[]; report: ImportReport } {
  const { errors } = readRows(model, entity, file.rows, columns, format);
  const report = emptyImportReport(file.rows.length + file.faults.length, dryRun);
  for (const fault of file.faults) report.errors.push({ row: fault.row, message: fault.message });
  for (const rowErrors of errors.values()) report.errors.push(...rowErrors);
  report.errors.sort((a, b) => a.row - b.row);
  report.refused = file.faults.length + errors.size;
  report.format = format;
  const sendable: SendableRow[] = [];
  for (const { row, cells } of file.rows) {
    if (errors.has(row)) continue;
    const values: Record<string, string> = {};
    for (const [index, field] of columns) values[field.name] = cells[index] ?? '';
    sendable.push({ row, values });
  }
  return { sendable, report };
}
