// The floor for a list screen's first render: React and react-dom only, one fetch, one table.
// The list call comes from `?src=` so that the benchmark asks for exactly the rows our client asks for.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

const source = new URLSearchParams(location.search).get('src') ?? '/api/orders?page=1&limit=50';
const money = new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' });

function Orders() {
  const [orders, setOrders] = useState();
  const [error, setError] = useState();
  useEffect(() => {
    fetch(source, { headers: { accept: 'application/json' } })
      .then((answer) => {
        if (!answer.ok) throw new Error(`${answer.status} ${answer.statusText}`);
        return answer.json();
      })
      .then((body) => setOrders(body.items))
      .catch((reason) => setError(String(reason)));
  }, []);
  if (error) return <p role="alert">{error}</p>;
  if (!orders) return <p>Loading…</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>Order number</th>
          <th>Customer</th>
          <th>Placed on</th>
          <th>Total</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order.id}>
            <td>{order.number}</td>
            <td>{order.customer}</td>
            <td>{order.placedOn}</td>
            <td>{typeof order.total === 'number' ? money.format(order.total) : ''}</td>
            <td>{order.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

createRoot(document.getElementById('root')).render(<Orders />);
