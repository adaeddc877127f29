import type { Call, Model } from '@ninefold/model';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { ApiError, type ApiRecord, type ListParams } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');

function records(count: number, make: (n: number) => ApiRecord): ApiRecord[] {
  return Array.from({ length: count }, (_, index) => make(index + 1));
}

const seed = {
  Order: records(1_234, (n) => ({ id: n, number: `SO-${n}`, customer: 1, status: 'draft' })),
  Customer: records(7, (n) => ({ id: n, name: `Customer ${n}`, email: `c${n}@example.com` })),
  Product: records(0, (n) => ({ id: n })),
};

function renderDashboard(model: Model = shop, queryClient?: QueryClient) {
  const api = apiOf(model);
  const data = createMemoryDataProvider(model, api, seed);
  render(
    <App spec={{ model, api, data }} initialPath="/" locale="en" {...(queryClient ? { queryClient } : {})} />,
  );
  return data;
}

function tile(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

describe('the dashboard', () => {
  it('shows one tile per named list screen with its total, from the smallest page, and a link to it', async () => {
    const data = renderDashboard();
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
    await waitFor(() => expect(within(tile('Orders')).getByText('1,234')).toBeTruthy());
    await waitFor(() => expect(within(tile('Customers')).getByText('7')).toBeTruthy());
    await waitFor(() => expect(within(tile('Products')).getByText('0')).toBeTruthy());
    expect(within(tile('Orders')).getByRole('link', { name: 'Orders' }).getAttribute('href')).toBe('/orders');
    expect(within(tile('Customers')).getByRole('link', { name: 'Customers' }).getAttribute('href')).toBe(
      '/customers',
    );
    const lists = data.log.filter((call) => call.method === 'list').map((call) => call.params as ListParams);
    expect(lists.map((params) => params.entity).sort()).toEqual(['Customer', 'Order', 'Product']);
    // A count needs no more than one record per answer, and no order or filter.
    for (const params of lists) {
      expect(params.page).toEqual({ style: 'page', page: 1, size: 1 });
      expect(params.sort).toEqual([]);
      expect(params.filters).toEqual([]);
    }
    expect(document.title).toBe('Today · Harbor Supply');
  });

  it('shows "—" and says why when the API gives no total', async () => {
    // Cursor pages carry no total; the memory provider answers them as such an API would.
    const model = withListPagination(shop, 'listOrders', {
      style: 'cursor',
      cursorParam: 'cursor',
      sizeParam: 'limit',
      nextField: 'next',
    });
    const data = renderDashboard(model);
    const orders = await screen.findByRole('region', { name: 'Orders' });
    await waitFor(() =>
      expect(within(orders).getByText('The API does not say how many there are.')).toBeTruthy(),
    );
    expect(within(orders).getByText('—').getAttribute('aria-hidden')).toBe('true');
    expect(within(orders).queryByText('1,234')).toBeNull();
    expect(data.log).toContainEqual({
      method: 'list',
      params: expect.objectContaining({ entity: 'Order', page: { style: 'cursor', size: 1 } }),
    });
  });

  it('counts the records themselves when the list call does not page', async () => {
    const model = withListPagination(shop, 'listCustomers', { style: 'none' });
    const api = apiOf(model);
    const data = createMemoryDataProvider(model, api, seed);
    // An API that answers every record and no total: the number of records is the count.
    const withoutTotal = {
      ...data,
      list: async (params: ListParams) => {
        const result = await data.list(params);
        return { items: result.items };
      },
    };
    render(<App spec={{ model, api, data: withoutTotal }} initialPath="/" locale="en" />);
    const customers = await screen.findByRole('region', { name: 'Customers' });
    await waitFor(() => expect(within(customers).getByText('7')).toBeTruthy());
  });

  it('says when a count fails, with the API’s message, and tries again', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const model = shop;
    const api = apiOf(model);
    const data = createMemoryDataProvider(model, api, seed);
    data.failNext(
      'list',
      new ApiError(
        503,
        'Service unavailable',
        'The database is being upgraded.',
        undefined,
        undefined,
        [],
        'ref-42',
      ),
    );
    render(<App spec={{ model, api, data }} initialPath="/" locale="en" queryClient={queryClient} />);
    // The first list call is the first tile's.
    const orders = await screen.findByRole('region', { name: 'Orders' });
    await waitFor(() =>
      expect(within(orders).getByText('Could not be counted: The database is being upgraded.')).toBeTruthy(),
    );
    await userEvent.click(within(orders).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(orders).getByText('1,234')).toBeTruthy());
  });

  it('shows a tile without a count when the specification names no list call for it', async () => {
    const model = withoutCall(shop, 'listProducts');
    const data = renderDashboard(model);
    const products = await screen.findByRole('region', { name: 'Products' });
    expect(
      within(products).getByText(
        'The specification names no call that lists these records, so they cannot be counted.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(within(tile('Orders')).getByText('1,234')).toBeTruthy());
    expect(data.log.some((call) => (call.params as ListParams).entity === 'Product')).toBe(false);
  });
});

function withListPagination(model: Model, name: string, pagination: NonNullable<Call['pagination']>): Model {
  if (!model.calls.shown) throw new Error('the model shows no calls');
  return {
    ...model,
    calls: {
      ...model.calls,
      items: model.calls.items.map((call) => (call.name === name ? { ...call, pagination } : call)),
    },
  };
}

function withoutCall(model: Model, name: string): Model {
  if (!model.calls.shown) throw new Error('the model shows no calls');
  return {
    ...model,
    calls: { ...model.calls, items: model.calls.items.filter((call) => call.name !== name) },
  };
}
