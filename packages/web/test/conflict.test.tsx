import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { ApiError } from '../src/data/data-provider';
import { createMemoryDataProvider, type MemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const api = apiOf(shop);

beforeEach(() => window.localStorage.clear());
afterEach(() => window.localStorage.clear());

const anna = { name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000, active: true };

const updates = (data: MemoryDataProvider) =>
  data.log.filter((entry) => entry.method === 'update').map((entry) => entry.params);

/**
 * Anna's record open for editing; someone else saves a new email and a phone number; then this person
 * changes the name and the email, and saves: the API refuses with a 412.
 */
async function conflictOnSave() {
  const data = createMemoryDataProvider(shop, api, { Customer: [anna] });
  const user = userEvent.setup();
  render(<App spec={{ model: shop, api, data }} initialPath="/customers/1/edit" locale="en" />);
  const name = await screen.findByLabelText(/^Name/);
  await waitFor(() => expect(name).toHaveProperty('value', 'Anna Berg'));
  await data.update({
    entity: 'Customer',
    id: '1',
    values: { email: 'berg@example.com', phone: '+47 111' },
    version: '"1"',
  });
  await user.clear(name);
  await user.type(name, 'Anna B. Berg');
  await user.clear(screen.getByLabelText(/^Email/));
  await user.type(screen.getByLabelText(/^Email/), 'anna@berg.example');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  const panel = await screen.findByRole('alert');
  await within(panel).findByRole('table', { name: 'Fields that differ' });
  return { data, user, panel };
}

function rows(panel: HTMLElement): string[][] {
  return within(panel)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}

const radio = (panel: HTMLElement, field: string, which: 'Yours' | 'Theirs') =>
  within(within(panel).getByRole('radiogroup', { name: `Which value of ${field} to keep` })).getByRole(
    'radio',
    { name: which },
  ) as HTMLInputElement;

describe('a save refused because someone else changed the record (412)', () => {
  it('shows both versions of only the fields that differ, and keeps what was typed', async () => {
    const { panel } = await conflictOnSave();
    expect(panel.textContent).toContain('Your changes to this Customer were not saved');
    // The error catalogue's message for a 412.
    expect(panel.textContent).toContain('Someone else changed this record while you were editing it.');
    expect(rows(panel).map((cells) => cells.slice(0, 3))).toEqual([
      ['Name', 'Anna B. Berg', 'Anna Berg'],
      ['Email', 'anna@berg.example', 'berg@example.com'],
      ['Phone', 'Not set', '+47 111'],
    ]);
    // Each field starts at the person's value where they changed it, else at the other version's.
    expect(radio(panel, 'Name', 'Yours').checked).toBe(true);
    expect(radio(panel, 'Email', 'Yours').checked).toBe(true);
    expect(radio(panel, 'Phone', 'Theirs').checked).toBe(true);
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Anna B. Berg');
    expect(screen.getByLabelText(/^Email/)).toHaveProperty('value', 'anna@berg.example');
    expect(document.activeElement).toBe(panel);
  });

  it('keep mine: saves the form over the current version', async () => {
    const { data, user, panel } = await conflictOnSave();
    await user.click(within(panel).getByRole('button', { name: 'Keep mine' }));
    expect(await screen.findByRole('heading', { name: 'Anna B. Berg' })).toBeTruthy();
    expect(updates(data).at(-1)).toEqual({
      entity: 'Customer',
      id: '1',
      values: { name: 'Anna B. Berg', email: 'anna@berg.example', phone: null },
      version: '"2"',
    });
    expect(data.records('Customer')[0]).toEqual(
      expect.objectContaining({ name: 'Anna B. Berg', email: 'anna@berg.example', phone: null }),
    );
  });

  it('take theirs: the form shows the record as it is now, and nothing is sent', async () => {
    const { data, user, panel } = await conflictOnSave();
    await user.click(within(panel).getByRole('button', { name: 'Take theirs' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Anna Berg');
    expect(screen.getByLabelText(/^Email/)).toHaveProperty('value', 'berg@example.com');
    expect(screen.getByLabelText(/^Phone/)).toHaveProperty('value', '+47 111');
    expect(updates(data)).toHaveLength(2);
    // The form is now based on the current version: a change saves against it.
    await user.clear(screen.getByLabelText(/^Country/));
    await user.type(screen.getByLabelText(/^Country/), 'NO');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(updates(data).at(-1)).toEqual(
      expect.objectContaining({ values: { country: 'NO' }, version: '"2"' }),
    );
  });

  it('merge: saves the value chosen for each field', async () => {
    const { data, user, panel } = await conflictOnSave();
    await user.click(radio(panel, 'Email', 'Theirs'));
    await user.click(within(panel).getByRole('button', { name: 'Save my choices' }));
    expect(await screen.findByRole('heading', { name: 'Anna B. Berg' })).toBeTruthy();
    expect(updates(data).at(-1)).toEqual(
      expect.objectContaining({ values: { name: 'Anna B. Berg' }, version: '"2"' }),
    );
    expect(data.records('Customer')[0]).toEqual(
      expect.objectContaining({ name: 'Anna B. Berg', email: 'berg@example.com', phone: '+47 111' }),
    );
  });

  it('uses the record the 412 carries, without reading it again', async () => {
    const data = createMemoryDataProvider(shop, api, { Customer: [anna] });
    const user = userEvent.setup();
    render(<App spec={{ model: shop, api, data }} initialPath="/customers/1/edit" locale="en" />);
    const phone = await screen.findByLabelText(/^Phone/);
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
        { current: { ...anna, id: 1, phone: '+47 222' }, currentVersion: '"1"' },
      ),
    );
    await user.type(phone, '+47 555');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const panel = await screen.findByRole('alert');
    expect(rows(panel).map((cells) => cells.slice(0, 3))).toEqual([['Phone', '+47 555', '+47 222']]);
    expect(data.log.filter((entry) => entry.method === 'get')).toHaveLength(1);
    await user.click(within(panel).getByRole('button', { name: 'Keep mine' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(updates(data).at(-1)).toEqual(
      expect.objectContaining({ values: { phone: '+47 555' }, version: '"1"' }),
    );
  });
});
