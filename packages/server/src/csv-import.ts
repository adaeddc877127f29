// A CSV import (`POST {base}/_import/{Entity}`, docs/prototype-api.md): rows made into records by the
// very checks of the create and update calls, each row under a savepoint so that a refused one is left
// out alone. A dry run does all of it in one transaction and takes it back, so that it sees the database
// and the file's earlier rows as the import would; a real one commits, keyed like any POST.
import {
  type CsvImportReport,
  csvValue,
  type Entity,
  type Field,
  fieldLabel,
  findEntity,
  hasNumericKey,
  type JsonValue,
  uniqueFields,
} from '@ninefold/spec';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, requireAction } from './access';
import { columnPlan, type ImportOptions, importOptions, MAX_CELL_CHARS, rowsOf } from './csv-import-input';
import { claimIdempotency, sendAnswer, writeAnswered } from './idempotency';
import { publishChange } from './live-events';
import { ProblemError } from './problem';
import type { Context } from './record-context';
import { coerceKey, keyValue, writeProblem } from './record-helpers';
import { beforeWrite, needsTransaction } from './record-rules';
import { changeForUpdate, recordForCreate } from './record-writes';
import type { Store, StoredRecord, WriteResult } from './store/store';

/** Row errors reported in full; past this many, the report counts the rest. */
const MAX_REPORTED_ERRORS = 1_000;

export type ImportRowError = CsvImportReport['errors'][number];
export type ImportReport = CsvImportReport;

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
  const { model, store } = context;
  requireAction(model, request, entity, 'create');
  const options = importOptions(entity, context, request);
  if (options.existing === 'update') requireAction(model, request, entity, 'update');
  const rows = rowsOf(request.body);
  const columns = columnPlan(context, request, entity, Object.keys(rows[0] ?? {}), options);
  await claimIdempotency(store, request, context.now().getTime(), { rows, options });

  const run = async (tx: Store): Promise<ImportReport> => {
    const report: ImportReport = {
      dryRun: options.dryRun,
      rows: rows.length,
      created: 0,
      updated: 0,
      skipped: 0,
      refused: 0,
      errors: [],
      errorsLeftOut: 0,
      ignored: columns.ignored,
    };
    const seen = new Map<string, Map<string, number>>();
    for (const [index, row] of rows.entries()) {
      const number = options.firstRow + index;
      const errors = await importRow(
        context,
        request,
        entity,
        tx,
        row,
        columns.fields,
        options,
        seen,
        number,
        report,
      );
      if (errors.length === 0) continue;
      report.refused++;
      for (const error of errors) {
        if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push(error);
        else report.errorsLeftOut++;
      }
    }
    if (options.dryRun) throw new DryRun(report);
    return report;
  };

  if (options.dryRun) {
    try {
      await store.transaction(run);
    } catch (error) {
      if (error instanceof DryRun) return error.report;
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
  return sendAnswer(reply, done.answer);
}

/** One row: read, matched, checked and written under its own savepoint; its errors, or none. */
async function importRow(
  context: Context,
  request: FastifyRequest,
  entity: Entity,
  tx: Store,
  row: Record<string, string>,
  fields: Map<string, Field>,
  options: ImportOptions,
  seen: Map<string, Map<string, number>>,
  number: number,
  report: ImportReport,
): Promise<ImportRowError[]> {
  const { model } = context;
  const errors: ImportRowError[] = [];
  const values: StoredRecord = {};
  for (const [column, field] of fields) {
    const text = row[column] ?? '';
    if (text.length > MAX_CELL_CHARS) {
      errors.push({
        row: number,
        field: field.name,
        message: `${fieldLabel(field)}: the cell holds ${text.length.toLocaleString('en')} characters; a cell holds at most ${MAX_CELL_CHARS.toLocaleString('en')}.`,
      });
      continue;
    }
    const target = field.kind === 'reference' ? findEntity(model, field.entity) : undefined;
    const read = csvValue(text, field, target ? hasNumericKey(target) : false);
    if (!read.ok)
      errors.push({ row: number, field: field.name, message: `${fieldLabel(field)} ${read.message}.` });
    else if (read.value !== undefined) values[field.name] = read.value;
  }
  if (errors.length > 0) return errors;

  // The same unique value twice in the file, the matched field too (the later row would find the record
  // the earlier one made): the later row names the earlier one.
  for (const field of uniqueFields(context.model, entity)) {
    const value = values[field];
    if (value === undefined || value === null) continue;
    const earlier = seen.get(field)?.get(String(value));
    if (earlier !== undefined) {
      const label = fieldLabel(
        entity.fields.find((candidate) => candidate.name === field) ?? { name: field },
      );
      errors.push({ row: number, field, message: `${label} is the same as in row ${earlier} of this file.` });
    }
  }
  if (errors.length > 0) return errors;

  const existing =
    options.match === undefined
      ? undefined
      : await findExisting(tx, entity, options.match, values[options.match]);
  if (existing && options.existing === 'skip') {
    report.skipped++;
    return [];
  }
  try {
    await tx.savepoint(async () => {
      if (existing) {
        const { [options.match as string]: _match, ...change } = values;
        const { stored, record } = await changeForUpdate(
          context,
          request,
          entity,
          existing.record,
          change,
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
            ? withoutKey(values, options.match)
            : values;
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
        report.created++;
      }
    });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return rowErrors(error, number);
  }
  for (const field of uniqueFields(context.model, entity)) {
    const value = values[field];
    if (value === undefined || value === null) continue;
    const byValue = seen.get(field) ?? new Map<string, number>();
    byValue.set(String(value), number);
    seen.set(field, byValue);
  }
  return [];
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
