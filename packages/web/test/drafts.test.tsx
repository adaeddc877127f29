import type { Model, Principal } from '@ninefold/model';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { ApiError, type ApiRecord, NetworkError, type VersionedRecord } from '../src/data/data-provider';
import { createMemoryDataProvider, type MemoryDataProvider } from '../src/data/memory-data-provider';
import type { SessionValue } from '../src/session/SessionContext';
import { apiOf, loadExample } from './support/load-example';
import { renderScreens } from './support/render-screens';

const shop = loadExample('shop.yaml');
const api = apiOf(shop);

const seed = (): Record<string, ApiRecord[]> => ({
  Customer: [{ name: 'Anna Berg', email: 'anna@example.com', country: 'SE', active: true }],
  Product: [{ sku: 'RG-100', name: 'Rope', price: 24.5, stock: 10 }],
});

beforeEach(() => window.localStorage.clear());
afterEach(() => window.localStorage.clear());

/** The drafts this browser holds, as stored. */
function storedDrafts(): string[] {
  const texts: string[] = [];
  for (let index = 0; index < window.localStorage.length; index += 1) {
    const key = window.localStorage.key(index) ?? '';
    if (key.startsWith('ninefold.draft.')) texts.push(window.localStorage.getItem(key) ?? '');
  }
  return texts;
}

/**
 * The client at an address, as a page load would start it; `reload()` ends it (like closing the tab or
 * reloading) and starts it again on the same data and the same browser storage.
 */
function open(
  path: string,
  data: MemoryDataProvider = createMemoryDataProvider(shop, api, seed()),
  model = shop,
) {
  const user = userEvent.setup();
  let view = render(<App spec={{ model, api, data }} initialPath={path} locale="en" />);
  const reload = (at = path) => {
    view.unmount();
    view = render(<App spec={{ model, api, data }} initialPath={at} locale="en" />);
  };
  return { data, user, reload };
}

const creates = (data: MemoryDataProvider) =>
  data.log
    .filter((entry) => entry.method === 'create')
    .map((entry) => entry.params as { idempotencyKey?: string });

const offer = () => screen.findByRole('region', { name: 'Unsaved changes' });

