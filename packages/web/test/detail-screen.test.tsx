import type { ApiDescription } from '@ninefold/model';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../src/app/App';
import { NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { DELETE_DELAY_MS } from '../src/feedback/delete-later';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api = apiOf(model);

const seed = () => ({
  Customer: [
    {
      name: 'Anna Berg',
      email: 'anna@example.com',
      phone: '+46 555 0100',
      country: 'SE',
      creditLimit: 1000,
      active: false,
      tags: ['trade', 'north'],
    },
  ],
  Product: [
    {
      sku: 'RG-100',
      name: 'Rope',
      category: 'rigging',
      price: 24.5,
      stock: 10,
      description: 'Strong *braided* rope.',
    },
  ],
  Order: [
    {
      number: 'SO-1001',
      customer: 1,
      status: 'placed',
      placedOn: '2026-05-01',
      shippingAddress: { street: '1 Quay Road', city: 'Oslo', postcode: '0150', country: 'NO' },
      lines: [{ product: 1, quantity: 2, unitPrice: 24.5 }],
      total: 49,
      notes: '**Fragile** <script>alert(1)</script>',
      attachment: {
        name: 'po.pdf',
        type: 'application/pdf',
        size: 2048,
        url: 'https://files.example.com/po.pdf',
      },
      paidAt: '2026-05-02T10:30:00Z',
      ownerId: 'u-7',
    },
  ],
});

function renderAt(path: string, description: ApiDescription = api) {
  const data = createMemoryDataProvider(model, description, seed());
  const user = userEvent.setup();
  render(<App spec={{ model, api: description, data }} initialPath={path} locale="en" />);
  return { data, user };
}

/** The value shown for a label in the description list. */
function shownFor(label: string, container: HTMLElement = document.body): HTMLElement {
  const term = within(container)
    .getAllByText(label)
    .find((element) => element.tagName === 'DT');
  const value = term?.nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`No value for ${label}`);
  return value;
}

