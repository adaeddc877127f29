// A CSV import (`POST {base}/_import/{Entity}`, docs/prototype-api.md): rows made into records by the
// very checks of the create and update calls, each row under a savepoint so that a refused one is left
// out alone. A dry run does all of it in one transaction and takes it back, so that it sees the database
// and the file's earlier rows as the import would; a real one commits, keyed like any POST. Every
// refused row is reported, with every fault it has; `Accept: text/csv` answers those rows as a file.

import {
  addRepeats,
  type CsvFormat,
  type CsvImportReport,
  type Entity,
  emptyImportReport,
  type Field,
  faultyRowsCsv,
  type JsonValue,
  type ReadRow,
  type ReadRows,
  readCells,
} from '@ninefold/model';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, requireAction } from './access';
import { wantsCsv } from './csv-export';
import {
  columnPlan,
  formatOf,
  type ImportOptions,
  type ImportTable,
  importOptions,
  tableOf,
} from './csv-import-input';
import { ImportMemory } from './csv-import-memory';
import { claimIdempotency, sendAnswer, writeAnswered } from './idempotency';
import { publishChange } from './live-events';
import { ProblemError } from './problem';
import type { Context } from './record-context';
import { coerceKey, keyValue, writeProblem } from './record-helpers';
import { beforeWrite, needsTransaction } from './record-rules';
import { changeForUpdate, recordForCreate } from './record-writes';
import type { Store, StoredRecord, WriteResult } from './store/store';

export type ImportRowError = CsvImportReport['errors'][number];
export type ImportReport = CsvImportReport;

/**
 * Work between two turns of the event loop. better-sqlite3 answers synchronously, so an import that never
 * gave way would keep every other request (a health check too) waiting for all of it.
 */
const SLICE_MS = 20;

const giveWay = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows read between two turns of the event loop. */
const READ_PART = 2_000;

/** The rows read as values, in parts that leave other requests their turn; repeats found over all. */
async function readInParts(
  context: Context,
  entity: Entity,
  table: ImportTable,
  fields: Map<number, Field>,
  format: CsvFormat,
): Promise<ReadRows> {
  const read: ReadRows = { rows: [], errors: new Map() };
  for (let start = 0; start < table.rows.length; start += READ_PART) {
    const part = readCells(context.model, table.rows.slice(start, start + READ_PART), fields, format);
    for (const row of part.rows) read.rows.push(row);
    for (const [row, errors] of part.errors) read.errors.set(row, errors);
    await giveWay();
  }
  return addRepeats(context.model, entity, read);
}

/** Thrown to take a dry run's writes back: what it found travels with it. */
class DryRun extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run');
  }
}

export async function importRows(
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { model } = context;
  const store = context.writer(request);
  requireAction(model, request, entity, 'create');
  const options = importOptions(entity, context, request);
  if (options.existing === 'update') requireAction(model, request, entity, 'update');
  const table = tableOf(request, options);
  await giveWay();
  const columns = columnPlan(context, request, entity, table.headers, options);
  const format = formatOf(table, columns.fields, options);
  await giveWay();
  const read = await readInParts(context, entity, table, columns.fields, format);
  await claimIdempotency(store, request, context.now().getTime(), {
    headers: table.headers,
    rows: table.rows,
    options,
  });

  const run = async (tx: Store): Promise<ImportReport> => {
    const report: ImportReport = {
      ...emptyImportReport(table.rows.length + table.faults.length, options.dryRun),
      ignored: columns.ignored,
      format,
    };
    const refusedRows = new Map<number, ImportRowError[]>();
    for (const fault of table.faults)
      refusedRows.set(fault.row, [{ row: fault.row, message: fault.message }]);
    for (const [row, errors] of read.errors) refusedRows.set(row, errors);
    const memory =
      options.match === undefined
        ? await ImportMemory.of(
            tx,
            entity,
            principalOf(request).user?.id,
            read.rows.filter((row) => !refusedRows.has(row.row)),
            options.again,
          )
        : undefined;
    let slice = performance.now();
    for (const row of read.rows) {
      if (refusedRows.has(row.row)) continue;
      const errors = await writeRow(context, request, entity, tx, row, options, report, memory);
      if (errors.length > 0) refusedRows.set(row.row, errors);
      if (performance.now() - slice > SLICE_MS) {
        await giveWay();
        slice = performance.now();
      }
    }
    report.refused = refusedRows.size;
    report.errors = [...refusedRows.keys()]
      .sort((a, b) => a - b)
      .flatMap((row) => refusedRows.get(row) as ImportRowError[]);
    if (options.dryRun) throw new DryRun(report);
    await memory?.save(tx);
    return report;
  };

  const answer = (report: ImportReport) => answerOf(request, reply, table, report);
  if (options.dryRun) {
    try {
      await store.transaction(run);
    } catch (error) {
      if (error instanceof DryRun) return answer(error.report);
      throw error;
    }
    throw new Error('a dry run always takes its writes back');
  }
  const done = await writeAnswered(
    store,
    request,
    async (tx): Promise<WriteResult<ImportReport>> => ({ ok: true, value: await tx.transaction(run) }),
    (report) => ({ status: 200, headers: {}, body: report as unknown as JsonValue }),
    () => context.afterCommit?.(request),
  );
  if (!done.ok) throw new Error('an import reports its refusals row by row');
  if (done.value.created + done.value.updated > 0) {
    publishChange(context, request, { entity: entity.name, kind: 'changed' });
  }
  if (wantsCsv(request)) return answer(done.value);
  return sendAnswer(reply, done.answer);
}

