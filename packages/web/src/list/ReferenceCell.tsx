import type { Field, JsonValue, Model } from '@ninefold/spec';
import { Link } from '../app/router';
import { useReferenceTarget } from '../fields/useReferenceTarget';

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
  const { text, to, loading } = useReferenceTarget(field, value, model);
  const busy = loading || undefined;
  return to ? (
    <Link className="nf-cell-link" to={to} aria-busy={busy}>
      {text}
    </Link>
  ) : (
    <span aria-busy={busy}>{text}</span>
  );
}
