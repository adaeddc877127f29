import type { ApiDescription } from '@ninefold/model';
import { describeApi } from '@ninefold/model';
import { buildApp, openStore, type Store } from '@ninefold/server';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../src/app/App';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { createSessionStore, type SessionStore } from '../src/session/session-store';
import { injectRequest, signInAsOwner } from './support/in-process-api';
import { loadExample } from './support/load-example';

const shop = loadExample('shop.md');

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
}

const opened: Array<{ app: FastifyInstance; store: Store; session: SessionStore }> = [];
beforeEach(() => window.localStorage.clear());
afterEach(async () => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
  for (const { app, store, session } of opened.splice(0)) {
    session.dispose();
    await app.close();
    await store.close();
  }
});

/**
 * The real prototype API on in-memory SQLite, reached through a fetch that hands each request to
 * `app.inject`, signed in as the shop's owner.
 */
async function serve() {
  const store = await openStore({ model: shop, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model: shop, store });
  const { token, user: owner } = await signInAsOwner(app, store, shop);

  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const url = String(input);
    sent.push({
      method: init.method ?? 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>) },
    });
    return injectRequest(app, url, init);
  };
  // The history is read with the page's own fetch, not the data provider's: it must reach the API too.
  vi.stubGlobal('fetch', fetch);
  // As `/spec.json` describes the prototype API when point 4 is shown.
  const api: ApiDescription = { ...(describeApi(shop) as ApiDescription), history: '/_history' };
  const session = createSessionStore(shop, api, {
    fetch,
    signedIn: { credentials: { scheme: 'bearer', token }, user: { ...owner, role: 'owner' } },
  });
  opened.push({ app, store, session });
  const data = createHttpDataProvider(api, shop, {
    fetch,
    authHeaders: session.authHeaders,
    onUnauthorized: session.unauthorized,
  });
  const user = userEvent.setup();
  let view: ReturnType<typeof render> | undefined;
  const open = (path: string) => {
    view?.unmount();
    view = render(<App spec={{ model: shop, api, data }} session={session} initialPath={path} locale="en" />);
  };
  return { data, sent, user, open };
}

describe('the transition history from the prototype API', () => {
  it('lists the transitions taken, newest first, with who took them', async () => {
    const { data, sent, user, open } = await serve();
    const customer = await data.create({
      entity: 'Customer',
      values: { name: 'Anna Berg', email: 'anna@example.com' },
    });
    const product = await data.create({
      entity: 'Product',
      values: { sku: 'RG-1001', name: 'Mooring line', category: 'rigging', price: 24.5, stock: 10 },
    });
    const order = await data.create({
      entity: 'Order',
      values: {
        customer: customer.record.id,
        shippingAddress: { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ' },
        lines: [{ product: product.record.id, quantity: 2, unitPrice: 24.5 }],
      },
    });
    const id = String(order.record.id);
    await data.transition({ entity: 'Order', id, transition: 'place' });
    open(`/orders/${id}`);

    const history = await screen.findByRole('region', { name: 'History' });
    const items = await within(history).findAllByRole('listitem');
    expect(items.map((item) => item.textContent?.split(' · ').slice(0, 2))).toEqual([
      ['Place order: Draft to Placed', 'by owner@shop.test'],
    ]);
    const asked = sent.filter((request) => request.url.startsWith('/api/_history/'));
    expect(asked.map((request) => request.url)).toEqual([`/api/_history/Order/${id}`]);
    expect(asked[0]?.headers.authorization).toMatch(/^Bearer /);

    await user.click(screen.getByRole('button', { name: 'Mark as paid' }));
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2));
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.split(' · ')[0]),
    ).toEqual(['Mark as paid: Placed to Paid', 'Place order: Draft to Placed']);
  });
});
