import { MantineProvider } from '@mantine/core';
import type { Model } from '@ninefold/model';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../src/app/App';
import { MemoryRouter, useLocation } from '../src/app/router';
import { SpecProvider } from '../src/app/SpecContext';
import { theme } from '../src/app/theme';
import { ApiError, type ApiFieldError, NetworkError } from '../src/data/data-provider';
import { createMemoryDataProvider } from '../src/data/memory-data-provider';
import { apiErrorFrom } from '../src/data/problem-reader';
import { ErrorNotice, type ErrorNoticeProps } from '../src/errors/ErrorNotice';
import { errorView } from '../src/errors/error-view';
import type { Locale } from '../src/i18n/catalogue';
import { I18nProvider } from '../src/i18n/I18nProvider';
import { SessionProvider } from '../src/session/SessionProvider';
import { createSessionStore, type SessionStore } from '../src/session/session-store';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const api = apiOf(shop);
/** The shop without its catalogue: point 8 not shown. */
const uncatalogued: Model = { ...shop, errors: { shown: false } };

const apiError = (
  status: number,
  more: { code?: string; detail?: string; fieldErrors?: ApiFieldError[]; reference?: string } = {},
) => new ApiError(status, 'Title', more.detail, more.code, undefined, more.fieldErrors ?? [], more.reference);

const outOfStock = () =>
  apiError(422, {
    code: 'VALIDATION_FAILED',
    detail: 'Some values are not valid.',
    fieldErrors: [
      { pointer: '/notes', message: 'At most 2000 characters.', code: 'maxLength' },
      { pointer: '/lines/1/quantity', message: 'Only 3 left.', code: 'OUT_OF_STOCK' },
    ],
  });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('errorView', () => {
  it('takes the catalogue’s message, action and field, and gives the field its message', () => {
    const view = errorView(shop, outOfStock(), 'Order');
    expect(view).toMatchObject({
      message: 'Not enough stock for this product.',
      action: 'fix-field',
      field: '/lines/1/quantity',
    });
    expect(view.fieldErrors).toEqual([
      { pointer: '/notes', message: 'At most 2000 characters.', code: 'maxLength' },
      { pointer: '/lines/1/quantity', message: 'Not enough stock for this product.', code: 'OUT_OF_STOCK' },
    ]);
    expect(view.reference).toBeUndefined();
  });

  it('shows the API’s own words beside an entry that names only a status, not beside a specific one', () => {
    const broad: Model = {
      ...shop,
      errors: {
        shown: true,
        entries: [
          { match: { status: 400 }, message: 'Bad request', action: 'none' },
          { match: { status: 409, code: 'GUARD_FAILED' }, message: 'Not now.', action: 'reload' },
        ],
      },
    };
    // Imported from a document, "Bad request" covers every call; the API says what was wrong with this one.
    expect(errorView(broad, apiError(400, { detail: 'Invalid filter syntax' }))).toMatchObject({
      message: 'Bad request',
      detail: 'Invalid filter syntax',
    });
    expect(
      errorView(broad, apiError(409, { code: 'GUARD_FAILED', detail: 'Add a line first.' })).detail,
    ).toBeUndefined();
  });

  it('keeps a covered server error’s own reference', () => {
    const view = errorView(shop, apiError(503, { reference: 'srv-42' }));
    expect(view).toMatchObject({
      message: 'The server had a problem. Try again in a moment.',
      action: 'retry',
    });
    expect(view.reference).toBe('srv-42');
  });

  it('leads an uncovered refusal with the API’s own explanation, with no reference to quote', () => {
    const error = apiError(409, { code: 'GUARD_FAILED', detail: 'Add at least one line first.' });
    const view = errorView(shop, error, 'Order');
    expect(view).toMatchObject({
      generic: 'conflict',
      action: 'reload',
      message: 'Add at least one line first.',
    });
    expect(view.detail).toBeUndefined();
    expect(view.reference).toBeUndefined();
    for (const status of [403, 422]) {
      expect(
        errorView(uncatalogued, apiError(status, { code: 'SEASON_OVER', detail: 'The season is over.' }))
          .message,
      ).toBe('The season is over.');
    }
  });

  it('gives an unexplained refusal generic words and a reference to quote', () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const error = apiError(409, { code: 'GUARD_FAILED' });
    const view = errorView(shop, error, 'Order');
    expect(view.message).toBeUndefined();
    expect(view).toMatchObject({ generic: 'conflict', action: 'reload' });
    expect(view.reference).toMatch(/^409-[0-9A-HJKMNP-TV-Z]{6}$/);
    // The same failure shown again keeps its reference.
    expect(errorView(shop, error, 'Order').reference).toBe(view.reference);
    expect(errorView(shop, apiError(409, { code: 'OTHER' })).reference).not.toBe(view.reference);
  });

  it('never passes on an uncovered server error’s text, which can hold internals', () => {
    const detail = 'TypeError: cannot read x\n    at handler (/srv/app.js:10:5)';
    const view = errorView(uncatalogued, apiError(500, { detail, reference: 'srv-7' }));
    expect(view).toMatchObject({ generic: 'server', action: 'retry', reference: 'srv-7' });
    expect(view.detail).toBeUndefined();
  });

  it('uses only generic words when point 8 is not shown', () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    expect(errorView(uncatalogued, apiError(404, { code: 'NOT_FOUND' }))).toMatchObject({
      generic: 'notFound',
      action: 'go-back',
    });
    expect(errorView(uncatalogued, outOfStock(), 'Order')).toMatchObject({
      generic: 'invalid',
      action: 'fix-field',
      field: '/notes',
      fieldErrors: outOfStock().fieldErrors,
    });
    expect(errorView(uncatalogued, apiError(401)).action).toBe('sign-in');
    expect(errorView(uncatalogued, apiError(429)).generic).toBe('busy');
    // A key sent again with other values: the first save may have gone through, so no plain "refused".
    expect(errorView(uncatalogued, apiError(422, { code: 'IDEMPOTENCY_KEY_REUSED' }))).toMatchObject({
      generic: 'maybeSaved',
      action: 'none',
    });
  });

  it('calls a network failure what it is, with nothing on a server to refer to', () => {
    expect(errorView(shop, new NetworkError('fetch failed'))).toEqual({
      generic: 'network',
      action: 'retry',
      fieldErrors: [],
    });
  });

  it('treats anything else as a fault of the page: generic words, its details only in the console', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const view = errorView(shop, new TypeError('x is undefined'));
    expect(view).toMatchObject({ generic: 'client', action: 'reload' });
    expect(view.reference).toMatch(/^APP-/);
    expect(JSON.stringify(view)).not.toContain('x is undefined');
    expect(logged).toHaveBeenCalledOnce();
  });
});

