import { type Grant, type Model, type Principal, screenAt } from '@ninefold/model';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../src/app/App';
import type { ApiRecord } from '../src/data/data-provider';
import { createMemoryDataProvider, type MemoryDataProvider } from '../src/data/memory-data-provider';
import type { Locale } from '../src/i18n/catalogue';
import { planList } from '../src/list/list-plan';
import { loadScreen } from '../src/screens/registry';
import type { SessionValue } from '../src/session/SessionContext';
import { apiOf, loadExample } from './support/load-example';
import { renderScreens } from './support/render-screens';

const shop = loadExample('shop.md');

const seed = (): Record<string, ApiRecord[]> => ({
  Customer: [
    { name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000, active: true },
    { name: 'Bo Lind', email: 'bo@example.com', country: 'NO', creditLimit: 500, active: true },
  ],
  Product: [{ sku: 'RG-100', name: 'Rope', category: 'rigging', price: 24.5, stock: 10 }],
  Order: [
    {
      number: 'SO-1',
      customer: 1,
      status: 'draft',
      lines: [{ product: 1, quantity: 2, unitPrice: 24.5 }],
      notes: 'Another clerk’s draft',
      ownerId: 'u2',
    },
    {
      number: 'SO-2',
      customer: 1,
      status: 'paid',
      placedOn: '2026-05-01',
      shippingAddress: { street: '1 Quay Road', city: 'Oslo', postcode: '0150' },
      lines: [{ product: 1, quantity: 1, unitPrice: 24.5 }],
      attachment: {
        name: 'po.pdf',
        type: 'application/pdf',
        size: 2048,
        url: 'https://files.example.com/po.pdf',
      },
      ownerId: 'u1',
    },
    {
      number: 'SO-3',
      customer: 2,
      status: 'draft',
      lines: [{ product: 1, quantity: 3, unitPrice: 24.5 }],
      notes: 'Mine',
      ownerId: 'u1',
    },
  ],
});

/** Who is signed in, as the session helper's provider would give it. */
function signedIn(role: string, user: { id: string; email: string; customerId?: number }): SessionValue {
  const principal: Principal = { role, user: { ...user, role } };
  return {
    state: { status: 'signed-in', user: { id: user.id, role, attributes: {} } },
    principal,
  };
}

const clerk = signedIn('clerk', { id: 'u1', email: 'clerk@example.com' });
const owner = signedIn('owner', { id: 'u9', email: 'owner@example.com' });
const warehouse = signedIn('warehouse', { id: 'u3', email: 'wh@example.com' });
const customer = signedIn('customer', { id: 'u4', email: 'anna@example.com', customerId: 1 });
const nobody: SessionValue = { state: { status: 'signed-out', expired: false }, principal: {} };

/** The screens alone for a session, on the shop's seeded records. */
function renderAs(session: SessionValue, path: string, model: Model = shop, locale: Locale = 'en') {
  const api = apiOf(model);
  const data = createMemoryDataProvider(model, api, seed());
  const user = userEvent.setup();
  renderScreens({ session, path, model, api, data, locale });
  return { data, user };
}

/** The shop with one role's grant on an entity changed, for field rules the example does not have. */
function withGrant(role: string, entity: string, change: Partial<Grant>): Model {
  if (!shop.roles.shown) throw new Error('The shop example shows point 6.');
  const grants = shop.roles.grants.map((grant) =>
    grant.role === role && grant.entity === entity ? { ...grant, ...change } : grant,
  );
  return { ...shop, roles: { ...shop.roles, grants } };
}

function terms(): string[] {
  return [...document.querySelectorAll('dt')].map((term) => term.textContent ?? '');
}

function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

function actions(): HTMLElement {
  return screen.getByRole('group', { name: 'Actions' });
}

const calls = (data: MemoryDataProvider, method: string) =>
  data.log.filter((entry) => entry.method === method);

