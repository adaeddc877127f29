import type { Field, Model } from '@ninefold/spec';
import { type QueryClient, useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useAfterFirstPaint } from '../app/first-paint';
import { useSpec } from '../app/SpecContext';
import type { ApiRecord } from '../data/data-provider';
import { type ReferenceReader, referenceReaderFor } from '../data/reference-reader';
import { labelOf, textOf } from '../fields/display-props';
import { nameField } from '../fields/reference-access';
import { referenceKey } from '../form/query-keys';
import { useSession } from '../session/SessionContext';

/** The names behind a page's references, as far as they have been read. */
export interface ReferenceNames {
  /** The referenced record's display value, once read. */
  name(entity: string, id: string): string | undefined;
  /** Whether that name is still coming (the first paint, or the read, is not over). */
  pending(entity: string, id: string): boolean;
}

/** The ids of one referenced entity that a page names, in the order first met. */
interface Wanted {
  entity: string;
  display: string;
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
 * A reference the API answered expanded (`{ id, name }`) needs no read; nor does one whose entity has no
 * display field or get call, or that the role may not read: its id is all the cell shows.
 */
export function useReferenceNames(model: Model, columns: Field[], records: ApiRecord[]): ReferenceNames {
  const { data } = useSpec();
  const session = useSession();
  const queryClient = useQueryClient();
  const painted = useAfterFirstPaint();

  const wanted = useMemo(() => {
    const byEntity = new Map<string, Wanted>();
    for (const field of columns) {
      if (field.kind !== 'reference') continue;
      let entry = byEntity.get(field.entity);
      if (!entry) {
        const display = nameField(model, data, session, field.entity);
        if (display === undefined) continue;
        entry = { entity: field.entity, display, ids: [] };
        byEntity.set(field.entity, entry);
      }
      const ids = new Set(entry.ids);
      for (const record of records) {
        const value = record[field.name];
        if (value === undefined || value === null || typeof value === 'object') continue;
        ids.add(textOf(value));
      }
      entry.ids = [...ids];
    }
    return [...byEntity.values()];
  }, [model, columns, records, data, session]);

  const reader = referenceReaderFor(data, model);
  const combine = useCallback(
    (results: Array<{ data?: ReadonlyMap<string, ApiRecord> | undefined; isLoading: boolean }>) => {
      const names = new Map<string, Map<string, string>>();
      const loading = new Set<string>();
      wanted.forEach(({ entity, display }, index) => {
        const result = painted ? results[index] : undefined;
        if (!painted || result?.isLoading) loading.add(entity);
        const byId = new Map<string, string>();
        for (const [id, record] of result?.data ?? []) {
          const shown = record[display];
          if (shown !== undefined && shown !== null && shown !== '') byId.set(id, labelOf(shown));
        }
        names.set(entity, byId);
      });
      return {
        name: (entity: string, id: string) => names.get(entity)?.get(id),
        pending: (entity: string, id: string) => loading.has(entity) && !names.get(entity)?.has(id),
      };
    },
    [wanted, painted],
  );
  return useQueries({
    queries: (painted ? wanted : []).map(({ entity, ids }) => ({
      queryKey: ['reference-names', entity, ids] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) => readAll(queryClient, reader, entity, ids, signal),
      // Each record answers alone (a refusal or a missing record leaves its id shown), so the query as
      // a whole does not fail, and is not retried.
      retry: false,
    })),
    combine,
  });
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
