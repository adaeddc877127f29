import { type Call, exhaustiveSwitchError, findEntity, type Model, resolveAmount } from '@ninefold/model';
import type { ApiRecord, DataProvider, PageRequest } from './data-provider';

/** Ids asked for within one turn of the event loop are read together. */
const BATCH_LIMIT = 100;

/**
 * Reads the records that references point at, for their names. A page of 50 orders names 34 customers:
 * read one by one, that is 34 requests in the middle of the page's first frames. Where the referenced
 * entity's list call filters its key with `in` (point 7, `id (in)`), the ids asked for in one turn are
 * read with one list call instead, up to `BATCH_LIMIT` (or the call's `maxSize`) at a time.
 *
 * Nothing is invented: without such a filter every id is read with the entity's get call, as before. An
 * id the list call does not answer, and every id of a list call that fails, is read with the get call
 * too, so that a refusal or a missing record is answered as the API answers it for that record.
 *
 * A record read from a list call has no version (`ETag`), so these records are kept apart from the ones
 * forms edit (`referenceKey`, not `recordKey`).
 */
export interface ReferenceReader {
  read(entity: string, id: string, signal?: AbortSignal): Promise<ApiRecord>;
}

const readers = new WeakMap<DataProvider, WeakMap<Model, ReferenceReader>>();

/** The reader of a data provider and model, made once: ids are batched across every cell that asks. */
export function referenceReaderFor(data: DataProvider, model: Model): ReferenceReader {
  let byModel = readers.get(data);
  if (!byModel) {
    byModel = new WeakMap();
    readers.set(data, byModel);
  }
  let reader = byModel.get(model);
  if (!reader) {
    reader = createReferenceReader(data, model);
    byModel.set(model, reader);
  }
  return reader;
}

interface Waiting {
  id: string;
  resolve(record: ApiRecord): void;
  reject(error: unknown): void;
}

export function createReferenceReader(
  data: DataProvider,
  model: Model,
  schedule: (run: () => void) => void = (run) => setTimeout(run, 0),
): ReferenceReader {
  const pending = new Map<string, Waiting[]>();

  const readOne = (entity: string, id: string, signal?: AbortSignal) =>
    data.get({ entity, id, ...(signal ? { signal } : {}) }).then((answer) => answer.record);

  const flush = (entity: string) => {
    const waiting = pending.get(entity) ?? [];
    pending.delete(entity);
    const batch = batchCallOf(data, model, entity);
    if (!batch) {
      for (const one of waiting) readOne(entity, one.id).then(one.resolve, one.reject);
      return;
    }
    const ids = [...new Set(waiting.map((one) => one.id))];
    for (let start = 0; start < ids.length; start += batch.size) {
      const chunk = ids.slice(start, start + batch.size);
      const answered = data
        .list({
          entity,
          call: batch.call.name,
          page: firstPage(batch.call, chunk.length),
          sort: [],
          filters: [{ field: batch.key, op: 'in', value: chunk }],
        })
        .then((result) => {
          const found = new Map<string, ApiRecord>();
          for (const record of result.items) {
            const key = record[batch.key];
            if (key !== undefined && key !== null && typeof key !== 'object') found.set(String(key), record);
          }
          return found;
        })
        // A failed batch is read record by record: the API's answer for each is what counts.
        .catch(() => new Map<string, ApiRecord>());
      for (const one of waiting) {
        if (!chunk.includes(one.id)) continue;
        answered.then((found) => found.get(one.id) ?? readOne(entity, one.id)).then(one.resolve, one.reject);
      }
    }
  };

  return {
    read(entity, id, signal) {
      // A cell that asks alone, or after the batch left, still gets its answer; `signal` aborts only a
      // read of its own, never a batch others wait on.
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<ApiRecord>((resolve, reject) => {
        const waiting = pending.get(entity);
        if (waiting) waiting.push({ id, resolve, reject });
        else {
          pending.set(entity, [{ id, resolve, reject }]);
          schedule(() => flush(entity));
        }
      });
    },
  };
}

interface BatchCall {
  call: Call;
  key: string;
  size: number;
}

/** The entity's list call that filters its key with `in`, and how many ids one request may carry. */
function batchCallOf(data: DataProvider, model: Model, entity: string): BatchCall | undefined {
  const key = findEntity(model, entity)?.key;
  if (key === undefined) return undefined;
  const call = data.calls(entity).lists.find(
    (list) =>
      // A nested collection needs its parents' ids, which a reference does not carry.
      !list.parameters.some((parameter) => parameter.in === 'path') &&
      list.filters.some((filter) => filter.field === key && filter.op === 'in'),
  );
  if (!call) return undefined;
  const pagination = call.pagination ?? { style: 'none' };
  const max = pagination.style === 'none' ? undefined : resolveAmount(model, pagination.maxSize)?.value;
  const size = typeof max === 'number' && max >= 1 ? Math.min(Math.floor(max), BATCH_LIMIT) : BATCH_LIMIT;
  return { call, key, size };
}

function firstPage(call: Call, size: number): PageRequest {
  const pagination = call.pagination ?? { style: 'none' };
  switch (pagination.style) {
    case 'page':
      return { style: 'page', page: 1, size };
    case 'offset':
      return { style: 'offset', offset: 0, limit: size };
    case 'cursor':
      return { style: 'cursor', size };
    case 'link-header':
      return { style: 'link-header', page: 1, size };
    case 'none':
      return { style: 'none' };
    default:
      return exhaustiveSwitchError(pagination);
  }
}
