import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { ApiError, type DataProvider, NetworkError, type VersionedRecord } from '../src/data/data-provider';
import { createMemoryDataProvider, type MemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api = apiOf(model);

function renderAt(path: string, wrap: (data: MemoryDataProvider) => DataProvider = (data) => data) {
  const data = createMemoryDataProvider(model, api);
  const user = userEvent.setup();
  render(<App spec={{ model, api, data: wrap(data) }} initialPath={path} locale="en" />);
  return { data, user };
}

const creates = (data: MemoryDataProvider) => data.log.filter((entry) => entry.method === 'create');

function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

async function fillCustomer(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/^Name/), 'Anna Berg');
  await user.type(screen.getByLabelText(/^Email/), 'anna@example.com');
}

describe('create form', () => {
  it('creates a customer with the typed values, then shows it', async () => {
    const { data, user } = renderAt('/customers/new');
    await fillCustomer(user);
    await user.type(screen.getByLabelText(/^Credit limit/), '1500.5');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    await user.type(screen.getByLabelText('Tag 1'), 'trade');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(creates(data)).toEqual([
      {
        method: 'create',
        params: {
          entity: 'Customer',
          values: {
            name: 'Anna Berg',
            email: 'anna@example.com',
            creditLimit: 1500.5,
            active: true,
            tags: ['trade'],
          },
          // One key per form, so that a save sent twice (a retry, a double click) creates one record.
          idempotencyKey: expect.any(String),
        },
      },
    ]);
  });

  it('labels every input, marks required ones and hints at bounds', async () => {
    renderAt('/customers/new');
    const name = await screen.findByLabelText(/^Name/);
    expect(name.hasAttribute('required')).toBe(true);
    expect(describedBy(name)).toContain('At most 120 characters');
    expect(screen.getByText('0 of 120')).toBeTruthy();
    const credit = screen.getByLabelText(/^Credit limit/);
    expect(credit.hasAttribute('required')).toBe(false);
    expect(describedBy(credit)).toContain('0 to 250,000 EUR');
    expect(credit.getAttribute('step')).toBe('0.01');
    expect(screen.getByLabelText('Active')).toHaveProperty('checked', true);
    expect(screen.getByLabelText(/^Email/).getAttribute('type')).toBe('email');
    // Read-only fields have no input on a create screen.
    expect(screen.queryByLabelText('Id')).toBeNull();
  });

  it('shows validation messages on their fields, focuses the first, and sends nothing', async () => {
    const { data, user } = renderAt('/customers/new');
    await user.type(await screen.findByLabelText(/^Email/), 'not an email');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const name = screen.getByLabelText(/^Name/);
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(name)).toContain('Name is required.');
    expect(document.activeElement).toBe(name);
    const email = screen.getByLabelText(/^Email/);
    expect(describedBy(email)).toContain('Enter an email address such as name@example.com.');
    expect(creates(data)).toEqual([]);
  });

  it('puts a server field error on its input and keeps the values', async () => {
    const { data, user } = renderAt('/customers/new');
    data.failNext(
      'create',
      new ApiError(
        422,
        'Invalid values',
        '1 value is not valid.',
        'VALIDATION_FAILED',
        '/problems/validation-failed',
        [{ pointer: '/email', message: 'This email is already in use.', code: 'unique' }],
        undefined,
      ),
    );
    await fillCustomer(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const email = screen.getByLabelText(/^Email/);
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(email)).toContain('This email is already in use.');
    expect(document.activeElement).toBe(email);
    expect(screen.getByRole('alert').textContent).toContain('Some values were not accepted.');
    expect(email).toHaveProperty('value', 'anna@example.com');
    expect(creates(data)).toHaveLength(1);
  });

  it('shows a problem without field errors as an alert, in the words of the error catalogue', async () => {
    const { data, user } = renderAt('/customers/new');
    data.failNext(
      'create',
      new ApiError(429, 'Too many requests', 'Wait a moment.', undefined, undefined, [], undefined),
    );
    await fillCustomer(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The record could not be saved');
    // The rich example's error catalogue has words for a 429 (point 8): they replace the API's.
    expect(alert.textContent).toContain('Too many requests; wait a moment.');
    expect(document.activeElement).toBe(alert);
  });

  it('says the network failed, keeps every value, and saves on the next try', async () => {
    const { data, user } = renderAt('/customers/new');
    data.failNext('create', new NetworkError('offline'));
    await fillCustomer(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The network failed');
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Anna Berg');
    expect(screen.getByLabelText(/^Email/)).toHaveProperty('value', 'anna@example.com');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(creates(data)).toHaveLength(2);
  });

  it('disables Save while saving, so a double click sends once', async () => {
    let finish: (value: VersionedRecord) => void = () => {};
    const { data, user } = renderAt('/customers/new', (memory) => ({
      ...memory,
      calls: memory.calls,
      create: (params) => {
        memory.log.push({ method: 'create', params });
        return new Promise<VersionedRecord>((resolve) => {
          finish = resolve;
        });
      },
    }));
    await fillCustomer(user);
    const save = screen.getByRole('button', { name: 'Save' });
    await user.dblClick(save);
    await waitFor(() => expect(save).toHaveProperty('disabled', true));
    await user.click(save);
    expect(creates(data)).toHaveLength(1);
    finish({ record: { id: 7, name: 'Anna Berg' }, version: '"1"' });
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
  });

  it('cancels back to the list', async () => {
    renderAt('/customers/new');
    expect((await screen.findByRole('link', { name: 'Cancel' })).getAttribute('href')).toBe('/customers');
  });

  it('speaks French when the client does', async () => {
    const data = createMemoryDataProvider(model, api);
    render(<App spec={{ model, api, data }} initialPath="/customers/new" locale="fr" />);
    expect(await screen.findByRole('button', { name: 'Enregistrer' })).toBeTruthy();
    expect(screen.getByText('0 sur 120')).toBeTruthy();
  });
});

describe('after saving', () => {
  // Guards against a list still showing what it showed before the new record was saved.
  it('the list of the entity is read again', async () => {
    const { data, user } = renderAt('/customers');
    // The customers' list calls; a customer's page reads its orders too (related records).
    const customerLists = () =>
      data.log.filter(
        (entry) => entry.method === 'list' && (entry.params as { entity: string }).entity === 'Customer',
      );
    await waitFor(() => expect(customerLists()).toHaveLength(1));
    const navigation = screen.getByRole('navigation');
    await user.click(within(navigation).getByRole('link', { name: 'New customer' }));
    await fillCustomer(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    await user.click(within(navigation).getByRole('link', { name: 'Customers' }));
    // Read within the list's fresh time: only the invalidation after saving makes it read again.
    await waitFor(() => expect(customerLists()).toHaveLength(2));
  });
});
