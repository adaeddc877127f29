import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api = apiOf(model);

const seed = {
  Customer: [
    { name: 'Anna Berg', email: 'anna@example.com' },
    { name: 'Bo Ek', email: 'bo@example.com' },
  ],
  Product: [
    { sku: 'RG-100', name: 'Rope', price: 24.5, stock: 10 },
    { sku: 'EN-200', name: 'Engine oil', price: 10, stock: 5 },
  ],
};

function renderAt(path: string) {
  const data = createMemoryDataProvider(model, api, seed);
  const user = userEvent.setup();
  render(<App spec={{ model, api, data }} initialPath={path} locale="en" />);
  return { data, user };
}

type User = ReturnType<typeof userEvent.setup>;

/**
 * A select's options. happy-dom lays nothing out, so floating-ui takes the input for clipped away and
 * hides the open dropdown with `display: none`; the options are there, and clickable, but not "visible".
 */
const option = (name: string) => screen.findByRole('option', { name, hidden: true });
const noOption = (name: string) => screen.queryByRole('option', { name, hidden: true });

async function choose(user: User, input: HTMLElement, search: string, name: string) {
  await user.click(input);
  await user.type(input, search);
  await user.click(await option(name));
}

async function addLine(user: User, index: number, product: string, quantity: string, unitPrice: string) {
  await user.click(screen.getByRole('button', { name: 'Add order line' }));
  const line = screen.getByRole('group', { name: `Order line ${index}` });
  await choose(user, within(line).getByRole('combobox', { name: /^Product/ }), product.slice(0, 3), product);
  await user.clear(within(line).getByLabelText(/^Quantity/));
  await user.type(within(line).getByLabelText(/^Quantity/), quantity);
  // The product's price is copied in (point 3's copyFrom); the line's own price is typed over it.
  const price = within(line).getByLabelText(/^Unit price/);
  await waitFor(() => expect((price as HTMLInputElement).value).not.toBe(''));
  await user.clear(price);
  await user.type(price, unitPrice);
  return line;
}