/** One notice on a page of a router whose history is `entries`, inside the client's providers. */
function renderNotice(
  props: ErrorNoticeProps,
  options: { model?: Model; session?: SessionStore; entries?: string[]; locale?: Locale } = {},
) {
  const model = options.model ?? shop;
  const entries = options.entries ?? ['/orders/1'];
  const where = { path: '' };
  function Here() {
    where.path = useLocation().pathname;
    return <ErrorNotice {...props} />;
  }
  render(
    <MantineProvider theme={theme}>
      <I18nProvider locale={options.locale ?? 'en'}>
        <QueryClientProvider client={createQueryClient()}>
          <SpecProvider value={{ model, api, data: createMemoryDataProvider(model, api) }}>
            <SessionProvider {...(options.session ? { session: options.session } : {})}>
              <MemoryRouter entries={entries}>
                <Here />
              </MemoryRouter>
            </SessionProvider>
          </SpecProvider>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>,
  );
  return { where, user: userEvent.setup() };
}

describe('ErrorNotice', () => {
  it('shows the catalogue’s message and its retry, with the place’s title', async () => {
    const onRetry = vi.fn();
    const { user } = renderNotice({ error: apiError(502), title: 'The list could not be loaded', onRetry });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The list could not be loaded');
    expect(alert.textContent).toContain('The server had a problem. Try again in a moment.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('offers no retry where the place cannot try again', () => {
    renderNotice({ error: apiError(502) });
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('opens the sign-in dialog for an entry whose action is to sign in', async () => {
    const session = createSessionStore(
      shop,
      { ...api, auth: { session: '/auth/session', signOut: '/auth/sign-out' } },
      {
        storage: null,
      },
    );
    const { user } = renderNotice({ error: apiError(401, { code: 'SESSION_EXPIRED' }) }, { session });
    expect(screen.getByRole('alert').textContent).toContain(
      'Your session has ended. Sign in again; your changes are kept.',
    );
    expect(session.getSnapshot().prompt).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(session.getSnapshot().prompt).toBe(true);
  });

  it('offers no sign-in where there is nothing to sign in to', () => {
    renderNotice({ error: apiError(401) }, { model: { ...shop, roles: { shown: false } } });
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('goes back in the tab’s history, or to the given place when the page was opened directly', async () => {
    const first = renderNotice(
      { error: apiError(404), backTo: '/orders' },
      { entries: ['/dashboard', '/orders/9'] },
    );
    expect(screen.getByRole('alert').textContent).toContain('This record no longer exists.');
    await first.user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(first.where.path).toBe('/dashboard'));
  });

  it('goes to the given place when there is no page before', async () => {
    const { user, where } = renderNotice(
      { error: apiError(404), backTo: '/orders' },
      { entries: ['/orders/9'] },
    );
    await user.click(screen.getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(where.path).toBe('/orders'));
  });

  it('leads to the field the catalogue names', async () => {
    const onFixField = vi.fn();
    const { user } = renderNotice({ error: outOfStock(), entity: 'Order', onFixField });
    expect(screen.getByRole('alert').textContent).toContain('Not enough stock for this product.');
    await user.click(screen.getByRole('button', { name: 'Go to the field' }));
    expect(onFixField).toHaveBeenCalledWith('/lines/1/quantity');
  });

  it('reads the data again for the action reload', async () => {
    const onReload = vi.fn();
    const { user } = renderNotice({ error: apiError(412, { code: 'CHANGED_SINCE_READ' }), onReload });
    expect(screen.getByRole('alert').textContent).toContain(
      'Someone else changed this record while you were editing it.',
    );
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledOnce();
  });

  it('shows an answer it cannot read as generic words and a reference, never its body', () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const html = '<html><body><script>alert(1)</script><h1>Teapot</h1></body></html>';
    renderNotice({ error: apiErrorFrom(418, "I'm a teapot", 'text/html', html) });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The request was refused.');
    expect(alert.textContent).toMatch(/Reference: 418-[0-9A-Z]{6}/);
    expect(alert.textContent).not.toContain('Teapot');
    expect(alert.querySelector('script, h1')).toBeNull();
  });

  it('never shows an uncovered server error’s detail, only its reference', () => {
    renderNotice(
      { error: apiError(500, { detail: 'SqliteError: no such table: orders', reference: 'srv-9' }) },
      { model: uncatalogued },
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The server had a problem. Try again in a moment.');
    expect(alert.textContent).toContain('Reference: srv-9');
    expect(alert.textContent).not.toContain('Sqlite');
  });

  it('says how long a 429 asked to wait', () => {
    renderNotice(
      {
        error: new ApiError(429, 'Too many', undefined, undefined, undefined, [], undefined, {
          retryAfterSeconds: 30,
        }),
      },
      { model: uncatalogued },
    );
    expect(screen.getByRole('alert').textContent).toContain('Wait 30 seconds, then try again.');
  });

  it('uses the place’s words for a network failure, and the generic ones otherwise', () => {
    renderNotice({ error: new NetworkError('fetch failed'), networkMessage: 'Nothing was saved.' });
    expect(screen.getByRole('alert').textContent).toContain('Nothing was saved.');
    expect(screen.getByRole('alert').textContent).not.toContain('fetch failed');
  });

  it('speaks the person’s language where the catalogue does not cover the failure', () => {
    renderNotice({ error: new NetworkError('offline') }, { locale: 'fr' });
    expect(screen.getByRole('alert').textContent).toContain('Le serveur est injoignable.');
  });
});
