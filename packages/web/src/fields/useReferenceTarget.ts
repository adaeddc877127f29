import { checkGrant, checkScreen, type Field, findEntity, type JsonValue, type Model } from '@ninefold/spec';
import { useQuery } from '@tanstack/react-query';
import { useAfterFirstPaint } from '../app/first-paint';
import { screenFor } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { ApiError } from '../data/data-provider';
import { referenceReaderFor } from '../data/reference-reader';
import { referenceKey } from '../form/query-keys';
import { recordPath } from '../form/record-path';
import { settle } from '../screens/access-policy';
import { useSession } from '../session/SessionContext';
import { labelOf, textOf } from './display-props';

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
  const readable = settle(checkGrant(model, session.principal, field.entity, 'read'), session).allowed;
  const painted = useAfterFirstPaint();
  const { data } = useSpec();
  const query = useQuery({
    queryKey: referenceKey(field.entity, id),
    queryFn: ({ signal }) => referenceReaderFor(data, model).read(field.entity, id, signal),
    enabled:
      painted &&
      readable &&
      !expanded &&
      target?.display !== undefined &&
      data.calls(field.entity).get !== undefined,
    // A refusal or a missing record is an answer; only a glitch is worth one more try.
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
  const record = expanded ?? query.data;
  const shown = target?.display ? record?.[target.display] : undefined;
  const found = screenFor(model, 'detail', field.entity);
  const detail =
    found && settle(checkScreen(model, session.principal, found), session).allowed ? found : undefined;
  return {
    id,
    text: shown === undefined || shown === null || shown === '' ? id : labelOf(shown),
    to: detail ? recordPath(detail.route, id) : undefined,
    // Waiting for the first paint counts as loading: the name is coming.
    loading: query.isLoading || (!painted && readable && !expanded && target?.display !== undefined),
  };
}
