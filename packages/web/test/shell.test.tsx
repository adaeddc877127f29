import { type Model, notShownModel } from '@ninefold/model';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { createSessionStore } from '../src/session/session-store';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');

function renderApp(model = shop, initialPath = '/_/about', locale: 'en' | 'fr' = 'en') {
  const api = apiOf(model);
  const data = createMemoryDataProvider(model, api);
  render(<App spec={{ model, api, data }} initialPath={initialPath} locale={locale} />);
  return data;
}

describe('the shell', () => {
  it('shows an empty specification as the honest shell, with every point listed as not shown', async () => {
    const model = {
      ...notShownModel('Nameless'),
      screens: { shown: false as const, reason: 'No screens yet.' },
    };
    const data = renderApp(model, '/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Nameless' })).toBeTruthy();
    expect(screen.getByTestId('coverage').textContent).toBe(
      '0 of 9 points of this client’s specification are shown.',
    );
    const list = screen.getByRole('list', { name: 'What the specification does not show' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(9);
    expect(within(list).getByText('The specification says: “No screens yet.”')).toBeTruthy();
    const navigation = screen.getByRole('navigation', { name: 'Navigation' });
    expect(
      within(navigation)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['About this client']);
    expect(data.log).toEqual([]);
  });

  it('builds the navigation from the visible screens of point 2 only', async () => {
    renderApp();
    const navigation = await screen.findByRole('navigation', { name: 'Navigation' });
    const links = within(navigation).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Today',
      'Orders',
      'New order',
      'Customers',
      'New customer',
      'Products',
      'New product',
      'About this client',
    ]);
    expect(links[1]?.getAttribute('href')).toBe('/orders');
    expect(screen.getByTestId('coverage').textContent).toContain('9 of 9');
    expect(screen.getByText('The specification shows all nine points.')).toBeTruthy();
  });

  it('says plainly when nothing lives at an address', async () => {
    renderApp(shop, '/nowhere/at/all');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('Nothing in this client lives at /nowhere/at/all.')).toBeTruthy();
  });

  it('speaks French when asked, from the same catalogue keys', async () => {
    renderApp(shop, '/_/about', 'fr');
    expect(await screen.findByText('La spécification décrit les neuf points.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'À propos de ce client' })).toBeTruthy();
  });

  it('switches language from the picker', async () => {
    renderApp();
    await screen.findByTestId('coverage');
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'fr');
    expect(await screen.findByText('La spécification décrit les neuf points.')).toBeTruthy();
  });

  it('draws the sign-in screen of point 2 as a real form for the password sign-in of point 6', async () => {
    const api = apiOf(shop);
    const session = createSessionStore(shop, api, { fetch: () => Promise.reject(new Error('offline')) });
    const data = createMemoryDataProvider(shop, api);
    render(<App spec={{ model: shop, api, data }} initialPath="/sign-in" session={session} locale="en" />);
    expect(await screen.findByLabelText(/^Email/)).toBeTruthy();
    expect(screen.getByLabelText(/^Password/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  // Issue 15: with 27 resources at 1280×800, every entry below the fold was out of reach. The entries now
  // scroll on their own (About stays put) and, above 15 of them, a box filters them by name.
  it('filters a long navigation by name, and says when nothing matches', async () => {
    if (!shop.screens.shown) throw new Error('the shop shows point 2');
    const list = shop.screens.items.find((item) => item.name === 'products');
    if (list?.kind !== 'list') throw new Error('the shop lists products');
    const many = Array.from({ length: 20 }, (_, n) => ({
      ...list,
      name: `resource${n}`,
      title: `Resource ${String(n).padStart(2, '0')}`,
      route: `/resources-${n}`,
    }));
    renderApp({ ...shop, screens: { ...shop.screens, items: [...shop.screens.items, ...many] } });
    const user = userEvent.setup();
    const navigation = await screen.findByRole('navigation', { name: 'Navigation' });
    const box = within(navigation).getByRole('searchbox', { name: 'Filter the pages' });
    await user.type(box, 'resource 1');
    const names = within(navigation)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual([...Array.from({ length: 10 }, (_, n) => `Resource 1${n}`), 'About this client']);
    await user.clear(box);
    await user.type(box, 'nothing like it');
    expect(within(navigation).getByRole('status').textContent).toBe('No page is called “nothing like it”.');
    expect(
      within(navigation)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['About this client']);
  });

  const withGroups = (extra: Array<[number, string]>): Model => {
    if (!shop.screens.shown) throw new Error('the shop shows point 2');
    const list = shop.screens.items.find((item) => item.name === 'products');
    if (list?.kind !== 'list') throw new Error('the shop lists products');
    const tagged = extra.map(([n, group]) => ({
      ...list,
      name: `tagged${n}`,
      title: `Tagged ${n}`,
      route: `/tagged-${n}`,
      group,
    }));
    return { ...shop, screens: { ...shop.screens, items: [...shop.screens.items, ...tagged] } };
  };

  it('groups a short navigation by the screens’ groups, each open until the person closes it', async () => {
    renderApp(
      withGroups([
        [1, 'billing'],
        [2, 'billing'],
        [3, 'shipping'],
      ]),
    );
    const user = userEvent.setup();
    const navigation = await screen.findByRole('navigation', { name: 'Navigation' });
    const billing = within(navigation).getByRole('button', { name: 'Billing' });
    expect(billing.getAttribute('aria-expanded')).toBe('true');
    // A group of one is its screen alone, with no heading over it.
    expect(within(navigation).queryByRole('button', { name: 'Shipping' })).toBeNull();
    expect(within(navigation).getByRole('link', { name: 'Tagged 3' })).toBeTruthy();
    // The ungrouped screens come first, as links of their own.
    expect(within(navigation).getAllByRole('link')[0]?.textContent).toBe('Today');
    await user.click(billing);
    expect(billing.getAttribute('aria-expanded')).toBe('false');
  });

  it('keeps the groups of a long navigation closed until opened', async () => {
    renderApp(
      withGroups(
        Array.from({ length: 20 }, (_, n): [number, string] => [n, n < 10 ? 'billing' : 'shipping']),
      ),
    );
    const user = userEvent.setup();
    const navigation = await screen.findByRole('navigation', { name: 'Navigation' });
    const billing = within(navigation).getByRole('button', { name: 'Billing' });
    expect(billing.getAttribute('aria-expanded')).toBe('false');
    await user.click(billing);
    expect(billing.getAttribute('aria-expanded')).toBe('true');
    expect(within(navigation).getByRole('link', { name: 'Tagged 3' })).toBeTruthy();
  });

  it('offers no filter for a short navigation', async () => {
    renderApp();
    const navigation = await screen.findByRole('navigation', { name: 'Navigation' });
    expect(within(navigation).queryByRole('searchbox')).toBeNull();
  });
});
