import { Button, Loader } from '@mantine/core';
import { type CustomScreenProps, ErrorNotice, Link, useCan, useNinefold } from '@ninefold/web/extension';
import { useQuery } from '@tanstack/react-query';
import './shop-ui.css';

interface Line {
  product?: number | string;
  quantity?: number;
}

/**
 * A printable packing slip for one order: the address to ship to and what to pack, without the
 * client's frame when printed. It reads through the client's data interface, so the person's role and
 * the error catalogue apply as on any screen.
 */
export default function PackingSlip({ params }: CustomScreenProps) {
  const { data, format } = useNinefold();
  const can = useCan();
  const id = params.id ?? '';
  const order = useQuery({
    queryKey: ['harbor', 'slip', id],
    queryFn: async () => {
      const { record } = await data.get({ entity: 'Order', id });
      const lines = Array.isArray(record.lines) ? (record.lines as Line[]) : [];
      const ids = [...new Set(lines.map((line) => line.product).filter((value) => value !== undefined))];
      const products = await Promise.all(
        ids.map((product) =>
          (can('read', 'Product')
            ? data.get({ entity: 'Product', id: String(product) })
            : Promise.reject()
          ).then(
            (answer) => answer.record,
            () => undefined,
          ),
        ),
      );
      // The warehouse may not read customers (point 6): it ships to the address, without the name.
      const customer =
        record.customer === undefined || record.customer === null || !can('read', 'Customer')
          ? undefined
          : await data.get({ entity: 'Customer', id: String(record.customer) }).then(
              (answer) => answer.record,
              () => undefined,
            );
      return {
        record,
        lines,
        products: new Map(ids.map((product, index) => [String(product), products[index]])),
        customer,
      };
    },
  });
  if (order.isPending) return <Loader aria-label="Loading the packing slip" />;
  if (order.isError)
    return <ErrorNotice error={order.error} entity="Order" title="The packing slip could not be made" />;
  const { record, lines, products, customer } = order.data;
  const address = (record.shippingAddress ?? {}) as Record<string, unknown>;
  return (
    <article className="harbor-slip">
      <header className="harbor-slip-head">
        <div>
          <h1>Packing slip</h1>
          <p className="harbor-slip-number">{String(record.number ?? `Order ${id}`)}</p>
        </div>
        <div className="harbor-slip-actions">
          <Link to={`/orders/${encodeURIComponent(id)}`}>Back to the order</Link>
          <Button onClick={() => window.print()}>Print</Button>
        </div>
      </header>
      <section aria-labelledby="harbor-ship-to">
        <h2 id="harbor-ship-to">Ship to</h2>
        <address>
          {customer?.name ? <strong>{String(customer.name)}</strong> : null}
          {addressLines(address).map((line) => (
            <span key={line}>{line}</span>
          ))}
        </address>
      </section>
      <table className="harbor-slip-lines">
        <caption>What to pack</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col" className="harbor-number">
              Quantity
            </th>
            <th scope="col">Packed</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line, index) => {
            const product = products.get(String(line.product));
            return (
              <tr key={index}>
                <td>
                  {String(product?.name ?? line.product ?? '')}
                  {product?.sku ? <span className="harbor-sku">{String(product.sku)}</span> : null}
                </td>
                <td className="harbor-number">{format.number(line.quantity ?? 0)}</td>
                <td>
                  <span className="harbor-tick" aria-hidden="true" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </article>
  );
}

/** An address as it is written on a parcel: the street, the postcode with the town, the country. */
function addressLines(address: Record<string, unknown>): string[] {
  const text = (name: string) => (typeof address[name] === 'string' ? (address[name] as string).trim() : '');
  return [text('street'), [text('postcode'), text('city')].filter(Boolean).join(' '), text('country')].filter(
    (line) => line !== '',
  );
}
