import { Readable } from 'node:stream';
import { csvCell, csvLines, type Field } from '@ninefold/model';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Presenter } from './present';
import type { ListQuery, ListResult, StoredRecord } from './store/store';

/** Records read from the database at a time: memory stays the same for ten rows or a million. */
export const EXPORT_BATCH = 1000;

/**
 * Whether a list request asks for CSV (`Accept: text/csv`, first): the whole list as a file, with the
 * same filters, sort and permissions as its pages, for a spreadsheet.
 */
export function wantsCsv(request: FastifyRequest): boolean {
  const first = (request.headers.accept ?? '').split(',')[0]?.split(';')[0]?.trim().toLowerCase();
  return first === 'text/csv';
}

/**
 * Streams the list as CSV: one header row of field names, then every record the role may read, read in
 * batches of `EXPORT_BATCH` in the list's order, each after the last of the one before. A failure after the first bytes cannot become a problem
 * answer any more: the stream is cut, which a browser reports as a failed download, and the server's
 * output says why.
 */
export function sendCsv(
  reply: FastifyReply,
  options: {
    filename: string;
    fields: Field[];
    storeId: boolean;
    present: Presenter;
    read(query: Pick<ListQuery, 'cursor' | 'limit'>): Promise<ListResult>;
    onError(error: unknown): void;
  },
): FastifyReply {
  const { fields, storeId, present, read } = options;
  const names = [...(storeId ? ['id'] : []), ...fields.map((field) => field.name)];
  const kinds = new Map(fields.map((field) => [field.name, field.kind]));
  // A batch is written as one piece of text: written row by row, the stream's machinery (a chunk, a
  // callback and a socket write for each row) took most of an export's time.
  async function* batches() {
    // Each batch goes on after the last record of the one before (the store's cursor, by the list's
    // sort and key): an offset would have the database skip over every earlier row again each time.
    let cursor: string | undefined;
    let first = true;
    do {
      const page: ListResult = await read({ limit: EXPORT_BATCH, ...(cursor ? { cursor } : {}) });
      const rows = page.items.map((record) => csvRow(present(record), names, kinds));
      if (first) rows.unshift(names);
      // A spreadsheet reads the file as UTF-8 by its byte order mark.
      yield first ? `\uFEFF${csvLines(rows)}` : csvLines(rows);
      first = false;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  const csv = Readable.from(batches(), { objectMode: false });
  csv.on('error', (error) => options.onError(error));
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${options.filename}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}

/** One record as cells, in the order of `names`: objects and lists as JSON, text guarded against being read as a formula. */
export function csvRow(
  record: StoredRecord,
  names: readonly string[],
  kinds: ReadonlyMap<string, Field['kind']>,
): string[] {
  return names.map((name) => csvCell(record[name], kinds.get(name)));
}
