import { type Field, findEntity, type JsonValue, type Model } from '@ninefold/spec';
import { Link } from 'react-router';
import { screenFor } from '../app/routes';
import { textOf } from '../fields/display-props';
import { recordPath } from '../form/record-path';
import { useRecord } from '../form/useRecord';

/**
 * A reference in a table cell: the referenced record's name, read once per distinct record and cached
 * with every other read of it, linking to its detail screen. Plain elements rather than the detail
 * screen's `ReferenceDisplay`: a page of rows renders hundreds of cells, and each component counts.
 */
export function ReferenceCell({
  field,
  value,
  model,
}: {
  field: Field & { kind: 'reference' };
  value: JsonValue;
  model: Model;
}) {
  const target = findEntity(model, field.entity);
  const expanded =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, JsonValue>)
      : undefined;
  const id = expanded ? textOf(expanded[target?.key ?? 'id'] ?? '') : textOf(value);
  const query = useRecord(field.entity, id, { enabled: !expanded && target?.display !== undefined });
  const record = expanded ?? query.data?.record;
  const shown = target?.display ? record?.[target.display] : undefined;
  const text = shown === undefined || shown === null || shown === '' ? id : textOf(shown);
  const detail = screenFor(model, 'detail', field.entity);
  const to = detail ? recordPath(detail.route, id) : undefined;
  const busy = query.isLoading || undefined;
  return to ? (
    <Link className="nf-cell-link" to={to} aria-busy={busy}>
      {text}
    </Link>
  ) : (
    <span aria-busy={busy}>{text}</span>
  );
}