describe('screens a role may not see', () => {
  it('refuses a screen whose roles leave the role out, with the reason, and asks the API for nothing', async () => {
    const { data } = renderAs(warehouse, '/customers');
    expect(await screen.findByRole('heading', { name: 'Not allowed' })).toBeTruthy();
    expect(screen.getByText('The role Warehouse may not see this page.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(data.log).toEqual([]);
  });

  it('says it in the person’s language', async () => {
    renderAs(warehouse, '/customers', shop, 'fr');
    expect(await screen.findByRole('heading', { name: 'Accès refusé' })).toBeTruthy();
    // The role's label is the specification's own, in French too (point 1's translations).
    expect(screen.getByText('Le rôle Entrepôt ne peut pas voir cette page.')).toBeTruthy();
  });

  it('refuses a record screen of an entity the role has no grant to read, naming the action', async () => {
    const { data } = renderAs(customer, '/customers/1');
    // The customer screens name their roles (owner, clerk), which the role is not one of.
    expect(await screen.findByText('The role Trade customer may not see this page.')).toBeTruthy();
    expect(data.log).toEqual([]);
  });

  it('refuses a create screen open to every role when the grant does not name create', async () => {
    // The shop's new-product screen names the owner alone; without that, the grant decides.
    const items = shop.screens.shown ? shop.screens.items : [];
    const model: Model = {
      ...shop,
      screens: {
        shown: true,
        items: items.map((item) => {
          if (item.name !== 'new-product') return item;
          const { roles: _roles, ...open } = item;
          return open;
        }),
      },
    };
    const { data } = renderAs(warehouse, '/products/new', model);
    expect(await screen.findByText('The role Warehouse may not create products.')).toBeTruthy();
    expect(data.log).toEqual([]);
  });

  it('asks someone not signed in to sign in, and brings them back to the page afterwards', async () => {
    const { data } = renderAs(nobody, '/orders/2?tab=lines');
    expect(await screen.findByText('Sign in to see this page.')).toBeTruthy();
    // The shop's own sign-in screen, told where to come back to.
    const link = screen.getByRole('link', { name: 'Sign in' });
    expect(link.getAttribute('href')).toBe(`/sign-in?next=${encodeURIComponent('/orders/2?tab=lines')}`);
    expect(data.log).toEqual([]);
  });

  it('leaves a refusal for want of a role to the API when the API did not tell the role', async () => {
    const roleless: SessionValue = {
      state: { status: 'signed-in', user: { id: 'u1', attributes: {} } },
      principal: { user: { id: 'u1' } },
    };
    renderAs(roleless, '/customers');
    expect(await screen.findByRole('table', { name: 'Customers' })).toBeTruthy();
  });

  it('starts no call ahead of the first render for a screen the session refuses', async () => {
    const orders = screenAt(shop, '/orders');
    if (orders?.screen.kind !== 'list') throw new Error('The shop has a list at /orders.');
    const list = orders.screen;
    const module = await loadScreen('list');
    const data = createMemoryDataProvider(shop, apiOf(shop), seed());
    const context = { model: shop, data, params: orders.params, search: '' };
    await module.prefetch?.({
      ...context,
      screen: list,
      queryClient: createQueryClient(),
      session: nobody,
    });
    expect(data.log).toEqual([]);
    await module.prefetch?.({
      ...context,
      screen: list,
      queryClient: createQueryClient(),
      session: clerk,
    });
    expect(data.log.map((entry) => entry.method)).toEqual(['list']);
  });

  it('leaves out dashboard tiles of lists the role may not see, and does not count them', async () => {
    const { data } = renderAs(warehouse, '/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Orders' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Products' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Customers' })).toBeNull();
    await waitFor(() => expect(calls(data, 'list').length).toBe(2));
    expect(
      calls(data, 'list')
        .map((entry) => (entry.params as { entity: string }).entity)
        .sort(),
    ).toEqual(['Order', 'Product']);
  });

  it('shows a clerk the customers tile too', async () => {
    renderAs(clerk, '/');
    expect(await screen.findByRole('region', { name: 'Customers' })).toBeTruthy();
  });
});