describe('order form', () => {
  it('says under each field what the rules across records hold, which only the API can check', async () => {
    const { user } = renderAt('/orders/new');
    await screen.findByLabelText('Total');
    await user.click(screen.getByRole('button', { name: 'Add order line' }));
    const quantity = within(screen.getByRole('group', { name: 'Order line 1' })).getByLabelText(/^Quantity/);
    const described = (element: HTMLElement) =>
      (element.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
    // The bound of point 5 and the rule's hint, on every line's quantity.
    expect(described(quantity)).toContain('1 to 999');
    expect(described(quantity)).toContain("Up to the product's stock.");
    expect(document.body.textContent).toContain(
      "With the customer's open orders, within their credit limit.",
    );
  });

  it('adds and removes lines, and the derived total follows them', async () => {
    const { user } = renderAt('/orders/new');
    const total = await screen.findByLabelText('Total');
    expect(total.textContent).toBe('Not set');
    await user.click(screen.getByRole('button', { name: 'Add order line' }));
    const line1 = screen.getByRole('group', { name: 'Order line 1' });
    // A new line starts from the embedded entity's defaults.
    expect(within(line1).getByLabelText(/^Quantity/)).toHaveProperty('value', '1');
    await user.type(within(line1).getByLabelText(/^Unit price/), '24.5');
    await user.clear(within(line1).getByLabelText(/^Quantity/));
    await user.type(within(line1).getByLabelText(/^Quantity/), '2');
    await waitFor(() => expect(total.textContent).toBe('€49.00'));

    await user.click(screen.getByRole('button', { name: 'Add order line' }));
    const line2 = screen.getByRole('group', { name: 'Order line 2' });
    await user.type(within(line2).getByLabelText(/^Unit price/), '10');
    await waitFor(() => expect(total.textContent).toBe('€59.00'));
    expect(screen.getByText('2 of 50')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Remove Order line 1' }));
    await waitFor(() => expect(total.textContent).toBe('€10.00'));
    expect(screen.queryByRole('group', { name: 'Order line 2' })).toBeNull();
    expect(
      within(screen.getByRole('group', { name: 'Order line 1' })).getByLabelText(/^Unit price/),
    ).toHaveProperty('value', '10');
  });

  it('fills a line’s unit price from the product chosen, and keeps what the person types over it', async () => {
    const { user } = renderAt('/orders/new');
    await user.click(await screen.findByRole('button', { name: 'Add order line' }));
    const line = screen.getByRole('group', { name: 'Order line 1' });
    const price = within(line).getByLabelText(/^Unit price/) as HTMLInputElement;
    await choose(user, within(line).getByRole('combobox', { name: /^Product/ }), 'Rop', 'Rope');
    await waitFor(() => expect(price.value).toBe('24.5'));
    await user.clear(price);
    await user.type(price, '20');
    expect(price.value).toBe('20');
    // Another product chosen: its price is the line's now.
    await choose(user, within(line).getByRole('combobox', { name: /^Product/ }), 'Eng', 'Engine oil');
    await waitFor(() => expect(price.value).toBe('10'));
  });

  it('keeps a unit price typed at once after the choice, before the page has drawn it (a busy page)', async () => {
    const { user } = renderAt('/orders/new');
    await user.click(await screen.findByRole('button', { name: 'Add order line' }));
    const line = screen.getByRole('group', { name: 'Order line 1' });
    const price = within(line).getByLabelText(/^Unit price/) as HTMLInputElement;
    const product = within(line).getByRole('combobox', { name: /^Product/ });
    await user.click(product);
    await user.type(product, 'Rop');
    const rope = await option('Rope');
    // The choice and the typing in one batch: no render, and no effect, runs between the two.
    act(() => {
      fireEvent.click(rope);
      fireEvent.change(price, { target: { value: '1500' } });
    });
    await waitFor(() =>
      expect(within(line).getByRole('combobox', { name: /^Product/ })).toHaveProperty('value', 'Rope'),
    );
    // Long enough for the product's read (the memory provider answers at once) to have come back.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(price.value).toBe('1500');
  });

  it('moves a line up and down with the keyboard-operable buttons', async () => {
    const { user } = renderAt('/orders/new');
    await user.click(await screen.findByRole('button', { name: 'Add order line' }));
    await user.type(screen.getAllByLabelText(/^Unit price/)[0] as HTMLElement, '1');
    await user.click(screen.getByRole('button', { name: 'Add order line' }));
    await user.type(screen.getAllByLabelText(/^Unit price/)[1] as HTMLElement, '2');
    expect(screen.getByRole('button', { name: 'Move Order line 1 up' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Move Order line 2 up' }));
    const prices = screen.getAllByLabelText(/^Unit price/).map((input) => (input as HTMLInputElement).value);
    expect(prices).toEqual(['2', '1']);
  });

  it('loads reference choices through list calls, filtering on the display field as the person types', async () => {
    const { data, user } = renderAt('/orders/new');
    const customer = await screen.findByRole('combobox', { name: /^Customer/ });
    // Nothing is loaded until the choice is opened.
    expect(data.log.filter((entry) => entry.method === 'list')).toEqual([]);
    await user.click(customer);
    expect(await option('Anna Berg')).toBeTruthy();
    expect(await option('Bo Ek')).toBeTruthy();
    expect(data.log).toContainEqual({
      method: 'list',
      params: expect.objectContaining({
        entity: 'Customer',
        page: { style: 'page', page: 1, size: 25 },
        filters: [],
      }),
    });
    await user.type(customer, 'Bo');
    await waitFor(() =>
      expect(data.log).toContainEqual({
        method: 'list',
        params: expect.objectContaining({
          entity: 'Customer',
          filters: [{ field: 'name', op: 'contains', value: 'Bo' }],
        }),
      }),
    );
    await waitFor(() => expect(noOption('Anna Berg')).toBeNull());
    await user.click(await option('Bo Ek'));
    expect(customer).toHaveProperty('value', 'Bo Ek');
  });

  it('shows nested errors on their inputs, focuses the first, and sends nothing', async () => {
    const { data, user } = renderAt('/orders/new');
    await user.type(await screen.findByLabelText(/^City/), 'Oslo');
    await user.type(screen.getByLabelText(/^Postcode/), 'no!');
    await user.click(screen.getByRole('button', { name: 'Add order line' }));
    const line = screen.getByRole('group', { name: 'Order line 1' });
    await user.clear(within(line).getByLabelText(/^Quantity/));
    await user.type(within(line).getByLabelText(/^Quantity/), '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const customer = screen.getByRole('combobox', { name: /^Customer/ });
    await waitFor(() => expect(customer.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(customer);
    const street = screen.getByLabelText(/^Street/);
    expect(street.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(street)).toContain('Street is required.');
    const postcode = screen.getByLabelText(/^Postcode/);
    expect(describedBy(postcode)).toContain('Use letters, digits, spaces or dashes.');
    const quantity = within(line).getByLabelText(/^Quantity/);
    expect(describedBy(quantity)).toContain('Quantity must be at least 1.');
    expect(describedBy(within(line).getByRole('combobox', { name: /^Product/ }))).toContain(
      'Product is required.',
    );
    expect(data.log.filter((entry) => entry.method === 'create')).toEqual([]);

    // Changing a value clears its own error; the others stay until the next save.
    await user.type(postcode, 'x');
    expect(postcode.getAttribute('aria-invalid')).toBeNull();
    expect(street.getAttribute('aria-invalid')).toBe('true');
  });

  it('says how many lines an order needs, on the list, when there are none', async () => {
    const { data, user } = renderAt('/orders/new');
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    const lines = screen.getByRole('group', { name: /^Lines/ });
    await waitFor(() => expect(within(lines).getByText('An order has 1 to 50 lines.')).toBeTruthy());
    expect(within(lines).getByText(/^1 to 50 lines/)).toBeTruthy();
    expect(data.log.filter((entry) => entry.method === 'create')).toEqual([]);
  });

  it('creates an order with a customer, lines, an address and a purchase order file', async () => {
    const { data, user } = renderAt('/orders/new');
    await choose(user, await screen.findByRole('combobox', { name: /^Customer/ }), 'Ann', 'Anna Berg');
    await user.type(screen.getByLabelText(/^Street/), '1 Quay Road');
    await user.type(screen.getByLabelText(/^Postcode/), 'AB1 2CD');
    await addLine(user, 1, 'Rope', '2', '24.5');
    const file = new File(['%PDF-1.4 order'], 'po.pdf', { type: 'application/pdf' });
    const picker = screen.getByLabelText(/^Purchase order/) as HTMLInputElement;
    expect(picker.accept).toBe('application/pdf,image/png,image/jpeg');
    await user.upload(picker, file);
    expect(screen.getByText('Chosen: po.pdf (14 bytes)')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Notes/), 'Leave at the *back* door.');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(data.log.filter((entry) => entry.method === 'create')).toHaveLength(1));
    const params = data.log.find((entry) => entry.method === 'create')?.params as {
      values: Record<string, unknown>;
    };
    expect(params.values).toEqual({
      customer: 1,
      shippingAddress: { street: '1 Quay Road', postcode: 'AB1 2CD' },
      lines: [{ product: 1, quantity: 2, unitPrice: 24.5 }],
      notes: 'Leave at the *back* door.',
      attachment: file,
    });
    // Saved: the detail screen of the new order.
    expect(await screen.findByRole('heading', { name: 'Order 1' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('po.pdf (14 bytes)')).toBeTruthy());
  });

  it('refuses a file of a type the field does not accept, naming the types', async () => {
    const { data } = renderAt('/orders/new');
    // The picker's accept list is a hint to the browser; a dropped file can still be of any type.
    const user = userEvent.setup({ applyAccept: false });
    const picker = (await screen.findByLabelText(/^Purchase order/)) as HTMLInputElement;
    await user.upload(picker, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(picker.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(picker)).toContain(
      'Purchase order must be one of: application/pdf, image/png, image/jpeg.',
    );
    expect(data.log.filter((entry) => entry.method === 'create')).toEqual([]);
  });

  it('shows a markdown preview of the notes, rendered safely', async () => {
    const { user } = renderAt('/orders/new');
    const notes = await screen.findByLabelText(/^Notes/);
    expect(describedBy(notes)).toContain('Visible to the customer. · At most 2,000 characters');
    const text = '**Fragile** <img src=x onerror=alert(1)>';
    await user.type(notes, text);
    expect(screen.getByText(`${text.length} of 2,000`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview of Notes' });
    await waitFor(() => expect(within(preview).getByText('Fragile').tagName).toBe('STRONG'));
    expect(preview.querySelector('img')).toBeNull();
  });
});

function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}
