// The calls of whole files: a list exported as CSV and rows imported, where the API is Ninefold's
// prototype API (the only one that says it makes and takes them: `api.csv`, `api.import`).
import type { ApiDescription, Call, Model } from '@ninefold/model';
import type { EntityCalls, ImportParams, ImportReport, ListParams } from './data-provider';
import { requireListCall } from './entity-calls';
import type { Answer, SendInit } from './http-data-provider';
import { listSearchParams } from './list-request';

/** A dry run of 100,000 rows checks each one against the database: minutes, not seconds. */
const IMPORT_TIMEOUT_MS = 10 * 60_000;
/** The prototype API's import, as a call (it is no call of point 7). */
const IMPORT_CALL: Call = {
  name: 'import',
  method: 'POST',
  path: '',
  purpose: 'other',
  parameters: [],
  filters: [],
};

export interface FileCallsContext {
  api: ApiDescription;
  model: Model;
  /** The API's base URL, without a trailing slash. */
  base: string;
  callsOf(entity: string): EntityCalls;
  send(call: Call, url: string, init: SendInit): Promise<Answer>;
  fetchBlob(url: string, headers: Record<string, string>): Promise<Blob>;
  urlOf(call: Call, path: Record<string, string> | undefined, key?: string, query?: URLSearchParams): string;
}

/** Makes records from rows (`DataProvider.importRows`), where the API says it takes an import. */
export async function importRows(context: FileCallsContext, params: ImportParams): Promise<ImportReport> {
  const { api, base, send } = context;
  const query = new URLSearchParams({
    dryRun: String(params.dryRun),
    existing: params.existing,
    firstRow: String(params.firstRow),
    ...(params.match ? { match: params.match } : {}),
    ...(params.format ? { decimal: params.format.decimal, dateOrder: params.format.dateOrder } : {}),
  });
  const url = `${base}${api.import}/${encodeURIComponent(params.entity)}?${query}`;
  const call = { ...IMPORT_CALL, path: `${api.import}/${params.entity}` };
  // A dry run writes nothing and a keyed part is written once: both may be sent again.
  const answer = await send(call, url, {
    body: JSON.stringify({
      rows: params.rows,
      ...(params.rowNumbers ? { rowNumbers: params.rowNumbers } : {}),
    }),
    contentType: 'application/json',
    retry: params.dryRun || params.idempotencyKey !== undefined,
    timeoutMs: IMPORT_TIMEOUT_MS,
    ...(params.idempotencyKey ? { idempotencyKey: params.idempotencyKey } : {}),
    ...(params.signal ? { signal: params.signal } : {}),
  });
  return answer.body as ImportReport;
}

/** The whole list with its filters and sort as a CSV file (`DataProvider.exportCsv`). */
export function exportCsv(context: FileCallsContext, params: ListParams): Promise<Blob> {
  const { model, callsOf, fetchBlob, urlOf } = context;
  const call = requireListCall(callsOf(params.entity), params.entity, params.call);
  // The whole list is the file: its filters and sort, not the page shown.
  const search = listSearchParams(model, call, { ...params, page: { style: 'none' } });
  return fetchBlob(urlOf(call, params.path, undefined, search), { accept: 'text/csv' });
}
