import type { FieldDisplayOverrideProps } from '@ninefold/web/extension';
import { useNinefold } from '@ninefold/web/extension';
import './shop-ui.css';

/** Below this many units a product needs restocking (the shop's own rule, not the specification's). */
const LOW = 10;
/** A full bar. */
const FULL = 200;

/** A product's stock as a number and a level: red when low. */
export function StockLevel({ value, place }: FieldDisplayOverrideProps) {
  const { format } = useNinefold();
  const units = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(units)) return <span>{String(value)}</span>;
  const low = units < LOW;
  const share = Math.max(0, Math.min(1, units / FULL));
  return (
    <span className="harbor-stock" data-low={low || undefined} data-place={place}>
      <span className="harbor-stock-units">
        {format.number(units)}
        {low ? <span className="harbor-stock-low"> low</span> : null}
      </span>
      <span className="harbor-stock-bar" aria-hidden="true">
        <span className="harbor-stock-fill" style={{ inlineSize: `${Math.round(share * 100)}%` }} />
      </span>
    </span>
  );
}
