import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadSpec, type Model } from '@ninefold/model';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import toolLibrary from '../../../test/fixtures/extension/tool-library.ui';
import { setBasename } from '../src/app/base-path';
import { NinefoldApp } from '../src/library/NinefoldApp';
import { oidcRedirectUri } from '../src/session/SignInForm';

// <NinefoldApp> as an app mounts it (@ninefold/react): the tool library below /admin, its calls made with
// the page's fetch, the extension given as a prop.
const FILE = resolve(import.meta.dirname, '../../../test/fixtures/extension/tool-library.yaml');
const model = loadSpec(readFileSync(FILE, 'utf8'), { file: FILE }).model as Model;
/** The same library open to anyone: no sign-in, every entity readable. */
const open: Model = { ...model, roles: { shown: false, reason: 'open to everyone' } } as Model;

const TOOLS = [
  { id: 1, name: 'Hammer drill', condition: 'good', rating: 4 },
  { id: 2, name: 'Ladder', condition: 'broken', rating: 2 },
];

/** The page's fetch, answering the list of tools and keeping what was asked. */
function stubApi(): string[] {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = String(input);
    asked.push(url);
    if (new URL(url, window.location.origin).pathname === '/api/tools') {
      return new Response(JSON.stringify(TOOLS), { headers: { 'content-type': 'application/json' } });
    }
    return new Response(JSON.stringify({ title: 'Not Found', status: 404 }), {
      status: 404,
      headers: { 'content-type': 'application/problem+json' },
    });
  });
  return asked;
}

afterEach(() => {
  // Unmounted first: a client still mounted would make its next call with the real fetch.
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
  setBasename(undefined);
});

describe('<NinefoldApp> in an app of its own', () => {
  it("draws the screen at the address below its base, with the extension's widget and links below the base", async () => {
    const asked = stubApi();
    window.history.replaceState(null, '', '/admin/tools');
    render(<NinefoldApp model={open} extensions={toolLibrary} basename="/admin" locale="en" />);
    const table = await screen.findByRole('table', { name: 'Tools' });
    await within(table).findByText('Hammer drill');
    // Tool.rating is drawn by the extension's `stars` widget.
    expect(within(table).getByRole('img', { name: '4 of 5 stars' })).toBeTruthy();
    // The client's own links are the app's addresses below /admin.
    const link = within(table).getByRole('link', { name: 'Hammer drill' });
    expect(link.getAttribute('href')).toBe('/admin/tools/1');
    // Its calls went to the spec's API, not below the app's base.
    expect(asked.some((url) => new URL(url, window.location.origin).pathname === '/api/tools')).toBe(true);
  });

  it('sends a person who must sign in to its sign-in page below its base, and back after', async () => {
    stubApi();
    window.history.replaceState(null, '', '/admin/tools');
    render(<NinefoldApp model={model} extensions={toolLibrary} basename="/admin/" locale="en" />);
    await screen.findByRole('button', { name: 'Sign in' });
    await waitFor(() => expect(window.location.pathname).toBe('/admin/sign-in'));
    expect(new URLSearchParams(window.location.search).get('next')).toBe('/tools');
    // A provider's sign-in would come back to the client's own callback, below the base too.
    expect(oidcRedirectUri()).toBe(`${window.location.origin}/admin/_/oidc-callback`);
  });

  it('sets the brand on the page while it is mounted, and takes it off when it goes', async () => {
    stubApi();
    window.history.replaceState(null, '', '/admin/tools');
    const view = render(<NinefoldApp model={open} extensions={toolLibrary} basename="/admin" locale="en" />);
    await screen.findByRole('table', { name: 'Tools' });
    const root = document.documentElement;
    expect(root.style.getPropertyValue('--mantine-primary-color-filled')).toBe('#2b8a3e');
    view.unmount();
    expect(root.style.getPropertyValue('--mantine-primary-color-filled')).toBe('');
  });

  it('says why it runs without an extension that is not one, and still draws the screens', async () => {
    stubApi();
    window.history.replaceState(null, '', '/admin/tools');
    const wrong = { widgets: {} } as unknown as Parameters<typeof NinefoldApp>[0]['extensions'];
    render(<NinefoldApp model={open} extensions={wrong} basename="/admin" locale="en" />);
    const table = await screen.findByRole('table', { name: 'Tools' });
    await within(table).findByText('Hammer drill');
    expect(within(table).queryByRole('img', { name: '4 of 5 stars' })).toBeNull();
    expect((await screen.findByRole('alert')).textContent).toMatch(/widgets/);
  });
});
