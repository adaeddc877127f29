import { screenAt } from '@ninefold/model';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App, createQueryClient } from '../src/app/App';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { loadScreen } from '../src/screens/registry';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const api = apiOf(shop);

describe('the first screen, loaded with the model', () => {
  it('is found from the address, with its route parameters', () => {
    expect(screenAt(shop, '/orders/5/edit')).toMatchObject({
      screen: { name: 'edit-order' },
      params: { id: '5' },
    });
    expect(screenAt(shop, '/orders/new')?.screen.name).toBe('new-order');
    expect(screenAt(shop, '/')?.screen.name).toBe('dashboard');
    expect(screenAt(shop, '/_/about')).toBeUndefined();
    expect(screenAt(shop, '/no/such/page')).toBeUndefined();
  });

  it('starts a list’s first call before rendering, and the screen then uses that answer', async () => {
    const data = createMemoryDataProvider(shop, api, {
      Order: [{ id: 1, number: 'SO-1', placedOn: '2024-01-01', total: 10, status: 'draft' }],
    });
    const queryClient = createQueryClient();
    const first = screenAt(shop, '/orders');
    if (!first) throw new Error('no screen at /orders');
    const module = await loadScreen(first.screen.kind);
    const answered = module.prefetch?.({
      model: shop,
      screen: first.screen,
      data,
      queryClient,
      params: first.params,
      search: '?sort=total',
    });
    expect(data.log).toEqual([
      {
        method: 'list',
        params: expect.objectContaining({ entity: 'Order', sort: [{ field: 'total', direction: 'asc' }] }),
      },
    ]);
    await answered;
    render(
      <App
        spec={{ model: shop, api, data }}
        initialPath="/orders?sort=total"
        queryClient={queryClient}
        locale="en"
      />,
    );
    // The answer was waited for, so the very first render draws it: no loading skeleton in between.
    // (happy-dom lays out nothing, so the virtualized rows stay empty; the pager shows the answer.)
    expect(screen.getByText('Showing 1–1 of 1')).toBeTruthy();
    expect(screen.queryByText(/^Loading/)).toBeNull();
    expect(data.log.filter((call) => call.method === 'list')).toHaveLength(1);
  });
});
