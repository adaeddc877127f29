import { checkGrant, checkScreen, type Field, findEntity, type JsonValue, type Model } from '@ninefold/spec';
import { useAfterFirstPaint } from '../app/first-paint';
import { screenFor } from '../app/routes';
import { recordPath } from '../form/record-path';
import { useRecord } from '../form/useRecord';
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
 * The record a reference points at: read through `data.get` (cached with every other read of it) unless
 * the API answered it expanded (`{ id, name }`), named by its display field, with its detail address.
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
  const query = useRecord(field.entity, id, {
    enabled: painted && readable && !expanded && target?.display !== undefined,
  });
  const record = expanded ?? query.data?.record;
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
