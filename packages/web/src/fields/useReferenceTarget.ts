import { type Field, findEntity, type JsonValue, type Model } from '@ninefold/spec';
import { useQuery } from '@tanstack/react-query';
import { useAfterFirstPaint } from '../app/first-paint';
import { useSpec } from '../app/SpecContext';
import { ApiError } from '../data/data-provider';
import { referenceReaderFor } from '../data/reference-reader';
import { referenceKey } from '../form/query-keys';
import { recordPath } from '../form/record-path';
import { useSession } from '../session/SessionContext';
import { labelOf, textOf } from './display-props';
import { nameField, openableDetailRoute } from './reference-access';

export interface ReferenceTarget {
  /** The referenced record's key as text. */
  id: string;
  /** Its display field once read, else the id. */
  text: string;
  /** Its detail screen's address, when there is one. */
  to: string | undefined;
  loading: boolean;
}

/**
 * The record a reference points at, named by its display field, with its detail address: read with the
 * other references of the page (`referenceReaderFor`: one list call where point 7 allows it, else
 * `data.get`) unless the API answered it expanded (`{ id, name }`).
 * A role that may not read the target entity gets its id alone: no read the API would refuse, and no
 * link to a page it may not see.
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
  const named = expanded ? undefined : nameField(model, data, session, field.entity);
  const query = useQuery({
    queryKey: referenceKey(field.entity, id),
    queryFn: ({ signal }) => referenceReaderFor(data, model).read(field.entity, id, signal),
    enabled: painted && named !== undefined,
    // A refusal or a missing record is an answer; only a glitch is worth one more try.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
  const record = expanded ?? query.data;
  const shown = target?.display ? record?.[target.display] : undefined;
  const route = openableDetailRoute(model, session, field.entity);
  return {
    id,
    text: shown === undefined || shown === null || shown === '' ? id : labelOf(shown),
    to: route === undefined ? undefined : recordPath(route, id),
    // Waiting for the first paint counts as loading: the name is coming.
    loading: query.isLoading || (!painted && named !== undefined),
  };
}
