import { type Field, findEntity, type JsonValue, type Model } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { useAfterFirstPaint } from '../app/first-paint';
import { useSpec } from '../app/SpecContext';
import { ApiError, type ApiRecord } from '../data/data-provider';
import { referenceReaderFor } from '../data/reference-reader';
import { nameKey, referenceKey } from '../form/query-keys';
import { recordPath } from '../form/record-path';
import { useSession } from '../session/SessionContext';
import { labelOf, textOf } from './display-props';
import { nameSource, openableDetailRoute } from './reference-access';

export interface ReferenceTarget {
  /** The referenced record's key as text. */
  id: string;
  /** Its display field once read, else the id. */
  text: string;
  /** Its detail screen's address, when there is one. */
  to: string | undefined;
  loading: boolean;
}

/** A refusal or a missing record is an answer; only a glitch is worth one more try. */
const retryGlitch = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status < 500) && count < 1;

/**
 * The record a reference points at, named by its display field, with its detail address: read with the
 * other references of the page (`referenceReaderFor`: one list call where point 7 allows it, else
 * `data.get`) unless the API answered it expanded (`{ id, name }`).
 * A role that may not read the target entity gets its name from the API's names call where there is one
 * (`nameSource`), else its id alone: no read the API would refuse, and no link to a page it may not see.
 */
export function useReferenceTarget(
  field: Field & { kind: 'reference' },
  value: JsonValue,
  model: Model,
): ReferenceTarget {
  const target = findEntity(model, field.entity);
  const expanded =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, JsonValue>)
      : undefined;
  const id = expanded ? textOf(expanded[target?.key ?? 'id'] ?? '') : textOf(value);
  const session = useSession();
  const painted = useAfterFirstPaint();
  const { data } = useSpec();
  const source = expanded ? undefined : nameSource(model, data, session, field.entity);
  const record = useQuery({
    queryKey: referenceKey(field.entity, id),
    queryFn: ({ signal }) => referenceReaderFor(data, model).read(field.entity, id, signal),
    enabled: painted && source?.kind === 'record',
    retry: retryGlitch,
  });
  const named = useQuery({
    queryKey: nameKey(field.entity, id),
    queryFn: async () =>
      (await (
        await import('../data/names-reader')
      )
        .namesReaderFor(data)
        ?.read({ kind: 'records', entity: field.entity }, id)) ?? null,
    enabled: painted && source?.kind === 'names',
    retry: retryGlitch,
  });
  const read: ApiRecord | undefined = expanded ?? record.data;
  const shown = source?.kind === 'names' ? named.data : target?.display ? read?.[target.display] : undefined;
  const route = openableDetailRoute(model, session, field.entity);
  const query = source?.kind === 'names' ? named : record;
  return {
    id,
    text: shown === undefined || shown === null || shown === '' ? id : labelOf(shown),
    to: route === undefined ? undefined : recordPath(route, id),
    // Waiting for the first paint counts as loading: the name is coming.
    loading: query.isLoading || (!painted && source !== undefined),
  };
}
