import {
  exhaustiveSwitchError,
  type Field,
  isPersonField,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import { type QueryClient, useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useAfterFirstPaint } from '../app/first-paint';
import { useSpec } from '../app/SpecContext';
import type { ApiRecord, DataProvider } from '../data/data-provider';
import { type ReferenceReader, referenceReaderFor } from '../data/reference-reader';
import { labelOf, textOf } from '../fields/display-props';
import { type NameSource, nameSource, ownName } from '../fields/reference-access';
import { PEOPLE, referenceKey } from '../form/query-keys';
import { type SessionValue, useSession } from '../session/SessionContext';

/** The names behind a page's references, as far as they have been read. */
export interface ReferenceNames {
  /** The referenced record's display value, once read. */
  name(entity: string, id: string): string | undefined;
  /** Whether that name is still coming (the first paint, or the read, is not over). */
  pending(entity: string, id: string): boolean;
}

/** The ids of one referenced entity (or of people, under `PEOPLE`) that a page names, in order first met. */
interface Wanted {
  key: string;
  source: NameSource | { kind: 'people' };
  ids: string[];
}

/**
 * Reads the names of the records a page's reference columns point at, for the whole table at once: one
 * query per referenced entity, after the first paint. Cells then look names up and hold no hooks of
 * their own (a query and its hooks per cell were a fifth of the list's first render, and their reads a
 * long task right after its first frame).
 *
 * Each record is also cached under `referenceKey`, where every other read of it (a detail screen's
 * reference, the next page) finds it; records already there are not asked for again. The reads go
 * through `referenceReaderFor`, which batches them into one list call where point 7 allows it.
 *
 * A role that may not read the referenced entity gets the names from the API's names call, where there
 * is one (`nameSource`); so do person columns ("Entered by", `user.id` set on create), under `PEOPLE`,
 * with the signed-in person's own name known without asking.
 *
 * A reference the API answered expanded (`{ id, name }`) needs no read; nor does one whose entity has no
 * display field, or that nothing names for the role: its id is all the cell shows.
 */
export function useReferenceNames(model: Model, columns: Field[], records: ApiRecord[]): ReferenceNames {
  const { data } = useSpec();
  const session = useSession();
  const queryClient = useQueryClient();
  const painted = useAfterFirstPaint();

  const wanted = useMemo(() => {
    const byKey = new Map<string, Wanted>();
    for (const field of columns) {
      const key = field.kind === 'reference' ? field.entity : isPersonField(field) ? PEOPLE : undefined;
      if (key === undefined) continue;
      let entry = byKey.get(key);
      if (!entry) {
        const source =
          field.kind === 'reference'
            ? nameSource(model, data, session, field.entity)
            : data.names || session.state.status === 'signed-in'
              ? ({ kind: 'people' } as const)
              : undefined;
        if (source === undefined) continue;
        entry = { key, source, ids: [] };
        byKey.set(key, entry);
      }
      const ids = new Set(entry.ids);
      for (const record of records) {
        const value = record[field.name];
        if (value === undefined || value === null || typeof value === 'object') continue;
        ids.add(textOf(value));
      }
      entry.ids = [...ids];
    }
    return [...byKey.values()];
  }, [model, columns, records, data, session]);

  const combine = useCallback(
    (results: Array<{ data?: ReadonlyMap<string, string> | undefined; isLoading: boolean }>) => {
      const names = new Map<string, ReadonlyMap<string, string>>();
      const loading = new Set<string>();
      wanted.forEach(({ key }, index) => {
        const result = painted ? results[index] : undefined;
        if (!painted || result?.isLoading) loading.add(key);
        names.set(key, result?.data ?? new Map());
      });
      return {
        name: (entity: string, id: string) => names.get(entity)?.get(id),
        pending: (entity: string, id: string) => loading.has(entity) && !names.get(entity)?.has(id),
      };
    },
    [wanted, painted],
  );
  return useQueries({
    queries: (painted ? wanted : []).map(({ key, source, ids }) => ({
      queryKey: ['reference-names', key, ids] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        namesOf(queryClient, { data, model, session }, key, source, ids, signal),
      // Each record answers alone (a refusal or a missing record leaves its id shown), so the query as
      // a whole does not fail, and is not retried.
      retry: false,
    })),
    combine,
  });
}

interface Readers {
  data: DataProvider;
  model: Model;
  session: SessionValue;
}

/** The names behind `ids`, by their source; an id nothing names is left out (its cell shows the id). */
async function namesOf(
  queryClient: QueryClient,
  { data, model, session }: Readers,
  key: string,
  source: Wanted['source'],
  ids: string[],
  signal: AbortSignal,
): Promise<ReadonlyMap<string, string>> {
  const found = new Map<string, string>();
  const keep = (id: string, value: JsonValue | undefined) => {
    if (value !== undefined && value !== null && value !== '') found.set(id, labelOf(value));
  };
  switch (source.kind) {
    case 'record': {
      const records = await readAll(queryClient, referenceReaderFor(data, model), key, ids, signal);
      for (const [id, record] of records) keep(id, record[source.display]);
      return found;
    }
    case 'names':
    case 'people': {
      // Loaded when a name is first asked for this way: most lists name what the role reads.
      const { readNames } = await import('../data/names-reader');
      const of =
        source.kind === 'people' ? ({ kind: 'people' } as const) : { kind: 'records' as const, entity: key };
      const own = source.kind === 'people' ? (id: string) => ownName(session, id) : () => undefined;
      for (const [id, name] of await readNames(queryClient, data, of, ids, own)) keep(id, name);
      return found;
    }
    default:
      return exhaustiveSwitchError(source);
  }
}

/** The records behind `ids`, from the cache where they are there, else read; one that fails is left out. */
async function readAll(
  queryClient: QueryClient,
  reader: ReferenceReader,
  entity: string,
  ids: string[],
  signal: AbortSignal,
): Promise<ReadonlyMap<string, ApiRecord>> {
  const found = new Map<string, ApiRecord>();
  await Promise.all(
    ids.map(async (id) => {
      const cached = queryClient.getQueryData<ApiRecord>(referenceKey(entity, id));
      if (cached) {
        found.set(id, cached);
        return;
      }
      try {
        const record = await reader.read(entity, id, signal);
        queryClient.setQueryData(referenceKey(entity, id), record);
        found.set(id, record);
      } catch {
        // Shown by its id, as the API would not name it.
      }
    }),
  );
  return found;
}
