import type { Principal } from '@ninefold/model';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError, type ApiRecord, NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider, type MemoryDataProvider } from '../src/data/memory-data-provider';
import type { SessionValue } from '../src/session/SessionContext';
import { apiOf, loadExample } from './support/load-example';
import { renderScreens } from './support/render-screens';

const shop = loadExample('shop.md');
const api = apiOf(shop);

const address = { street: '1 Quay Road', city: 'Oslo', postcode: '0150' };
const line = { product: 1, quantity: 2, unitPrice: 24.5 };

const seed = (): Record<string, ApiRecord[]> => ({
  Customer: [{ name: 'Anna Berg', email: 'anna@example.com' }],
  Product: [{ sku: 'RG-100', name: 'Rope', price: 24.5, stock: 10 }],
  Order: [
    { number: 'SO-1', customer: 1, status: 'paid', shippingAddress: address, lines: [line], ownerId: 'u1' },
    { number: 'SO-2', customer: 1, status: 'placed', shippingAddress: address, lines: [line], ownerId: 'u1' },
    { number: 'SO-3', customer: 1, status: 'paid', lines: [line], ownerId: 'u1' },
    { number: 'SO-4', customer: 1, status: 'draft', lines: [line], ownerId: 'u1' },
    { number: 'SO-5', customer: 1, status: 'draft', lines: [], ownerId: 'u1' },
  ],
});

function signedIn(role: string, id: string): SessionValue {
  const principal: Principal = { role, user: { id, role } };
  return { state: { status: 'signed-in', user: { id, role, attributes: {} } }, principal };
}

const clerk = signedIn('clerk', 'u1');
const warehouse = signedIn('warehouse', 'u3');

/** A record screen alone, as the client's catch-all route renders it, for one signed-in role. */
function renderAs(session: SessionValue, path: string) {
  const data = createMemoryDataProvider(shop, api, seed());
  const user = userEvent.setup();
  renderScreens({ session, path, model: shop, api, data });
  return { data, user };
}

function transitions(): HTMLElement {
  return screen.getByRole('group', { name: 'Change the state' });
}

/** The transitions possible now: the buttons beside the menu of the others. */
function names(group: HTMLElement): string[] {
  return within(group)
    .getAllByRole('button')
    .map((button) => button.textContent ?? '')
    .filter((name) => !name.startsWith('More'));
}

/** The menu's transitions that are not possible now, each with its reason, read as a person opens it. */
async function notPossible(user: ReturnType<typeof userEvent.setup>): Promise<Record<string, string>> {
  const more = within(transitions()).getByRole('button', { name: /^More/ });
  // Told with the button as well, for whoever does not open the menu.
  const told = describedBy(more);
  await user.click(more);
  // jsdom lays nothing out, so the menu's positioning keeps it `visibility: hidden` there (the e2e tests
  // open it in Chromium): it is found as it is, its items as a screen reader would get them.
  const menu = await screen.findByRole('menu', { hidden: true });
  const items = within(menu).getAllByRole('menuitem', { hidden: true });
  const found = Object.fromEntries(
    items.map((item) => {
      expect(item.getAttribute('aria-disabled')).toBe('true');
      const [label, reason] = [...item.querySelectorAll('span')].map((span) => span.textContent ?? '');
      expect(told).toContain(`${label}: ${reason}`);
      return [label, reason];
    }),
  );
  await user.click(more);
  await waitFor(() => expect(screen.queryByRole('menu', { hidden: true })).toBeNull());
  return found as Record<string, string>;
}

function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

const taken = (data: MemoryDataProvider) =>
  data.log
    .filter((entry) => entry.method === 'transition')
    .map((entry) => entry.params as { transition: string; id: string; version?: string });

