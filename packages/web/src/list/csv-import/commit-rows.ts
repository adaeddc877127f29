import type { DataProvider, ImportParams, ImportReport } from '../../data/data-provider';

/** Rows per request of a real import: progress a person can see, and a retry that repeats little. */
export const BATCH_ROWS = 1_000;

export interface CommitState {
  /** Batches written, and where the next one starts. */
  done: number;
  report: ImportReport;
}

/**
 * Writes the rows in batches, each under its own idempotency key (`{importKey}-{batch}`), and adds up
 * their reports. From `from` on: after a failure the person tries again, and the batches already
 * written are not sent again; a batch whose answer was lost is sent with its key and answered, not
 * written twice.
 *
 * @example
 * await commitRows(data, { entity: 'Boat', existing: 'skip' }, rows, 'import-4f2', undefined, onBatch);
 */
export async function commitRows(
  data: Required<Pick<DataProvider, 'importRows'>>,
  params: Pick<ImportParams, 'entity' | 'match' | 'existing'>,
  rows: Array<Record<string, string>>,
  importKey: string,
  from: CommitState | undefined,
  onBatch: (state: CommitState) => void,
  signal?: AbortSignal,
): Promise<CommitState> {
  let state: CommitState = from ?? { done: 0, report: emptyReport(rows.length) };
  const batches = Math.ceil(rows.length / BATCH_ROWS);
  for (let batch = state.done; batch < batches; batch++) {
    const start = batch * BATCH_ROWS;
    const part = await data.importRows({
      ...params,
      rows: rows.slice(start, start + BATCH_ROWS),
      dryRun: false,
      firstRow: start + 2,
      idempotencyKey: `${importKey}-${batch}`,
      ...(signal ? { signal } : {}),
    });
    state = { done: batch + 1, report: addReports(state.report, part) };
    onBatch(state);
  }
  return state;
}

export function emptyReport(rows: number): ImportReport {
  return {
    dryRun: false,
    rows,
    created: 0,
    updated: 0,
    skipped: 0,
    refused: 0,
    errors: [],
    errorsLeftOut: 0,
    ignored: [],
  };
}

function addReports(total: ImportReport, part: ImportReport): ImportReport {
  return {
    dryRun: false,
    rows: total.rows,
    created: total.created + part.created,
    updated: total.updated + part.updated,
    skipped: total.skipped + part.skipped,
    refused: total.refused + part.refused,
    errors: [...total.errors, ...part.errors].slice(0, 1_000),
    errorsLeftOut:
      total.errorsLeftOut +
      part.errorsLeftOut +
      Math.max(0, total.errors.length + part.errors.length - 1_000),
    ignored: part.ignored,
  };
}
