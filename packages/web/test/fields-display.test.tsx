import { MantineProvider } from '@mantine/core';
import type { Field, JsonValue } from '@ninefold/model';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { MemoryRouter } from '../src/app/router';
import { SpecProvider } from '../src/app/SpecContext';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { FieldDisplay } from '../src/fields/FieldDisplay';
import { I18nProvider } from '../src/i18n/I18nProvider';
import { apiOf, loadExample } from './support/load-example';

const model = loadExample('shop.yaml');
const api = apiOf(model);

/** A display on its own, as a table cell uses it: inside the app's providers, outside any screen. */
function show(field: Field, value: JsonValue | undefined, entity?: string) {
  const data = createMemoryDataProvider(model, api, { Customer: [{ name: 'Anna Berg', email: 'a@b.c' }] });
  const wrap = (children: ReactNode) => (
    <MantineProvider>
      <I18nProvider locale="en">
        <QueryClientProvider client={new QueryClient()}>
          <SpecProvider value={{ model, api, data }}>
            <MemoryRouter entries={['/']}>{children}</MemoryRouter>
          </SpecProvider>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>
  );
  render(wrap(<FieldDisplay field={field} value={value} {...(entity ? { entity } : {})} />));
  return data;
}

describe('FieldDisplay on its own', () => {
  it('links a URL field to https elsewhere, marked as leaving the site, and shows http as text', () => {
    const url = { name: 'site', kind: 'text', format: 'url' } as Field;
    show(url, 'https://example.com');
    const link = screen.getByRole('link', { name: 'https://example.com (opens another site)' });
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(link.getAttribute('target')).toBe('_blank');
    show(url, 'http://example.com');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('links nothing of a text field that is not a URL, and shows a right-to-left override instead of obeying it', () => {
    show({ name: 'name', kind: 'text' } as Field, 'https://evil.example/invoice\u202Efdp.exe');
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('https://evil.example/invoice⟦U+202E⟧fdp.exe')).toBeTruthy();
  });

  it('renders Markdown from data with links to this site only: //host, other sites and images elsewhere are text', async () => {
    show(
      { name: 'notes', kind: 'markdown' } as Field,
      '[ours](/orders/1) [away](//evil.example/p) [far](https://evil.example/p) ![pixel](https://evil.example/t.png) ab\u202Ecd',
    );
    const ours = await screen.findByRole('link', { name: 'ours' });
    expect(ours.getAttribute('href')).toBe('/orders/1');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.getByText('away')).toBeTruthy();
    expect(screen.getByText('far')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
    expect(document.body.textContent).toContain('ab⟦U+202E⟧cd');
  });

  it('never turns a script address into a link', () => {
    show({ name: 'site', kind: 'text', format: 'url' } as Field, 'javascript:alert(1)');
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('javascript:alert(1)')).toBeTruthy();
  });

  it('shows no download link for a file whose address is not safe', () => {
    show({ name: 'doc', kind: 'file' } as Field, { name: 'x.pdf', size: 10, url: 'javascript:alert(1)' });
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('x.pdf (10 bytes)')).toBeTruthy();
  });

  it('shows text that looks like HTML as text', () => {
    show({ name: 'name', kind: 'text' } as Field, '<b>bold</b>');
    expect(screen.getByText('<b>bold</b>')).toBeTruthy();
    expect(document.querySelector('b')).toBeNull();
  });

  it('shows enum labels, and a state as a badge with its label', () => {
    const status = model.entities.shown
      ? model.entities.items
          .find((entity) => entity.name === 'Order')
          ?.fields.find((field) => field.name === 'status')
      : undefined;
    show(status as Field, 'cancelled', 'Order');
    expect(screen.getByText('Cancelled').closest('.mantine-Badge-root')).not.toBeNull();
  });

  it('shows a referenced record’s name with its bidirectional controls visible, not obeyed', async () => {
    const data = createMemoryDataProvider(model, api, {
      Customer: [{ name: 'Anna\u202Egreb', email: 'a@b.c' }],
    });
    render(
      <MantineProvider>
        <I18nProvider locale="en">
          <QueryClientProvider client={new QueryClient()}>
            <SpecProvider value={{ model, api, data }}>
              <MemoryRouter entries={['/']}>
                <FieldDisplay
                  field={{ name: 'customer', kind: 'reference', entity: 'Customer' } as Field}
                  value={1}
                />
              </MemoryRouter>
            </SpecProvider>
          </QueryClientProvider>
        </I18nProvider>
      </MantineProvider>,
    );
    expect((await screen.findByRole('link')).textContent).toBe('Anna⟦U+202E⟧greb');
  });

  it('loads a referenced record to show its name, linking to its detail screen', async () => {
    const data = show({ name: 'customer', kind: 'reference', entity: 'Customer' } as Field, 1);
    const link = await screen.findByRole('link', { name: 'Anna Berg' });
    expect(link.getAttribute('href')).toBe('/customers/1');
    // The shop's customers list filters ids with `in`: the name comes from one list call.
    expect(data.log).toEqual([
      {
        method: 'list',
        params: expect.objectContaining({
          entity: 'Customer',
          filters: [{ field: 'id', op: 'in', value: ['1'] }],
        }),
      },
    ]);
  });

  it('falls back to the id when the referenced record cannot be read', async () => {
    const data = show({ name: 'customer', kind: 'reference', entity: 'Customer' } as Field, 9);
    expect(await screen.findByRole('link', { name: '9' })).toBeTruthy();
    // The list call does not answer it; the get call is asked, and its 404 leaves the id.
    await waitFor(() => expect(data.log.map((call) => call.method)).toEqual(['list', 'get']));
  });

  it('says "Not set" for an empty value', () => {
    show({ name: 'notes', kind: 'markdown' } as Field, null);
    expect(screen.getByText('Not set')).toBeTruthy();
  });

  it('shows whole and decimal numbers in the language', () => {
    show({ name: 'n', kind: 'integer' } as Field, 1234567);
    expect(screen.getByText('1,234,567')).toBeTruthy();
  });

  it('shows a decimal number', () => {
    show({ name: 'ratio', kind: 'number' } as Field, 0.125);
    expect(screen.getByText('0.125')).toBeTruthy();
  });

  it('shows an amount in its currency', () => {
    show({ name: 'price', kind: 'money', currency: 'JPY' } as Field, 1200);
    expect(screen.getByText('¥1,200')).toBeTruthy();
  });
});
