import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { ApiError } from '../src/data/data-provider';
import { createMemoryDataProvider, type MemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api = apiOf(model);

const seed = () => ({
  Customer: [
    {
      name: 'Anna Berg',
      email: 'anna@example.com',
      country: 'SE',
      creditLimit: 1000,
      active: true,
      tags: ['trade', 'north'],
    },
  ],
  Product: [{ sku: 'RG-100', name: 'Rope', price: 24.5, stock: 10 }],
  Order: [
    {
      number: 'SO-1001',
      customer: 1,
      status: 'draft',
      placedOn: '2026-05-01',
      shippingAddress: { street: '1 Quay Road', city: 'Oslo', postcode: '0150' },
      lines: [{ product: 1, quantity: 2, unitPrice: 24.5 }],
      total: 49,
      notes: 'Fragile',
      attachment: {
        name: 'po.pdf',
        type: 'application/pdf',
        size: 2048,
        url: 'https://files.example.com/po.pdf',
      },
    },
  ],
});

function renderAt(path: string) {
  const data = createMemoryDataProvider(model, api, seed());
  const user = userEvent.setup();
  render(<App spec={{ model, api, data }} initialPath={path} locale="en" />);
  return { data, user };
}

const updates = (data: MemoryDataProvider) => data.log.filter((entry) => entry.method === 'update');

function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('edit form', () => {
  it('loads the record and sends only the changed fields with its version', async () => {
    const { data, user } = renderAt('/customers/1/edit');
    expect(await screen.findByRole('heading', { name: 'Edit Anna Berg' })).toBeTruthy();
    expect(data.log).toContainEqual({
      method: 'get',
      params: expect.objectContaining({ entity: 'Customer', id: '1' }),
    });
    const email = screen.getByLabelText(/^Email/);
    expect(email).toHaveProperty('value', 'anna@example.com');
    expect(screen.getByLabelText('Tag 2')).toHaveProperty('value', 'north');
    await user.clear(email);
    await user.type(email, 'anna@berg.example');
    await user.clear(screen.getByLabelText(/^Credit limit/));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(updates(data)).toEqual([
      {
        method: 'update',
        params: {
          entity: 'Customer',
          id: '1',
          values: { email: 'anna@berg.example', creditLimit: null },
          version: '"1"',
        },
      },
    ]);
    expect(screen.getByRole('link', { name: 'anna@berg.example' })).toBeTruthy();
  });

  it('sends nothing when nothing changed', async () => {
    const { data, user } = renderAt('/customers/1/edit');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(updates(data)).toEqual([]);
  });

  it('validates the change merged over the stored record before sending', async () => {
    const { data, user } = renderAt('/customers/1/edit');
    const name = await screen.findByLabelText(/^Name/);
    await waitFor(() => expect(name).toHaveProperty('value', 'Anna Berg'));
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(describedBy(name)).toContain('Name is required.'));
    expect(updates(data)).toEqual([]);
  });

  it('says so when someone else changed the record meanwhile', async () => {
    const { data, user } = renderAt('/customers/1/edit');
    data.failNext(
      'update',
      new ApiError(
        412,
        'Precondition failed',
        'Customer 1 was changed by someone else since you read it.',
        'CHANGED_SINCE_READ',
        undefined,
        [],
        undefined,
      ),
    );
    await user.type(await screen.findByLabelText(/^Phone/), '+47 555');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your changes to this Customer were not saved');
    expect(alert.textContent).toContain('Someone else changed this record while you were editing it.');
    expect(screen.getByLabelText(/^Phone/)).toHaveProperty('value', '+47 555');
  });

  it('edits an order: shows its reference by name, its stored file and live total, and sends the change', async () => {
    const { data, user } = renderAt('/orders/1/edit');
    const customer = await screen.findByRole('combobox', { name: /^Customer/ });
    await waitFor(() => expect(customer).toHaveProperty('value', 'Anna Berg'));
    expect(screen.getByText('Current file: po.pdf (2 kB)')).toBeTruthy();
    expect(screen.getByLabelText('Total').textContent).toBe('€49.00');
    expect(screen.getByLabelText(/^Postcode/)).toHaveProperty('value', '0150');

    await user.clear(screen.getByLabelText(/^Quantity/));
    await user.type(screen.getByLabelText(/^Quantity/), '3');
    await waitFor(() => expect(screen.getByLabelText('Total').textContent).toBe('€73.50'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(updates(data)).toHaveLength(1));
    expect(updates(data)[0]?.params).toEqual({
      entity: 'Order',
      id: '1',
      values: { lines: [{ product: 1, quantity: 3, unitPrice: 24.5 }] },
      version: '"1"',
    });
  });

  it('removes a stored file by sending null', async () => {
    const { data, user } = renderAt('/orders/1/edit');
    await user.click(await screen.findByRole('button', { name: 'Remove the file' }));
    expect(screen.queryByText(/Current file/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates(data)).toHaveLength(1));
    expect(updates(data)[0]?.params).toEqual(expect.objectContaining({ values: { attachment: null } }));
  });

  it('lists server errors about fields the form does not show at the top', async () => {
    const { data, user } = renderAt('/orders/1/edit');
    data.failNext(
      'update',
      new ApiError(
        422,
        'Invalid values',
        undefined,
        'VALIDATION_FAILED',
        undefined,
        [{ pointer: '/placedOn', message: 'The order date cannot be in the future.' }],
        undefined,
      ),
    );
    await user.type(await screen.findByLabelText(/^Notes/), ' handle with care');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The order date cannot be in the future.');
  });

  it('shows a clear state for a record that does not exist', async () => {
    renderAt('/customers/42/edit');
    expect(await screen.findByRole('heading', { name: 'Customer not found' })).toBeTruthy();
  });
});