describe('lists', () => {
  it('offers "New order" only to a role that may create orders', async () => {
    renderAs(clerk, '/orders');
    expect(await screen.findByRole('table', { name: 'Orders' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New order' })).toBeTruthy();
  });

  it('hides "New order" from the warehouse, which may only read orders', async () => {
    renderAs(warehouse, '/orders');
    expect(await screen.findByRole('table', { name: 'Orders' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New order' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New order' })).toBeNull();
  });

  it('offers "Select" only to a role that may delete the records or take one of their steps', async () => {
    // The clerk may not delete customers, and a customer has no steps: a selection would do nothing.
    renderAs(clerk, '/customers');
    expect(await screen.findByRole('table', { name: 'Customers' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Select' })).toBeNull();
    document.body.innerHTML = '';
    renderAs(owner, '/customers');
    expect(await screen.findByRole('table', { name: 'Customers' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Select' })).toBeTruthy();
    // The warehouse deletes no order, but ships them.
    document.body.innerHTML = '';
    renderAs(warehouse, '/orders');
    expect(await screen.findByRole('table', { name: 'Orders' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Select' })).toBeTruthy();
  });

  it('leaves out the columns, filters and sorts on fields the role may not read', async () => {
    const model = withGrant('warehouse', 'Order', { hidden: ['attachment', 'customer', 'total'] });
    const { data } = renderAs(warehouse, '/orders?sort=total', model);
    const table = await screen.findByRole('table', { name: 'Orders' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.replace(/[↕↑↓]/g, ''));
    expect(headers).toEqual(['Order number', 'Placed on', 'Status']);
    const filters = screen.getByRole('search', { name: 'Filters' });
    expect(within(filters).queryByLabelText(/Customer/)).toBeNull();
    expect(within(filters).getByLabelText('Status')).toBeTruthy();
    // A sort on a hidden field, even from the address, is not sent: its order would tell the values.
    expect(calls(data, 'list')[0]?.params).toMatchObject({
      sort: [{ field: 'placedOn', direction: 'desc' }],
    });
    // The same list for a clerk keeps them all.
    document.body.innerHTML = '';
    renderAs(clerk, '/orders', model);
    const full = await screen.findByRole('table', { name: 'Orders' });
    expect(within(full).getAllByRole('columnheader').length).toBe(5);
  });

  it('names a list’s references only for a role that may read them, and links them only where it may open them', async () => {
    // A clerk reads customers: the cell names the customer and links to the record.
    const started = performance.now();
    renderAs(clerk, '/orders');
    const [named] = await within(await screen.findByRole('table', { name: 'Orders' })).findAllByRole('link', {
      name: 'Anna Berg',
    });
    expect(named?.getAttribute('href')).toBe('/customers/1');
    const namesTook = performance.now() - started;
    // A trade customer may not read customers: the id alone, no link, and nothing asked of the API, even
    // well after the clerk's names had come.
    document.body.innerHTML = '';
    const { data } = renderAs(customer, '/orders');
    const table = await screen.findByRole('table', { name: 'Orders' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(200, 2 * namesTook)));
    const cell = within(table).getAllByRole('cell')[1] as HTMLElement;
    expect(cell.textContent).toBe('1');
    expect(within(cell).queryByRole('link')).toBeNull();
    const customerReads = data.log.filter(
      (entry) => (entry.params as { entity?: string } | undefined)?.entity === 'Customer',
    );
    expect(customerReads).toEqual([]);
  });

  it('plans no column, filter or sort of a hidden field', () => {
    const orders = shop.screens.shown ? shop.screens.items.find((item) => item.name === 'orders') : undefined;
    if (orders?.kind !== 'list') throw new Error('The shop has an orders list.');
    const data = createMemoryDataProvider(shop, apiOf(shop));
    const plan = planList(shop, orders, data.calls('Order'), new Set(['customer', 'placedOn']));
    expect(plan.columns.map((field) => field.name)).toEqual(['number', 'total', 'status']);
    expect(plan.filters.map((filter) => filter.field.name)).toEqual(['status']);
    expect([...plan.sortable.keys()]).toEqual(['number', 'total']);
    expect(plan.defaultSort).toEqual({ field: 'number', direction: 'asc' });
  });
});

describe('record screens', () => {
  it('does not show the warehouse the purchase order attached to an order', async () => {
    renderAs(warehouse, '/orders/2');
    expect(await screen.findByRole('heading', { name: 'SO-2' })).toBeTruthy();
    expect(terms()).toContain('Ship to');
    expect(terms()).not.toContain('Purchase order');
    expect(screen.queryByRole('link', { name: /po\.pdf/ })).toBeNull();
  });

  it('shows a clerk the purchase order', async () => {
    renderAs(clerk, '/orders/2');
    expect(await screen.findByRole('heading', { name: 'SO-2' })).toBeTruthy();
    expect(terms()).toContain('Purchase order');
  });

  it('does not show a trade customer who entered the order', async () => {
    const { data } = renderAs(customer, '/orders/2');
    expect(await screen.findByRole('heading', { name: 'SO-2' })).toBeTruthy();
    expect(terms()).not.toContain('Entered by');
    // Its state is the badge by the title, not said again among the fields.
    expect(terms()).not.toContain('Status');
    expect(screen.getAllByText('Paid').length).toBeGreaterThan(0);
    // Customers are not theirs to read: the reference shows its id, with no link and no call.
    const shown = [...document.querySelectorAll('dt')].find((term) => term.textContent === 'Customer');
    expect(shown?.nextElementSibling?.textContent).toBe('1');
    expect(within(shown?.nextElementSibling as HTMLElement).queryByRole('link')).toBeNull();
    expect(calls(data, 'get').map((entry) => (entry.params as { entity: string }).entity)).not.toContain(
      'Customer',
    );
    // Nor may they change or delete it: no action at all.
    expect(screen.queryByRole('group', { name: 'Actions' })).toBeNull();
  });

  it('shows the owner who entered the order, and both Edit and Delete', async () => {
    renderAs(owner, '/orders/2');
    expect(await screen.findByRole('heading', { name: 'SO-2' })).toBeTruthy();
    expect(terms()).toContain('Entered by');
    expect(within(actions()).getByRole('link', { name: 'Edit' })).toBeTruthy();
    expect(within(actions()).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('gives a clerk no Delete on orders, which the clerk may never delete', async () => {
    renderAs(clerk, '/orders/3');
    expect(await screen.findByRole('heading', { name: 'SO-3' })).toBeTruthy();
    expect(within(actions()).getByRole('link', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it('disables Edit on another clerk’s draft, with the reason in view and tied to the button', async () => {
    renderAs(clerk, '/orders/1');
    expect(await screen.findByRole('heading', { name: 'SO-1' })).toBeTruthy();
    const edit = within(actions()).getByRole('button', { name: 'Edit' });
    expect(edit).toHaveProperty('disabled', true);
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    const reason = 'Edit: The role Counter clerk may change only some orders, and not this one.';
    expect(describedBy(edit)).toBe(reason);
    expect(screen.getByText(reason)).toBeTruthy();
  });

  it('refuses the edit screen of another clerk’s draft once the record shows whose it is', async () => {
    const { data } = renderAs(clerk, '/orders/1/edit');
    expect(
      await screen.findByText('The role Counter clerk may change only some orders, and not this one.'),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Not allowed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(calls(data, 'update')).toEqual([]);
  });
});

describe('forms', () => {
  const limited = withGrant('clerk', 'Order', { hidden: ['attachment'], readOnly: ['notes'] });

  it('leaves out hidden fields, shows read-only ones without an input, and never sends either', async () => {
    const { data, user } = renderAs(clerk, '/orders/3/edit', limited);
    expect(await screen.findByRole('heading', { name: 'Edit SO-3' })).toBeTruthy();
    expect(screen.queryByLabelText(/Purchase order/)).toBeNull();
    expect(screen.queryByRole('textbox', { name: /Notes/ })).toBeNull();
    const notes = screen.getByText('Notes', { selector: 'label' });
    const output = document.getElementById(notes.getAttribute('for') ?? '');
    expect(output?.tagName).toBe('OUTPUT');
    expect(output?.textContent).toContain('Mine');

    const street = screen.getByLabelText(/^Street/);
    await user.type(street, '2 Pier Lane');
    await user.type(screen.getByLabelText(/^Postcode/), '0151');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(data, 'update').length).toBe(1));
    const sent = calls(data, 'update')[0]?.params as { values: Record<string, unknown> } | undefined;
    expect(Object.keys(sent?.values ?? {})).toEqual(['shippingAddress']);
  });

  it('offers no input for a hidden or read-only field on create', async () => {
    renderAs(clerk, '/orders/new', limited);
    expect(await screen.findByRole('heading', { name: 'New order' })).toBeTruthy();
    expect(screen.getAllByLabelText(/^Customer/).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText(/Purchase order/)).toBeNull();
    expect(screen.queryByText('Notes')).toBeNull();
  });

  it('keeps every field for a role without limits', async () => {
    renderAs(clerk, '/orders/3/edit');
    expect(await screen.findByRole('heading', { name: 'Edit SO-3' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /Notes/ })).toBeTruthy();
    expect(screen.getByText('Purchase order')).toBeTruthy();
  });
});