/** `Accept: text/csv` (csv-export.ts's test): the refused rows as the file had them, with a last column of reasons. */
function answerOf(request: FastifyRequest, reply: FastifyReply, table: ImportTable, report: ImportReport) {
  if (!wantsCsv(request)) return report;
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', 'attachment; filename="rows-with-errors.csv"')
    .send(
      `\uFEFF${faultyRowsCsv(table.headers, report.errors, [...table.rows, ...table.faults], table.delimiter)}`,
    );
}

/** One row: matched, checked and written under its own savepoint; its errors, or none. */
async function writeRow(
  context: Context,
  request: FastifyRequest,
  entity: Entity,
  tx: Store,
  { row, values }: ReadRow,
  options: ImportOptions,
  report: ImportReport,
  memory: ImportMemory | undefined,
): Promise<ImportRowError[]> {
  const { model } = context;
  const existing =
    options.match === undefined
      ? undefined
      : await findExisting(tx, entity, options.match, values[options.match]);
  if (existing && options.existing === 'skip') {
    report.skipped++;
    return [];
  }
  // Matched on nothing: the row's content tells a file imported twice from new rows.
  if (memory?.madeAlready(row)) {
    report.skipped++;
    report.alreadyImported++;
    return [];
  }
  try {
    await tx.savepoint(async () => {
      if (existing) {
        const { [options.match as string]: _match, ...change } = values;
        if (holdsAlready(existing.record, change)) {
          report.unchanged++;
          return;
        }
        const { stored, record } = await changeForUpdate(
          context,
          request,
          entity,
          existing.record,
          change as StoredRecord,
          [],
          tx,
        );
        if (needsTransaction(model, entity, 'update')) {
          const user = principalOf(request).user;
          await beforeWrite(model, tx, entity, {
            mode: 'update',
            record,
            old: existing.record,
            now: context.now(),
            ...(user ? { user } : {}),
          });
        }
        const updated = await tx.update(
          entity.name,
          coerceKey(entity, String(existing.key)),
          stored,
          existing.version,
        );
        if (!updated.ok)
          throw new ProblemError(writeProblem(model, updated.failure, entity, String(existing.key)));
        report.updated++;
      } else {
        const body =
          options.match !== undefined && readOnlyMatch(entity, options.match)
            ? withoutKey(values as StoredRecord, options.match)
            : (values as StoredRecord);
        const prepared = await recordForCreate(context, request, entity, body, [], tx);
        const user = principalOf(request).user;
        const record = needsTransaction(model, entity, 'create')
          ? await beforeWrite(model, tx, entity, {
              mode: 'create',
              record: prepared,
              now: context.now(),
              ...(user ? { user } : {}),
            })
          : prepared;
        const created = await tx.create(entity.name, record);
        if (!created.ok) throw new ProblemError(writeProblem(model, created.failure, entity, ''));
        memory?.remember(row, String(keyValue(entity, created.value)));
        report.created++;
      }
    });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return rowErrors(error, row);
  }
  return [];
}

/** Whether a record holds every value a row gives it already: then an update writes nothing. */
function holdsAlready(record: StoredRecord, change: Record<string, JsonValue | undefined>): boolean {
  return Object.entries(change).every(([name, value]) => {
    const held = record[name];
    if (typeof value === 'number' && (typeof held === 'number' || typeof held === 'string'))
      return Number(held) === value;
    return JSON.stringify(held ?? null) === JSON.stringify(value ?? null);
  });
}

function rowErrors(error: ProblemError, row: number): ImportRowError[] {
  const { errors, detail } = error.problem;
  if (!errors || errors.length === 0) return [{ row, message: detail }];
  return errors.map((item) => {
    const field = item.pointer.split('/')[1];
    return { row, ...(field ? { field } : {}), message: item.detail };
  });
}

async function findExisting(
  tx: Store,
  entity: Entity,
  field: string,
  value: JsonValue | undefined,
): Promise<{ key: string | number; record: StoredRecord; version: number } | undefined> {
  if (value === undefined || value === null) return undefined;
  const found = await tx.list(entity.name, {
    filters: [{ field, op: 'eq', value }],
    sort: [],
    limit: 1,
    withTotal: false,
  });
  const record = found.items[0];
  if (!record) return undefined;
  const key = keyValue(entity, record);
  const versioned = await tx.getVersioned(entity.name, key);
  return versioned ? { key, record: versioned.record, version: versioned.version } : undefined;
}

function readOnlyMatch(entity: Entity, match: string): boolean {
  return entity.fields.find((field) => field.name === match)?.readOnly === true;
}

function withoutKey(values: StoredRecord, field: string): StoredRecord {
  const { [field]: _dropped, ...rest } = values;
  return rest;
}
