import type { Model } from '@ninefold/model';
import { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { NetworkError } from '../src/data/data-provider';
import type { LiveHandlers } from '../src/data/live-events';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { createNetworkStatus } from '../src/data/network-status';
import { apiOf, loadExample } from './support/load-example';

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

describe('live updates', () => {
  /** The in-memory data with an events stream the test drives, as the prototype API's would be. */
  function renderFollowed() {
    const memory = createMemoryDataProvider(shop, api, { Customer: customers });
    const network = createNetworkStatus();
    let handlers: LiveHandlers | undefined;
    let stopped = 0;
    const data = {
      ...memory,
      network,
      follow(next: LiveHandlers) {
        handlers = next;
        return () => {
          stopped++;
        };
      },
    };
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const view = render(
      <App
        spec={{ model: shop, api, data }}
        initialPath="/customers"
        locale="en"
        queryClient={queryClient}
      />,
    );
    return { memory, network, tell: () => handlers, stopped: () => stopped, view };
  }

  it('reads an open list again in place when someone else changes one of its records', async () => {
    const { memory, tell } = renderFollowed();
    await loaded();
    // The follower's code loads after the first screen.
    await waitFor(() => expect(tell()).toBeDefined());
    expect(screen.getByText('Anna Berg')).toBeTruthy();
    // Someone else renames the customer (the stream tells it; the list reads it again).
    await memory.update({ entity: 'Customer', id: '1', values: { name: 'Berg & Co' } });
    act(() => {
      tell()?.onChange({ entity: 'Customer', key: '1', kind: 'updated', at: new Date().toISOString() });
    });
    await screen.findByText('Berg & Co');
    expect(screen.queryByText('Anna Berg')).toBeNull();
  });

  it('says when its stream dropped, and stops saying so when it is back', async () => {
    const { network } = renderFollowed();
    await loaded();
    act(() => network.liveState('lost'));
    await waitFor(() => expect(region()?.textContent).toContain('Live updates paused'));
    act(() => network.liveState('open'));
    await waitFor(() => expect(region()?.textContent).not.toContain('Live updates paused'));
  });

  it('stops following when the client goes away', async () => {
    const { stopped, view, tell } = renderFollowed();
    await loaded();
    await waitFor(() => expect(tell()).toBeDefined());
    view.unmount();
    expect(stopped()).toBe(1);
  });
});
