import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.md');
const api = apiOf(shop);

beforeEach(() => window.localStorage.clear());
afterEach(() => window.localStorage.clear());

function describedBy(element: HTMLElement): string {
  return (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

function openOrderForm() {
  const data = createMemoryDataProvider(shop, api);
  render(<App spec={{ model: shop, api, data }} initialPath="/orders/new" locale="en" />);
  return { data, user: userEvent.setup() };
}

const MB = 1024 * 1024;

describe('constants of point 9 in the order form', () => {
  it('says each limit where it applies, in the constant’s unit', async () => {
    openOrderForm();
    const notes = await screen.findByLabelText(/^Notes/);
    expect(describedBy(notes)).toContain('At most 2,000 characters');
    expect(screen.getByText('0 of 2,000')).toBeTruthy();
    expect(screen.getByRole('group', { name: /^Lines/ }).textContent).toContain('1 to 50 lines');
    expect(screen.getByText('0 of 50')).toBeTruthy();
    expect(describedBy(screen.getByLabelText(/^Purchase order/))).toContain('At most 5 MB');
  });

  it('says at once that a chosen file is larger than MAX_ATTACHMENT_SIZE, and nothing for one within it', async () => {
    const { user } = openOrderForm();
    const picker = await screen.findByLabelText(/^Purchase order/);
    await user.upload(picker, new File([new Uint8Array(6 * MB)], 'scan.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('6 MB is more than the 5 MB allowed.')).toBeTruthy();
    await user.upload(picker, new File([new Uint8Array(5 * MB)], 'po.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(screen.queryByText(/is more than the 5 MB allowed/)).toBeNull());
    expect(screen.getByText('Chosen: po.pdf (5 MB)')).toBeTruthy();
  });
});
