import type { ApiDescription, StateMachine } from '@ninefold/model';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/app/App';
import type { ApiRecord } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { createSessionStore, type SessionStore } from '../src/session/session-store';
import { layoutMachine } from '../src/states/diagram-layout';
import { historyUrl, parseHistory } from '../src/states/history-reader';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const orderStatus = (shop.states.shown ? shop.states.machines : []).find(
  (machine) => machine.entity === 'Order',
) as StateMachine;

const order: ApiRecord = {
  number: 'SO-1001',
  customer: 1,
  status: 'paid',
  placedOn: '2026-05-01',
  shippingAddress: { street: '1 Quay Road', city: 'Oslo', postcode: '0150' },
  lines: [{ product: 1, quantity: 2, unitPrice: 24.5 }],
};
const seed = () => ({
  Customer: [{ name: 'Anna Berg', email: 'anna@example.com' }],
  Product: [{ sku: 'RG-100', name: 'Rope', price: 24.5, stock: 10 }],
  Order: [order],
});

const HISTORY = {
  items: [
    {
      transition: 'pay',
      from: 'placed',
      to: 'paid',
      by: { id: 'u-1', email: 'olga@example.com' },
      at: '2026-05-02T09:30:00Z',
    },
    { transition: 'place', from: 'draft', to: 'placed', by: null, at: '2026-05-01T10:42:00Z' },
  ],
};

interface Asked {
  url: string;
  headers: Record<string, string>;
}

let asked: Asked[] = [];
const stores: SessionStore[] = [];
beforeEach(() => {
  asked = [];
  // The history is read with the browser's fetch, like every call of the HTTP data provider.
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    asked.push({ url, headers: { ...(init.headers as Record<string, string>) } });
    if (url.startsWith('/api/_history/')) {
      return new Response(JSON.stringify(HISTORY), { headers: { 'content-type': 'application/json' } });
    }
    return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const store of stores.splice(0)) store.dispose();
});

/** The client signed in as the owner, on in-memory data, with or without the prototype API's history. */
function openAs(path: string, options: { history: boolean } = { history: true }) {
  const api: ApiDescription = { ...apiOf(shop), ...(options.history ? { history: '/_history' } : {}) };
  const data = createMemoryDataProvider(shop, api, seed());
  const session = createSessionStore(shop, api, {
    signedIn: {
      credentials: { scheme: 'bearer', token: 'tok-1' },
      user: { id: 'u-1', email: 'olga@example.com', role: 'owner' },
    },
  });
  stores.push(session);
  const user = userEvent.setup();
  render(<App spec={{ model: shop, api, data }} session={session} initialPath={path} locale="en" />);
  return { data, user };
}

const historyCalls = () => asked.filter((call) => call.url.startsWith('/api/_history/'));

describe('the state machine on a record’s screen', () => {
  it('draws the machine with the current state highlighted and the final states marked', async () => {
    openAs('/orders/1', { history: false });
    const diagram = await screen.findByRole('img', { name: 'States of Order' });
    const description = document.getElementById(diagram.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe(
      '6 states and 5 transitions. Current state: Paid. A new Order starts as Draft. Final states: Delivered and Cancelled.',
    );
    const current = diagram.querySelectorAll('[data-current="true"]');
    expect([...current].map((node) => node.getAttribute('data-state'))).toEqual(['paid']);
    expect(current[0]?.querySelector('title')?.textContent).toBe('Paid, current');
    expect(diagram.querySelector('[data-state="delivered"] title')?.textContent).toBe('Delivered, final');
    // A final state has a second outline.
    expect(diagram.querySelectorAll('[data-state="delivered"] rect')).toHaveLength(2);
    expect(diagram.querySelectorAll('[data-state="shipped"] rect')).toHaveLength(1);
    // Every transition as text, for whoever cannot see the drawing.
    const transitions = screen.getByRole('list', { name: 'Transitions' });
    expect(
      within(transitions)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Place order: from Draft to Placed',
      'Mark as paid: from Placed to Paid',
      'Ship: from Paid to Shipped',
      'Confirm delivery: from Shipped to Delivered',
      'Cancel order: from Draft or Placed to Cancelled',
    ]);
    expect(screen.queryByRole('heading', { name: 'History' })).toBeNull();
    expect(historyCalls()).toEqual([]);
  });

  it('shows the history newest first, with who and when, read with the session’s credentials', async () => {
    openAs('/orders/1');
    const history = await screen.findByRole('region', { name: 'History' });
    const items = await within(history).findAllByRole('listitem');
    expect(items.map((item) => item.textContent?.split(' · ').slice(0, 2))).toEqual([
      ['Mark as paid: Placed to Paid', 'by olga@example.com'],
      ['Place order: Draft to Placed', 'without sign-in'],
    ]);
    expect(items[0]?.querySelector('time')?.getAttribute('datetime')).toBe('2026-05-02T09:30:00Z');
    expect(historyCalls()).toEqual([
      { url: '/api/_history/Order/1', headers: expect.objectContaining({ authorization: 'Bearer tok-1' }) },
    ]);
  });

  it('reads the history again after a transition is taken', async () => {
    const { data, user } = openAs('/orders/1');
    const history = await screen.findByRole('region', { name: 'History' });
    await within(history).findAllByRole('listitem');
    await user.click(screen.getByRole('button', { name: 'Ship' }));
    await waitFor(() => expect(historyCalls()).toHaveLength(2));
    expect(data.records('Order')[0]?.status).toBe('shipped');
    await waitFor(() =>
      expect(
        screen
          .getByRole('img', { name: 'States of Order' })
          .querySelector('[data-current="true"]')
          ?.getAttribute('data-state'),
      ).toBe('shipped'),
    );
  });

  it('is on the edit screen too', async () => {
    openAs('/orders/1/edit', { history: false });
    expect(await screen.findByRole('heading', { name: 'Edit SO-1001' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'States of Order' })).toBeTruthy();
  });

  it('is not drawn for an entity without a machine', async () => {
    openAs('/customers/1');
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'States' })).toBeNull();
    expect(historyCalls()).toEqual([]);
  });
});