describe('detail screen', () => {
  it('shows an order with every kind of field', async () => {
    renderAt('/orders/1');
    expect(await screen.findByRole('heading', { name: 'SO-1001' })).toBeTruthy();
    expect(document.title).toBe('SO-1001 · Harbor Supply');
    // The state of point 4, with its label: next to the title and in the diagram, not again in the fields.
    expect(screen.getAllByText('Placed').length).toBe(2);
    expect(screen.queryAllByText('Status').filter((term) => term.tagName === 'DT')).toEqual([]);

    const customer = await within(shownFor('Customer')).findByRole('link');
    expect(customer.textContent).toBe('Anna Berg');
    expect(customer.getAttribute('href')).toBe('/customers/1');
    expect(shownFor('Placed on').textContent).toBe('May 1, 2026');
    expect(shownFor('Placed on').querySelector('time')?.getAttribute('datetime')).toBe('2026-05-01');
    expect(shownFor('Paid at').querySelector('time')?.getAttribute('datetime')).toBe('2026-05-02T10:30:00Z');
    // The order's total of its lines stands under their table, not among the fields.
    const linesTable = screen.getByRole('table', { name: 'Lines' });
    expect(within(linesTable).getByRole('rowheader', { name: 'Total' })).toBeTruthy();
    expect(linesTable.querySelector('tfoot')?.textContent).toContain('€49.00');
    expect(screen.queryAllByText('Total').filter((term) => term.tagName === 'DT')).toEqual([]);
    expect(shownFor('Entered by').textContent).toBe('u-7');

    const notes = shownFor('Notes');
    await waitFor(() => expect(within(notes).getByText('Fragile').tagName).toBe('STRONG'));
    expect(notes.querySelector('script')).toBeNull();

    // A file on another site is a plain link that says it leaves: never fetched with the session.
    const elsewhere = within(shownFor('Purchase order')).getByRole('link', {
      name: 'po.pdf (2 kB) (opens another site)',
    });
    expect(elsewhere.getAttribute('href')).toBe('https://files.example.com/po.pdf');
    expect(elsewhere.getAttribute('target')).toBe('_blank');
    expect(elsewhere.getAttribute('download')).toBeNull();

    const address = shownFor('Ship to');
    expect(shownFor('Street', address).textContent).toBe('1 Quay Road');
    expect(shownFor('Postcode', address).textContent).toBe('0150');

    // Lines of short fields are a table: a header of their labels, a row per line.
    const lines = within(shownFor('Lines')).getByRole('table', { name: 'Lines' });
    const [head, first] = within(lines).getAllByRole('row');
    expect(
      within(head as HTMLElement)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Product', 'Quantity', 'Unit price']);
    const product = await within(first as HTMLElement).findByRole('link');
    expect(product.textContent).toBe('Rope');
    expect(product.getAttribute('href')).toBe('/products/1');
    expect(
      within(first as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Rope', '2', '€24.50']);
  });

  it('shows a customer: email as a mail link, yes/no, lists, amounts', async () => {
    renderAt('/customers/1');
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(within(shownFor('Email')).getByRole('link').getAttribute('href')).toBe('mailto:anna@example.com');
    expect(shownFor('Phone').textContent).toBe('+46 555 0100');
    expect(shownFor('Active').textContent).toBe('No');
    expect(shownFor('Credit limit').textContent).toBe('€1,000.00');
    expect(
      within(shownFor('Tags'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['trade', 'north']);
  });

  it('shows an enum value and Markdown, and an empty value as not set', async () => {
    const { data } = renderAt('/products/1');
    expect(await screen.findByRole('heading', { name: 'Rope' })).toBeTruthy();
    expect(shownFor('Category').textContent).toBe('rigging');
    await waitFor(() => expect(within(shownFor('Description')).getByText('braided').tagName).toBe('EM'));
    expect(data.log.filter((entry) => entry.method === 'get')).toHaveLength(1);
  });

  it('draws the groups of point 3 as sections, on the page and in the form alike', async () => {
    const { user } = renderAt('/customers/1');
    const contact = await screen.findByRole('region', { name: 'Contact' });
    expect(
      within(contact)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Email', 'Phone', 'Country']);
    const account = screen.getByRole('region', { name: 'Account' });
    expect(
      within(account)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Credit limit', 'Active', 'Tags']);
    // The name belongs to no group: it comes first, outside the sections.
    expect(within(contact).queryByText('Name')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Edit' }));
    const inForm = await screen.findByRole('group', { name: 'Account' });
    expect(within(inForm).getByLabelText(/^Credit limit/)).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Contact' })).getByLabelText(/^Email/)).toBeTruthy();
  });

  it('lists the records that point at this one, and starts a new one pointing here', async () => {
    const { data, user } = renderAt('/customers/1');
    const orders = await screen.findByRole('region', { name: 'Orders' });
    const table = await within(orders).findByRole('table', { name: 'Orders' });
    const [head, first] = within(table).getAllByRole('row');
    // The list screen's columns, but the customer's own: every row is this customer's.
    const headers = within(head as HTMLElement)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Order number', 'Placed on', 'Total', 'Status']);
    const order = within(first as HTMLElement).getByRole('link', { name: 'SO-1001' });
    expect(order.getAttribute('href')).toBe('/orders/1');
    const lists = data.log.filter(
      (entry) => entry.method === 'list' && (entry.params as { entity: string }).entity === 'Order',
    );
    expect(lists.map((entry) => (entry.params as { filters: unknown }).filters)).toEqual([
      [{ field: 'customer', op: 'eq', value: '1' }],
    ]);
    expect(within(orders).getByRole('link', { name: 'See all' }).getAttribute('href')).toBe(
      '/orders?customer=1',
    );

    await user.click(within(orders).getByRole('link', { name: 'New order' }));
    expect(await screen.findByRole('heading', { name: 'New order' })).toBeTruthy();
    // The new order points at the customer already.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: /Customer/ })).toHaveProperty('value', 'Anna Berg'),
    );
  });

  it('links to the edit screen when there is one and an update call', async () => {
    renderAt('/customers/1');
    const edit = await screen.findByRole('link', { name: 'Edit' });
    expect(edit.getAttribute('href')).toBe('/customers/1/edit');
  });

  it('offers neither Edit nor Delete when the calls are not there', async () => {
    const readOnly = {
      ...api,
      calls: api.calls.filter((call) => call.name !== 'updateCustomer' && call.name !== 'deleteCustomer'),
    };
    renderAt('/customers/1', readOnly);
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('deletes after confirmation and a delay that Undo cuts short, from the list it went back to', async () => {
    const { data, user } = renderAt('/customers/1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Anna Berg?' });
    expect(
      within(dialog).getByText('This Customer will be deleted. You can still undo it for a few seconds.'),
    ).toBeTruthy();
    const deletes = () => data.log.filter((entry) => entry.method === 'delete');
    expect(deletes()).toEqual([]);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      // Back on the list at once, told what will happen, and nothing sent yet.
      expect(await screen.findByRole('heading', { name: 'Customers' })).toBeTruthy();
      expect(await screen.findByText('“Anna Berg” will be deleted in 5 seconds.')).toBeTruthy();
      expect(deletes()).toEqual([]);
      await act(() => vi.advanceTimersByTimeAsync(DELETE_DELAY_MS + 10));
      await waitFor(() =>
        expect(deletes()).toEqual([{ method: 'delete', params: { entity: 'Customer', id: '1' } }]),
      );
      expect(await screen.findByText('“Anna Berg” was deleted.')).toBeTruthy();
      expect(data.records('Customer')).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the record when Undo is pressed in time, and never sends the delete', async () => {
    const { data, user } = renderAt('/customers/1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Anna Berg?' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await user.click(await screen.findByRole('button', { name: 'Undo' }));
      expect(await screen.findByText('“Anna Berg” was not deleted.')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(DELETE_DELAY_MS * 2));
      expect(data.log.filter((entry) => entry.method === 'delete')).toEqual([]);
      expect(data.records('Customer')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the record when the person does not confirm', async () => {
    const { data, user } = renderAt('/customers/1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Anna Berg?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(data.log.filter((entry) => entry.method === 'delete')).toEqual([]);
    expect(screen.getByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
  });

  it('says clearly when the record does not exist', async () => {
    renderAt('/customers/99');
    expect(await screen.findByRole('heading', { name: 'Customer not found' })).toBeTruthy();
    // The words of the rich example's error catalogue for a 404 (point 8).
    expect(screen.getByText('This record no longer exists.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Customers' }).getAttribute('href')).toBe('/customers');
  });

  it('says the network failed and loads again on request', async () => {
    const data = createMemoryDataProvider(model, api, seed());
    // A failed read is retried once; both fail.
    data.failNext('get', new NetworkError('offline'));
    data.failNext('get', new NetworkError('offline'));
    const user = userEvent.setup();
    render(<App spec={{ model, api, data }} initialPath="/customers/1" locale="en" />);
    expect(await screen.findByText('The Customer could not be loaded', {}, { timeout: 5000 })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
  });
});
