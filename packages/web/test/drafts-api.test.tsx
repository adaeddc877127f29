import type { ApiDescription } from '@ninefold/model';
import { describeApi } from '@ninefold/model';
import { buildApp, openStore, type Store } from '@ninefold/server';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import type { ApiRecord } from '../src/data/data-provider';
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

/** How the network between the page and the API behaves. */
type Network = 'up' | 'lose-next-answer' | 'down';

const opened: Array<{ app: FastifyInstance; store: Store; session: SessionStore }> = [];
beforeEach(() => window.localStorage.clear());
afterEach(async () => {
  window.localStorage.clear();
  for (const { app, store, session } of opened.splice(0)) {
    session.dispose();
    await app.close();
    await store.close();
  }
});

/**
 * The real prototype API on in-memory SQLite, reached through a fetch that hands each request to
 * `app.inject`, signed in as the shop's owner. `network` cuts it: `lose-next-answer` lets the next
 * request reach the API and loses its answer, after which the network is down until set up again.
 */
async function serve() {
  const store = await openStore({ model: shop, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model: shop, store });
  const { token, user: owner } = await signInAsOwner(app, store, shop);

  const state = { network: 'up' as Network };
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    if (state.network === 'down') throw new TypeError('Failed to fetch');
    const url = String(input);
    sent.push({
      method: init.method ?? 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>) },
    });
    const answer = await injectRequest(app, url, init);
    if (state.network === 'lose-next-answer') {
      state.network = 'down';
      throw new TypeError('Failed to fetch');
    }
    return answer;
  };
  // The prototype API honours idempotency keys, and says so in its description.
  const api = { ...describeApi(shop), idempotency: true } as ApiDescription;
  const session = createSessionStore(shop, api, {
    fetch,
    signedIn: { credentials: { scheme: 'bearer', token }, user: { ...owner, role: 'owner' } },
  });
  opened.push({ app, store, session });
  const data = createHttpDataProvider(api, shop, {
    fetch,
    authHeaders: session.authHeaders,
    onUnauthorized: session.unauthorized,
    // Retries happen at once: the network stays down for all of them.
    retry: { sleep: async () => {}, random: () => 0.5 },
  });
  const user = userEvent.setup();
  let view: ReturnType<typeof render> | undefined;
  const open = (path: string) => {
    view?.unmount();
    view = render(<App spec={{ model: shop, api, data }} session={session} initialPath={path} locale="en" />);
  };
  /** What the API holds, read past the page. */
  const customers = async () =>
    (
      (
        await app.inject({
          method: 'GET',
          url: '/api/customers?limit=100',
          headers: { authorization: `Bearer ${token}` },
        })
      ).json() as { items: ApiRecord[] }
    ).items;
  return { app, data, sent, state, user, open, customers };
}

describe('against the prototype API', () => {
  it('a save whose answer the network lost, saved again after a reload, creates one record', async () => {
    const { sent, state, user, open, customers } = await serve();
    open('/customers/new');
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Lind');
    await user.type(screen.getByLabelText(/^Email/), 'lind@example.com');
    state.network = 'lose-next-answer';
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The network failed');
    // The API did create it: only the answer was lost.
    state.network = 'up';
    expect((await customers()).map((customer) => customer.name)).toEqual(['Anna Lind']);

    open('/customers/new');
    await user.click(
      within(await screen.findByRole('region', { name: 'Unsaved changes' })).getByRole('button', {
        name: 'Restore',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Lind' })).toBeTruthy();
    expect((await customers()).map((customer) => customer.name)).toEqual(['Anna Lind']);
    const keys = sent
      .filter((request) => request.method === 'POST' && request.url === '/api/customers')
      .map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a double click on Save creates one record', async () => {
    const { user, open, customers } = await serve();
    open('/customers/new');
    await user.type(await screen.findByLabelText(/^Name/), 'Bo Lind');
    await user.type(screen.getByLabelText(/^Email/), 'bo@example.com');
    await user.dblClick(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Bo Lind' })).toBeTruthy();
    expect((await customers()).map((customer) => customer.name)).toEqual(['Bo Lind']);
  });

  it('two people editing one record: the second sees both versions from the 412 and keeps theirs', async () => {
    const { data, sent, user, open, customers } = await serve();
    const created = await data.create({
      entity: 'Customer',
      values: { name: 'Anna Berg', email: 'anna@example.com', country: 'SE' },
    });
    open(`/customers/${String(created.record.id)}/edit`);
    const phone = await screen.findByLabelText(/^Phone/);
    // The other tab saves first.
    const other = await data.get({ entity: 'Customer', id: String(created.record.id) });
    const theirs = await data.update({
      entity: 'Customer',
      id: String(created.record.id),
      values: { country: 'NO' },
      ...(other.version ? { version: other.version } : {}),
    });
    await user.type(phone, '+46 555');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const panel = await screen.findByRole('alert');
    await within(panel).findByRole('table', { name: 'Fields that differ' });
    expect(
      within(panel)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [...row.querySelectorAll('th, td')].slice(0, 3).map((cell) => cell.textContent)),
    ).toEqual([
      ['Phone', '+46 555', 'Not set'],
      ['Country', 'SE', 'NO'],
    ]);
    // The 412 carried the record as it is now: nothing was read again.
    const patch = sent.findIndex((request) => request.method === 'PATCH');
    expect(sent.slice(patch + 1).filter((request) => request.method === 'GET')).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'Save my choices' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    expect(sent.filter((request) => request.method === 'PATCH').at(-1)?.headers['if-match']).toBe(
      theirs.version,
    );
    expect(await customers()).toEqual([expect.objectContaining({ phone: '+46 555', country: 'NO' })]);
  });
});
