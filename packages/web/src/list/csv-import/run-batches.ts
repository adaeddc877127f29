// Sending a file's rows in parts, for the check and the import alike. Each part is sized to take about
// TARGET_MS on the server: the server answers others between parts (SQLite writes one transaction at a
// time), progress moves, and a retry repeats little.
import type { CsvImportReport as ImportReport } from '@ninefold/model';

/** A row to send: its number in the file, and its cells' texts by field name. */
export interface SendableRow {
  row: number;
  values: Record<string, string>;
}

export interface BatchState {
  /** Rows sent and answered: the next part starts here. */
  done: number;
  /** The size of the next part. A part sent again after a failure keeps its size, so its key finds it. */
  size: number;
  report: ImportReport;
}

const FIRST_SIZE = 200;
const MIN_SIZE = 25;
const MAX_SIZE = 2_000;
const TARGET_MS = 150;

/** The next part's size, from how long the last one took: doubled or halved towards TARGET_MS. */
export function nextSize(size: number, ms: number): number {
  if (ms < TARGET_MS / 2) return Math.min(MAX_SIZE, size * 2);
  if (ms > TARGET_MS * 2) return Math.max(MIN_SIZE, Math.floor(size / 2));
  return size;
}

/**
 * Sends the rows part by part from `from` on (after a failure, the parts already answered are not sent
 * again), adding each answer to the report. `send` gets the part and where it starts, which keys it.
 *
 * @example
 * await runBatches((part, start) => data.importRows({ …, rows: part.map((row) => row.values), idempotencyKey: `${key}-${start}` }), rows, undefined, emptyImportReport(rows.length, false), onBatch);
 */
export async function runBatches(
  send: (part: SendableRow[], start: number) => Promise<ImportReport>,
  rows: readonly SendableRow[],
  from: BatchState | undefined,
  start: ImportReport,
  onBatch: (state: BatchState) => void,
  now: () => number = () => performance.now(),
): Promise<BatchState> {
  let state: BatchState = from ?? { done: 0, size: FIRST_SIZE, report: start };
  while (state.done < rows.length) {
    const part = rows.slice(state.done, state.done + state.size);
    const began = now();
    const answer = await send(part, state.done);
    state = {
      done: state.done + part.length,
      size: nextSize(state.size, now() - began),
      report: addReports(state.report, answer),
    };
    onBatch(state);
  }
  state.report.errors.sort((a, b) => a.row - b.row);
  return state;
}

/** Two reports as one: counts added, every error kept (`runBatches` puts them in the file's order). */
export function addReports(total: ImportReport, part: ImportReport): ImportReport {
  return {
    dryRun: total.dryRun,
    rows: total.rows,
    created: total.created + part.created,
    updated: total.updated + part.updated,
    unchanged: total.unchanged + part.unchanged,
    skipped: total.skipped + part.skipped,
    alreadyImported: total.alreadyImported + part.alreadyImported,
    refused: total.refused + part.refused,
    errors: total.errors.concat(part.errors),
    ignored: part.ignored.length > 0 ? part.ignored : total.ignored,
    ...(part.format ? { format: part.format } : total.format ? { format: total.format } : {}),
  };
}
