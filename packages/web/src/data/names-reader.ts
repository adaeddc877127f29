import type { JsonValue } from '@ninefold/model';
import type { QueryClient } from '@tanstack/react-query';
import { nameKey, PEOPLE } from '../form/query-keys';
import { type DataProvider, MAX_NAMES_ASKED, type NamesOf } from './data-provider';

/**
 * Reads names through `DataProvider.names`, the ids asked for within one turn of the event loop together:
 * a page of 50 orders names 30 customers and a few people in two requests, not 35. An id the API leaves
 * out is answered `undefined` (the cell keeps its id); a failed request fails each id it carried.
 */
export interface NamesReader {
  read(of: NamesOf, id: string): Promise<JsonValue | undefined>;
}

const readers = new WeakMap<DataProvider, NamesReader>();

/** The reader of a data provider, made once so that every cell's ids share its batches; none without names. */
export function namesReaderFor(data: DataProvider): NamesReader | undefined {
  if (!data.names) return undefined;
  let reader = readers.get(data);
  if (!reader) {
    reader = createNamesReader(data);
    readers.set(data, reader);
  }
  return reader;
}

interface Waiting {
  id: string;
  resolve(name: JsonValue | undefined): void;
  reject(error: unknown): void;
}

export function createNamesReader(
  data: DataProvider,
  schedule: (run: () => void) => void = (run) => setTimeout(run, 0),
): NamesReader {
  const pending = new Map<string, { of: NamesOf; waiting: Waiting[] }>();

  const flush = (key: string) => {
    const batch = pending.get(key);
    pending.delete(key);
    if (!batch) return;
    const ids = [...new Set(batch.waiting.map((one) => one.id))];
    for (let start = 0; start < ids.length; start += MAX_NAMES_ASKED) {
      const chunk = ids.slice(start, start + MAX_NAMES_ASKED);
      const answered = data.names
        ? data.names({ of: batch.of, ids: chunk })
        : Promise.resolve(new Map<string, JsonValue>());
      for (const one of batch.waiting) {
        if (chunk.includes(one.id)) answered.then((names) => one.resolve(names.get(one.id)), one.reject);
      }
    }
  };

  return {
    read(of, id) {
      const key = of.kind === 'people' ? 'people' : `records:${of.entity}`;
      return new Promise((resolve, reject) => {
        const batch = pending.get(key);
        if (batch) batch.waiting.push({ id, resolve, reject });
        else {
          pending.set(key, { of, waiting: [{ id, resolve, reject }] });
          schedule(() => flush(key));
        }
      });
    },
  };
}

/**
 * The names behind `ids` for a table: from `own` (the signed-in person's own), from the query cache, else
 * read (and cached under `nameKey`, where a detail screen finds them). An id nothing names is left out.
 */
export async function readNames(
  queryClient: QueryClient,
  data: DataProvider,
  of: NamesOf,
  ids: string[],
  own: (id: string) => string | undefined,
): Promise<ReadonlyMap<string, JsonValue>> {
  const reader = namesReaderFor(data);
  const key = of.kind === 'people' ? PEOPLE : of.entity;
  const found = new Map<string, JsonValue>();
  await Promise.all(
    ids.map(async (id) => {
      const known = own(id) ?? queryClient.getQueryData<JsonValue>(nameKey(key, id));
      if (known !== undefined) {
        found.set(id, known);
        return;
      }
      try {
        const name = (await reader?.read(of, id)) ?? null;
        queryClient.setQueryData(nameKey(key, id), name);
        found.set(id, name);
      } catch {
        // Shown by its id, as the API did not name it.
      }
    }),
  );
  return found;
}
