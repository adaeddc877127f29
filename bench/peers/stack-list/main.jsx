// The floor of the client's own stack for a list's first render: the minimal page's table and call, but
// inside Mantine's provider and stylesheet and through TanStack Query, as packages/web is built. What
// this page costs over the minimal one is the price of the chosen libraries, before any of our code.
import '@mantine/core/styles.css';
import { Group, MantineProvider, Stack, Title } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';

const source = new URLSearchParams(location.search).get('src') ?? '/api/orders?page=1&limit=50';
const money = new Intl.NumberFormat('en', { style: 'currency', currency: 'EUR' });

function Orders() {
  const { data, error } = useQuery({
    queryKey: ['orders', source],
    queryFn: () =>
      fetch(source, { headers: { accept: 'application/json' } }).then((answer) => {
        if (!answer.ok) throw new Error(`${answer.status} ${answer.statusText}`);
        return answer.json();
      }),
  });
  if (error) return <p role="alert">{String(error)}</p>;
  if (!data) return <p>Loading…</p>;
  return (
    <Stack gap={0}>
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          Orders
        </Title>
      </Group>
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
          {data.items.map((order) => (
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
    </Stack>
  );
}

createRoot(document.getElementById('root')).render(
  <MantineProvider defaultColorScheme="auto">
    <QueryClientProvider client={new QueryClient()}>
      <Orders />
    </QueryClientProvider>
  </MantineProvider>,
);
