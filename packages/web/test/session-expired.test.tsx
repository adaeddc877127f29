import type { ApiDescription } from '@ninefold/model';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../src/app/App';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { createSessionStore, type SessionStore } from '../src/session/session-store';
import { loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const api: ApiDescription = {
  base: '/api',
  conventional: false,
  calls: shop.calls.shown ? shop.calls.items : [],
  auth: { session: '/auth/session', refresh: '/auth/refresh', signOut: '/auth/sign-out' },
};
const OWNER = { id: 'u-1', email: 'olga@example.com', role: 'owner' };

interface Sent {
  method: string;
  path: string;
  authorization?: string;
  body: unknown;
}

/**
 * The prototype API as far as these tests need it: the old token has expired, signing in gives a new
 * one, and a customer saved with the new one is kept and read back.
 */
function fakeApi() {
  const sent: Sent[] = [];
  const saved = new Map<string, Record<string, unknown>>();
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const path = String(input).replace(/^\/api/, '');
    const headers = (init.headers ?? {}) as Record<string, string>;
    const request: Sent = {
      method: init.method ?? 'GET',
      path,
      ...(headers.authorization === undefined ? {} : { authorization: headers.authorization }),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const route = `${request.method} ${path}`;
    if (route === 'POST /auth/sign-in') {
      const { password } = request.body as { password: string };
      if (password !== 'right')
        return problem(401, 'SIGN_IN_FAILED', 'That email and password do not match.');
      return json(200, { token: 'new-token', tokenType: 'Bearer', user: OWNER });
    }
    if (request.authorization !== 'Bearer new-token') {
      return problem(401, 'SESSION_EXPIRED', 'Your session has ended.');
    }
    if (route === 'POST /customers') {
      const record = { id: 9, ...(request.body as Record<string, unknown>) };
      saved.set('9', record);
      return json(201, record);
    }
    const one = /^GET \/customers\/(\d+)$/.exec(route);
    if (one?.[1] && saved.has(one[1])) return json(200, saved.get(one[1]));
    if (request.method === 'GET') return json(200, { items: [], total: 0 });
    return problem(404, 'NOT_FOUND', 'Nothing here.');
  };
  return { sent, fetch };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const problem = (status: number, code: string, detail: string) =>
  new Response(JSON.stringify({ title: 'Unauthorized', status, code, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  });

const stores: SessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.dispose();
});

function renderSignedIn(path: string, queryClient?: QueryClient) {
  const { sent, fetch } = fakeApi();
  const session = createSessionStore(shop, api, {
    fetch,
    signedIn: { credentials: { scheme: 'bearer', token: 'old-token' }, user: OWNER },
  });
  stores.push(session);
  const data = createHttpDataProvider(api, shop, {
    fetch,
    authHeaders: session.authHeaders,
    onUnauthorized: session.unauthorized,
  });
  const user = userEvent.setup();
  render(
    <App
      spec={{ model: shop, api, data }}
      session={session}
      initialPath={path}
      locale="en"
      {...(queryClient ? { queryClient } : {})}
    />,
  );
  return { sent, user, session };
}

describe('a session that ends in the middle of work', () => {
  it('asks to sign in again over the form, keeps every typed value, and saves afterwards', async () => {
    const { sent, user } = renderSignedIn('/customers/new');
    await user.type(await screen.findByLabelText(/^Name/), 'Anna Berg');
    await user.type(screen.getByLabelText(/^Email/), 'anna@example.com');
    await user.type(screen.getByLabelText(/^Credit limit/), '1500');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    // The dialog is over the page, which has not moved.
    const dialog = await screen.findByRole('dialog', { name: 'Your session has ended' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    expect(within(dialog).getByLabelText(/^Email/)).toHaveProperty('value', 'olga@example.com');
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Anna Berg');
    expect(screen.getByLabelText(/^Credit limit/)).toHaveProperty('value', '1500');

    // A wrong password first: the server's message, the email kept.
    await user.type(within(dialog).getByLabelText(/^Password/), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    expect(await within(dialog).findByText('That email and password do not match.')).toBeTruthy();
    expect(within(dialog).getByLabelText(/^Email/)).toHaveProperty('value', 'olga@example.com');

    await user.type(within(dialog).getByLabelText(/^Password/), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Anna Berg');
    expect(screen.getByLabelText(/^Email/)).toHaveProperty('value', 'anna@example.com');
    expect(screen.getByRole('group', { name: 'Your session' }).textContent).toContain('olga@example.com');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Anna Berg' })).toBeTruthy();
    const saves = sent.filter((request) => request.method === 'POST' && request.path === '/customers');
    expect(saves.map((request) => request.authorization)).toEqual(['Bearer old-token', 'Bearer new-token']);
    expect(saves[1]?.body).toMatchObject({ name: 'Anna Berg', email: 'anna@example.com', creditLimit: 1500 });
  });

  it('reads again what failed once the person is back', async () => {
    // No retries: only signing in again may read the list again.
    const { sent, user } = renderSignedIn(
      '/customers',
      new QueryClient({ defaultOptions: { queries: { retry: false } } }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Your session has ended' });
    await user.type(within(dialog).getByLabelText(/^Password/), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(
        sent
          .filter((request) => request.method === 'GET' && request.path.startsWith('/customers'))
          .map((request) => request.authorization),
      ).toContain('Bearer new-token'),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Customers' })).toBeTruthy();
  });

  it('lets the dialog be closed without leaving the page, and opened again from the header', async () => {
    const { user } = renderSignedIn('/customers/new');
    await user.type(await screen.findByLabelText(/^Name/), 'Kept');
    await user.type(screen.getByLabelText(/^Email/), 'kept@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'Your session has ended' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Kept');

    // The header's button (the form's error notice offers one too).
    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('dialog', { name: 'Your session has ended' })).toBeTruthy();
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Kept');
  });
});
