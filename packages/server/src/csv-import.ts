// A CSV import (`POST {base}/_import/{Entity}`, docs/prototype-api.md): rows made into records by the
// very checks of the create and update calls, under savepoints (a chunk of rows, or each row) so that a
// refused one is left out alone. A dry run does all of it in one transaction and takes it back, so that
// it sees the database and the file's earlier rows as the import would; a real one commits, keyed like
// any POST. Every refused row is reported, with every fault it has; `Accept: text/csv` answers those
// rows as a file.

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

/**
 * Rows written under one savepoint, at most, by database. On PostgreSQL a savepoint for each row was two
 * of its four round trips: chunks of 32 rows imported a fifth faster (10,000 products: 812 -> 631 ms a
 * batch of 1,000). On SQLite a savepoint costs no round trip, and an insert cost more the more rows its
 * savepoint held (the shop's products: 26 µs alone, 60 µs among 32), so each row keeps its own. A chunk
 * with a refused row is taken back and written again row by row, so that a refusal still leaves out its
 * own row alone; the chunk after it starts smaller.
 */
const CHUNK_MAX: Record<Store['dialect'], number> = { postgres: 32, sqlite: 1 };

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
    const rows = read.rows.filter((row) => !refusedRows.has(row.row));
    const memory =
      options.match === undefined
        ? await ImportMemory.of(tx, entity, principalOf(request).user?.id, rows, options.again)
        : undefined;
    const writing = { context, request, entity, tx, options, report, memory, slice: performance.now() };
    const most = CHUNK_MAX[tx.dialect];
    let size = most;
    for (let start = 0; start < rows.length; ) {
      const chunk = rows.slice(start, start + size);
      start += chunk.length;
      const refused = await writeChunk(writing, chunk);
      for (const [row, errors] of refused) refusedRows.set(row, errors);
      // A refusal in the chunk cost it a second pass: the next is smaller, and grows again while none is.
      size = refused.size > 0 ? Math.max(1, size >> 2) : Math.min(most, size * 2);
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

/** What a chunk's rows are written with, and the report and memory they count in. */
interface Writing {
  context: Context;
  request: FastifyRequest;
  entity: Entity;
  tx: Store;
  options: ImportOptions;
  report: ImportReport;
  memory: ImportMemory | undefined;
  /** When the event loop was last given a turn. */
  slice: number;
}

/** What became of a row that was not refused. */
type Outcome = 'created' | 'updated' | 'unchanged' | 'skipped' | 'alreadyImported';

const COUNTS = ['created', 'updated', 'unchanged', 'skipped', 'alreadyImported'] as const;

/**
 * A chunk of rows, written under one savepoint. When one of them is refused, the chunk's writes, counts
 * and memory are taken back, and its rows written again one by one, each under a savepoint of its own, so
 * that only the refused rows are left out. The refused rows' errors, by row.
 */
async function writeChunk(
  writing: Writing,
  chunk: readonly ReadRow[],
): Promise<Map<number, ImportRowError[]>> {
  const { tx, report, memory } = writing;
  const counted = COUNTS.map((name) => report[name]);
  const remembered = memory?.mark();
  try {
    await tx.savepoint(async () => {
      for (const row of chunk) count(report, await writeOne(writing, row));
    });
    return new Map();
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    COUNTS.forEach((name, index) => {
      report[name] = counted[index] as number;
    });
    if (remembered !== undefined) memory?.forgetSince(remembered);
    const [alone] = chunk;
    if (chunk.length === 1 && alone) return new Map([[alone.row, rowErrors(error, alone.row)]]);
  }
  const refused = new Map<number, ImportRowError[]>();
  for (const row of chunk) {
    try {
      count(report, await tx.savepoint(() => writeOne(writing, row)));
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      refused.set(row.row, rowErrors(error, row.row));
    }
  }
  return refused;
}

function count(report: ImportReport, outcome: Outcome): void {
  if (outcome === 'alreadyImported') report.skipped++;
  report[outcome]++;
}

/** One row: matched, checked and written; a refusal is thrown as a ProblemError. */
async function writeOne(writing: Writing, { row, values }: ReadRow): Promise<Outcome> {
  const { context, request, entity, tx, options, memory } = writing;
  if (performance.now() - writing.slice > SLICE_MS) {
    await giveWay();
    writing.slice = performance.now();
  }
  const { model } = context;
  const existing =
    options.match === undefined
      ? undefined
      : await findExisting(tx, entity, options.match, values[options.match]);
  if (existing && options.existing === 'skip') return 'skipped';
  // Matched on nothing: the row's content tells a file imported twice from new rows.
  if (memory?.madeAlready(row)) return 'alreadyImported';
  if (existing) {
    const { [options.match as string]: _match, ...change } = values;
    if (holdsAlready(existing.record, change)) return 'unchanged';
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
    return 'updated';
  }
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
  return 'created';
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
