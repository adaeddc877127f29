import type { Model } from '@ninefold/spec';
import { QueryClient } from '@tanstack/react-query';
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

// Screens load lazily, and the suite shares two cores with others: allow more than the default second.
configure({ asyncUtilTimeout: 5000 });

// Without point 6, nobody need sign in to see the customers.
const shop: Model = { ...loadExample('shop.yaml'), roles: { shown: false } };
const api = apiOf(shop);
const customers = [{ id: 1, name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000 }];

let online = true;
Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
afterEach(() => {
  online = true;
});

function setOnline(value: boolean) {
  online = value;
  act(() => {
    window.dispatchEvent(new Event(value ? 'online' : 'offline'));
  });
}

function renderCustomers() {
  const data = createMemoryDataProvider(shop, api, { Customer: customers });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <App spec={{ model: shop, api, data }} initialPath="/customers" locale="en" queryClient={queryClient} />,
  );
  return { data, user: userEvent.setup() };
}

/** The list has been read (its rows are virtualized, so the range says it). */
const loaded = () => screen.findByText('Showing 1–1 of 1');

/** The shell's live region for the connection. */
const region = () =>
  screen
    .getAllByRole('status')
    .find((element) => element.getAttribute('aria-atomic') === 'true' && element.closest('main'));

describe('the offline banner', () => {
  it('is an empty live region while all is well', async () => {
    renderCustomers();
    await loaded();
    expect(region()?.textContent).toBe('');
  });

  it('says the device is offline, then that the connection is back, without taking the focus', async () => {
    renderCustomers();
    await loaded();
    const focused = document.activeElement;
    setOnline(false);
    expect(region()?.textContent).toContain('You are offline');
    expect(region()?.textContent).toContain('nothing can be saved until it is back');
    expect(document.activeElement).toBe(focused);
    setOnline(true);
    await waitFor(() => expect(region()?.textContent).toBe('The connection is back.'));
  });

  it('says the server cannot be reached when requests get no answer, and clears when one does', async () => {
    const { data, user } = renderCustomers();
    await loaded();
    act(() => data.network.unanswered());
    const banner = region();
    expect(banner?.textContent).toContain('The server cannot be reached');
    const lists = data.log.filter((call) => call.method === 'list').length;
    await user.click(within(banner as HTMLElement).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(data.log.filter((call) => call.method === 'list').length).toBe(lists + 1));
    await waitFor(() => expect(region()?.textContent).toBe('The connection is back.'));
  });

  it('shows when a read fails for want of an answer', async () => {
    const data = createMemoryDataProvider(shop, api, { Customer: customers });
    data.failNext('list', new NetworkError('fetch failed'));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <App
        spec={{ model: shop, api, data }}
        initialPath="/customers"
        locale="en"
        queryClient={queryClient}
      />,
    );
    await waitFor(() => expect(region()?.textContent).toContain('The server cannot be reached'));
  });
});
