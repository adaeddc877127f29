import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { ApiError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api = apiOf(model);

describe('the catalogue’s "fix the field" action', () => {
  it('goes to a list field’s group, which has no input of its own', async () => {
    // Regression: "Go to the field" for the order's lines (CREDIT_LIMIT) left focus on the button.
    const data = createMemoryDataProvider(model, api, {
      Customer: [
        { name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 10, active: true },
      ],
      Product: [{ sku: 'RG-100', name: 'Rope', price: 24.5, stock: 10 }],
      Order: [
        {
          number: 'SO-1001',
          customer: 1,
          status: 'draft',
          shippingAddress: { street: '1 Quay Road', city: 'Oslo', postcode: '0150' },
          lines: [{ product: 1, quantity: 2, unitPrice: 24.5 }],
        },
      ],
    });
    const user = userEvent.setup();
    render(<App spec={{ model, api, data }} initialPath="/orders/1/edit" locale="en" />);
    data.failNext(
      'update',
      new ApiError(
        422,
        'Invalid values',
        'Over the credit limit.',
        'CREDIT_LIMIT',
        '/problems/credit-limit',
        [{ pointer: '/lines', message: 'Over the credit limit.', code: 'CREDIT_LIMIT' }],
        undefined,
      ),
    );
    await user.type(await screen.findByLabelText(/^Street/), ' B');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    await within(alert).findByText('This order would take the customer over their credit limit.');
    await user.click(within(alert).getByRole('button', { name: 'Go to the field' }));
    const lines = screen.getByRole('group', { name: /^Lines/ });
    await waitFor(() => expect(document.activeElement).toBe(lines));
  });
});