describe('form drafts', () => {
  it('keeps what was typed across a reload, offers it back, and a save clears it', async () => {
    const { data, user, reload } = open('/customers/new');
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    await user.type(screen.getByLabelText(/^Email/), 'lind@example.com');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    await user.type(screen.getByLabelText('Tag 1'), 'north');

    reload();
    const region = await offer();
    expect(region.textContent).toMatch(/You have unsaved changes from \d{1,2}:\d{2}/);
    // Offered, not imposed: the form starts empty until the person restores.
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', '');
    await user.click(within(region).getByRole('button', { name: 'Restore' }));
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Anna Lind');
    expect(screen.getByLabelText(/^Email/)).toHaveProperty('value', 'lind@example.com');
    expect(screen.getByLabelText('Tag 1')).toHaveProperty('value', 'north');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Lind' })).toBeTruthy();
    expect(data.records('Customer').map((customer) => customer.name)).toEqual(['Anna Berg', 'Anna Lind']);
    expect(storedDrafts()).toEqual([]);
    reload('/customers/new');
    expect(await screen.findByLabelText(/^Name/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
  });

  it('forgets the draft when the person discards it', async () => {
    const { user, reload } = open('/customers/new');
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    reload();
    await user.click(within(await offer()).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', '');
    expect(storedDrafts()).toEqual([]);
    reload();
    expect(await screen.findByLabelText(/^Name/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
  });

  it('keeps a draft per record: an edit draft is not offered on another record or on create', async () => {
    const data = createMemoryDataProvider(shop, api, {
      ...seed(),
      Customer: [
        { name: 'Anna Berg', email: 'anna@example.com' },
        { name: 'Bo Lind', email: 'bo@example.com' },
      ],
    });
    const { user, reload } = open('/customers/1/edit', data);
    const phone = await screen.findByLabelText(/^Phone/);
    await user.type(phone, '+46 555');
    reload('/customers/2/edit');
    expect(await screen.findByRole('heading', { name: 'Edit Bo Lind' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    reload('/customers/new');
    expect(await screen.findByRole('heading', { name: 'New customer' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    reload('/customers/1/edit');
    await user.click(within(await offer()).getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText(/^Phone/)).toHaveProperty('value', '+46 555');
  });

  it('says when the record changed on the server since, and saving then shows both versions', async () => {
    const { data, user, reload } = open('/customers/1/edit');
    await user.type(await screen.findByLabelText(/^Phone/), '+46 555');
    // Someone else saves meanwhile; then this tab is reloaded.
    await data.update({ entity: 'Customer', id: '1', values: { email: 'berg@example.com' }, version: '"1"' });
    reload();
    const region = await offer();
    expect(region.textContent).toContain('This Customer has been changed by someone else since.');
    await user.click(within(region).getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText(/^Phone/)).toHaveProperty('value', '+46 555');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    // The draft keeps the version it was based on, so the save cannot overwrite the other change.
    const conflict = await screen.findByRole('alert');
    expect(conflict.textContent).toContain('Your changes to this Customer were not saved');
    expect(data.log.filter((entry) => entry.method === 'update').at(-1)?.params).toEqual(
      expect.objectContaining({ values: { phone: '+46 555' }, version: '"1"' }),
    );
  });

  it('never keeps a secret, and says which chosen files must be chosen again', async () => {
    const model = withSecret(shop);
    const { user, reload } = open('/orders/new', createMemoryDataProvider(model, api, seed()), model);
    await user.type(await screen.findByLabelText(/^Notes/), 'Leave at the back door.');
    await user.type(screen.getByLabelText(/^Access code/), 'hunter2');
    await user.upload(
      screen.getByLabelText(/^Purchase order/),
      new File(['%PDF-1.4 order'], 'po.pdf', { type: 'application/pdf' }),
    );
    reload();
    const region = await offer();
    expect(storedDrafts().join('')).toContain('Leave at the back door.');
    expect(storedDrafts().join('')).not.toContain('hunter2');
    expect(region.textContent).toContain('Files are not kept in the browser: choose Purchase order again.');
    await user.click(within(region).getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText(/^Notes/)).toHaveProperty('value', 'Leave at the back door.');
    expect(screen.getByLabelText(/^Access code/)).toHaveProperty('value', '');
    expect(screen.queryByText(/^Chosen:/)).toBeNull();
  });

  it('goes away with Cancel', async () => {
    const { user, reload } = open('/customers/new');
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Customers' })).toBeTruthy();
    expect(storedDrafts()).toEqual([]);
    reload();
    expect(await screen.findByLabelText(/^Name/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
  });
});

describe('a draft and who is signed in', () => {
  const clerk = signedIn('clerk', 'u1');
  const other = signedIn('clerk', 'u2');

  it('is offered back to the person who typed it, and to nobody else', async () => {
    const data = createMemoryDataProvider(shop, api, seed());
    const user = userEvent.setup();
    const first = renderAs(clerk, '/customers/new', data);
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    first.unmount();

    const second = renderAs(other, '/customers/new', data);
    expect(await screen.findByLabelText(/^Name/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Unsaved changes' })).toBeNull();
    second.unmount();

    // The same person after signing in again (a session that ended in the middle of the work).
    renderAs(clerk, '/customers/new', data);
    await user.click(within(await offer()).getByRole('button', { name: 'Restore' }));
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Anna Lind');
  });
});

describe('a create is sent once', () => {
  it('carries one idempotency key, the same after the network failed and the page was reloaded', async () => {
    const { data, user, reload } = open('/customers/new');
    data.failNext('create', new NetworkError('offline'));
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    await user.type(screen.getByLabelText(/^Email/), 'lind@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The network failed');
    const [first] = creates(data);
    expect(first?.idempotencyKey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );

    reload();
    await user.click(within(await offer()).getByRole('button', { name: 'Restore' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Lind' })).toBeTruthy();
    expect(creates(data).map((params) => params.idempotencyKey)).toEqual([
      first?.idempotencyKey,
      first?.idempotencyKey,
    ]);
  });

  it('keeps the key when the answer was lost, and takes a new one after the API refused', async () => {
    const { data, user } = open('/customers/new');
    data.failNext('create', new NetworkError('offline'));
    data.failNext(
      'create',
      new ApiError(422, 'Invalid values', undefined, 'VALIDATION_FAILED', undefined, [], undefined),
    );
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    await user.type(screen.getByLabelText(/^Email/), 'lind@example.com');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(creates(data)).toHaveLength(attempt + 1));
    }
    const [lost, refused, third] = creates(data).map((params) => params.idempotencyKey);
    expect(refused).toBe(lost);
    expect(third).not.toBe(refused);
    expect(third).toBeDefined();
  });

  it('sends one create for two clicks that come before the button is drawn disabled', async () => {
    let finish: (value: VersionedRecord) => void = () => {};
    const memory = createMemoryDataProvider(shop, api, seed());
    const user = userEvent.setup();
    render(
      <App
        spec={{
          model: shop,
          api,
          data: {
            ...memory,
            calls: memory.calls,
            create: (params) => {
              memory.log.push({ method: 'create', params });
              return new Promise<VersionedRecord>((resolve) => {
                finish = resolve;
              });
            },
          },
        }}
        initialPath="/customers/new"
        locale="en"
      />,
    );
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    await user.type(screen.getByLabelText(/^Email/), 'lind@example.com');
    const save = screen.getByRole('button', { name: 'Save' });
    act(() => {
      save.click();
      save.click();
    });
    await waitFor(() => expect(save).toHaveProperty('disabled', true));
    await waitFor(() => expect(creates(memory)).toHaveLength(1));
    // Anything a second click started has reached the data layer by now.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(creates(memory)).toHaveLength(1);
    act(() => finish({ record: { id: 2, name: 'Anna Lind' }, version: '"1"' }));
    expect(await screen.findByRole('heading', { name: 'Anna Lind' })).toBeTruthy();
  });
});

/** The shop with a secret on orders: written, never shown back, never kept. */
function withSecret(model: Model): Model {
  if (!model.entities.shown || !model.screens.shown) throw new Error('The shop shows points 2 and 3.');
  return {
    ...model,
    entities: {
      ...model.entities,
      items: model.entities.items.map((entity) =>
        entity.name === 'Order'
          ? {
              ...entity,
              fields: [
                ...entity.fields,
                { name: 'accessCode', kind: 'text', label: 'Access code', writeOnly: true },
              ],
            }
          : entity,
      ),
    },
    screens: {
      ...model.screens,
      items: model.screens.items.map((item) =>
        item.name === 'new-order' && item.kind === 'create'
          ? { ...item, fields: [...(item.fields ?? []), 'accessCode'] }
          : item,
      ),
    },
  };
}

function signedIn(role: string, id: string): SessionValue {
  const principal: Principal = { role, user: { id, email: `${id}@example.com`, role } };
  return { state: { status: 'signed-in', user: { id, role, attributes: {} } }, principal };
}

/** The screens alone for a signed-in person. */
function renderAs(session: SessionValue, path: string, data: MemoryDataProvider) {
  return renderScreens({ session, path, model: shop, api, data });
}
