import type { DetailSlotProps } from '@ninefold/web/extension';
import { Link, useNinefold } from '@ninefold/web/extension';

interface Line {
  quantity?: number;
}

/** Beside an order's fields: how much there is to pack, and its printable slip for those who pack. */
export function OrderPacking({ record, Original }: DetailSlotProps) {
  const { format, canOpen } = useNinefold();
  const lines = Array.isArray(record.lines) ? (record.lines as Line[]) : [];
  const units = lines.reduce((sum, line) => sum + (typeof line.quantity === 'number' ? line.quantity : 0), 0);
  // The slip's screen is for the roles point 2 names; others get no link that leads to a refusal.
  const mayPrint = canOpen('packing-slip');
  return (
    <section className="harbor-packing" aria-labelledby="harbor-packing-title">
      <h2 id="harbor-packing-title">Packing</h2>
      <p>
        {format.number(lines.length)} {lines.length === 1 ? 'line' : 'lines'}, {format.number(units)}{' '}
        {units === 1 ? 'unit' : 'units'}
      </p>
      {mayPrint && record.id !== undefined ? (
        <Link className="harbor-packing-link" to={`/orders/${encodeURIComponent(String(record.id))}/slip`}>
          Print packing slip
        </Link>
      ) : null}
      <Original />
    </section>
  );
}