describe('transition buttons', () => {
  it('shows the warehouse Ship on a paid order, enabled, and never the transitions of other roles', async () => {
    const { data, user } = renderAs(warehouse, '/orders/1');
    expect(await screen.findByRole('heading', { name: 'SO-1' })).toBeTruthy();
    expect(names(transitions())).toEqual(['Ship']);
    expect(screen.queryByRole('button', { name: 'Place order' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark as paid' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    const ship = within(transitions()).getByRole('button', { name: 'Ship' });
    expect(ship).toHaveProperty('disabled', false);
    // The one not possible now is in the menu, with its reason; no other role's transition is anywhere.
    expect(await notPossible(user)).toEqual({ 'Confirm delivery': 'Possible only from Shipped.' });
    await user.click(ship);
    // Taken with the version the record was read at, then the record is read again.
    await waitFor(() =>
      expect(taken(data)).toEqual([{ entity: 'Order', id: '1', transition: 'ship', version: '"1"' }]),
    );
    await waitFor(() => expect(names(transitions())).toEqual(['Confirm delivery']));
    expect(await notPossible(user)).toEqual({ Ship: 'Possible only from Paid.' });
    expect(screen.getAllByText('Shipped').length).toBeGreaterThan(0);
    const reads = data.log.filter(
      (entry) => entry.method === 'get' && (entry.params as { entity: string }).entity === 'Order',
    );
    expect(reads.length).toBe(2);
  });

  it('disables Ship on an order that is not paid yet, saying from which state it is possible', async () => {
    const { user } = renderAs(warehouse, '/orders/2');
    expect(await screen.findByRole('heading', { name: 'SO-2' })).toBeTruthy();
    expect(names(transitions())).toEqual([]);
    expect(await notPossible(user)).toEqual({
      Ship: 'Possible only from Paid.',
      'Confirm delivery': 'Possible only from Shipped.',
    });
  });

  it('disables Ship when its guard fails, with the specification’s message', async () => {
    const { user } = renderAs(warehouse, '/orders/3');
    expect(await screen.findByRole('heading', { name: 'SO-3' })).toBeTruthy();
    expect((await notPossible(user)).Ship).toBe('The order needs a shipping address.');
  });

  it('gives a clerk the clerk’s transitions, and words states a transition leaves from as alternatives', async () => {
    const { user } = renderAs(clerk, '/orders/5');
    expect(await screen.findByRole('heading', { name: 'SO-5' })).toBeTruthy();
    expect(names(transitions())).toEqual(['Cancel order']);
    expect(screen.queryByRole('button', { name: 'Ship' })).toBeNull();
    expect(await notPossible(user)).toEqual({
      'Place order': 'Add at least one line before placing the order.',
      'Mark as paid': 'Possible only from Placed.',
    });
    document.body.innerHTML = '';
    const again = renderAs(clerk, '/orders/1');
    expect(await screen.findByRole('heading', { name: 'SO-1' })).toBeTruthy();
    expect((await notPossible(again.user))['Cancel order']).toBe('Possible only from Draft or Placed.');
  });

  it('asks before a transition whose specification asks for confirmation, and takes it only when confirmed', async () => {
    const { data, user } = renderAs(clerk, '/orders/4');
    expect(await screen.findByRole('heading', { name: 'SO-4' })).toBeTruthy();
    await user.click(within(transitions()).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order?' });
    expect(within(dialog).getByText('Cancel this order? This cannot be undone.')).toBeTruthy();
    expect(taken(data)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(taken(data)).toEqual([]);

    await user.click(within(transitions()).getByRole('button', { name: 'Cancel order' }));
    const again = await screen.findByRole('dialog', { name: 'Cancel order?' });
    await user.click(within(again).getByRole('button', { name: 'Cancel order' }));
    await waitFor(() => expect(taken(data).map((step) => step.transition)).toEqual(['cancel']));
    await waitFor(() => expect(screen.getAllByText('Cancelled').length).toBeGreaterThan(0));
  });

  it('takes a transition without confirmation at once when the specification does not ask', async () => {
    const { data, user } = renderAs(clerk, '/orders/4');
    expect(await screen.findByRole('heading', { name: 'SO-4' })).toBeTruthy();
    await user.click(within(transitions()).getByRole('button', { name: 'Place order' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(taken(data).map((step) => step.transition)).toEqual(['place']));
    await waitFor(() => expect(screen.getAllByText('Placed').length).toBeGreaterThan(0));
  });

  it('shows the API’s refusal beside the buttons, and nothing changes', async () => {
    const { data, user } = renderAs(warehouse, '/orders/1');
    expect(await screen.findByRole('heading', { name: 'SO-1' })).toBeTruthy();
    data.failNext(
      'transition',
      new ApiError(
        409,
        'Conflict',
        'The order has moved on since you opened it.',
        'ILLEGAL_TRANSITION',
        undefined,
        [],
        undefined,
      ),
    );
    await user.click(within(transitions()).getByRole('button', { name: 'Ship' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('"Ship" is not possible now')).toBeTruthy();
    expect(within(alert).getByText('The order has moved on since you opened it.')).toBeTruthy();
    expect(within(transitions()).getByRole('button', { name: 'Ship' })).toHaveProperty('disabled', false);
    expect(data.records('Order')[0]?.status).toBe('paid');

    data.failNext('transition', new NetworkError('offline'));
    await user.click(within(transitions()).getByRole('button', { name: 'Ship' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('The network failed and nothing changed.'),
    );
    // A failure to take the step, not a refusal of it.
    expect(screen.getByRole('alert').textContent).toContain('"Ship" did not go through');
  });
});