describe('the diagram’s layout', () => {
  it('puts each state in the column of its distance from the initial one, side exits below', () => {
    const layout = layoutMachine(orderStatus);
    const at = (name: string) => layout.nodes.find((node) => node.name === name);
    const columns = [...new Set(layout.nodes.map((node) => node.x))];
    expect(columns).toHaveLength(5);
    expect(at('draft')?.x).toBe(columns[0]);
    expect(at('placed')?.x).toBe(columns[1]);
    expect(at('cancelled')?.x).toBe(columns[1]);
    expect(at('delivered')?.x).toBe(columns[4]);
    // The main path is one row; cancelled sits under placed.
    expect(new Set(['draft', 'placed', 'paid', 'shipped', 'delivered'].map((name) => at(name)?.y)).size).toBe(
      1,
    );
    expect(at('cancelled')?.y).toBeGreaterThan(at('placed')?.y ?? Infinity);
    // One arrow per pair of states: cancel leaves from two states.
    expect(layout.edges.map((edge) => `${edge.from}>${edge.to}`)).toEqual([
      'draft>placed',
      'placed>paid',
      'paid>shipped',
      'shipped>delivered',
      'draft>cancelled',
      'placed>cancelled',
    ]);
    // A long label goes on two lines, so that the columns stay close enough to fit a screen.
    expect(layout.edges.find((edge) => edge.to === 'delivered')?.lines).toEqual(['Confirm', 'delivery']);
    expect(layout.edges.find((edge) => edge.to === 'paid')?.lines).toEqual(['Mark as paid']);
    expect(layout.width).toBeLessThan(760 / 0.8);
    for (const edge of layout.edges) expect(edge.path).not.toMatch(/NaN|undefined/);
    for (const node of layout.nodes) {
      expect(node.x + node.width).toBeLessThanOrEqual(layout.width);
      expect(node.y + node.height).toBeLessThanOrEqual(layout.height);
    }
  });

  it('draws a loop, a way back, and states nothing reaches', () => {
    const machine: StateMachine = {
      entity: 'Ticket',
      field: 'status',
      initial: 'open',
      states: [{ name: 'open' }, { name: 'closed', final: true }, { name: 'archived' }],
      transitions: [
        { name: 'comment', from: ['open'], to: 'open', set: [] },
        { name: 'close', from: ['open'], to: 'closed', set: [] },
        { name: 'reopen', from: ['closed'], to: 'open', set: [] },
      ],
    };
    const layout = layoutMachine(machine);
    const at = (name: string) => layout.nodes.find((node) => node.name === name);
    expect(at('archived')?.x).toBeGreaterThan(at('closed')?.x ?? Infinity);
    const loop = layout.edges.find((edge) => edge.from === 'open' && edge.to === 'open');
    expect(loop?.labelY).toBeGreaterThanOrEqual(0);
    const back = layout.edges.find((edge) => edge.from === 'closed');
    expect(back?.labelY).toBeGreaterThan(at('open')?.y ?? Infinity);
    expect(back?.labelY).toBeLessThanOrEqual(layout.height);
  });
});

describe('the history answer', () => {
  it('is read defensively: malformed entries are skipped, texts stay plain', () => {
    expect(
      parseHistory({
        items: [
          { transition: 'place', from: 'draft', to: 'placed', by: { id: 7 }, at: '2026-05-01T10:42:00Z' },
          { transition: 3, to: 'x', at: 'y' },
          'junk',
          { transition: '<b>x</b>', to: 'placed', at: 'now', by: 'someone' },
        ],
      }),
    ).toEqual([
      { transition: 'place', from: 'draft', to: 'placed', by: { id: '7' }, at: '2026-05-01T10:42:00Z' },
      { transition: '<b>x</b>', from: '', to: 'placed', at: 'now', by: null },
    ]);
    expect(parseHistory('<html>')).toEqual([]);
  });

  it('encodes the entity and the id in its address', () => {
    expect(historyUrl('/api/', '/_history', 'Order', '1/../2')).toBe('/api/_history/Order/1%2F..%2F2');
  });
});
