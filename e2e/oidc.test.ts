import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { type Browser, launchBrowser, type WatchedPage } from './support/browser';
import { type NinefoldProcess, ROOT, startNinefold } from './support/ninefold';
import {
  type OidcTestProvider,
  PROVIDER_PAGE,
  signInWithoutBrowser,
  startOidcProvider,
} from './support/oidc-provider';

const CLIENT_ID = 'harbor-notes';
const FIXTURE_ISSUER = 'http://127.0.0.1:4399';
const EDITOR = { sub: 'u-editor', email: 'eddie@example.com', name: 'Eddie', roles: ['editor'] };
const READER = { sub: 'u-reader', email: 'rita@example.com', name: 'Rita', roles: ['staff', 'reader'] };
const NOTE_TITLE = 'Harbour opening hours';

let provider: OidcTestProvider;
let server: NinefoldProcess;
let browser: Browser;
let specDir: string;
let callback: string;

beforeAll(async () => {
  provider = await startOidcProvider({ clientId: CLIENT_ID, accounts: [EDITOR, READER] });
  // The fixture names a placeholder issuer; this run's provider is on a port picked just now.
  specDir = mkdtempSync(join(tmpdir(), 'ninefold-oidc-'));
  const spec = join(specDir, 'oidc-shop.yaml');
  const fixture = readFileSync(join(ROOT, 'e2e/fixtures/oidc-shop.yaml'), 'utf8');
  expect(fixture).toContain(`issuer: ${FIXTURE_ISSUER}\n`);
  writeFileSync(spec, fixture.replace(`issuer: ${FIXTURE_ISSUER}\n`, `issuer: ${provider.issuer}\n`));
  [server, browser] = await Promise.all([startNinefold('serve', spec), launchBrowser()]);
  callback = new URL('_/oidc-callback', server.url).href;
  await provider.setRedirectUris([callback]);
});

afterAll(async () => {
  await browser?.close();
  const code = await server?.stop();
  await provider?.stop();
  if (specDir) rmSync(specDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** A token of the provider for a person, got without the browser, to check through the API. */
async function tokenFor(email: string): Promise<string> {
  const tokens = await signInWithoutBrowser(provider, {
    clientId: CLIENT_ID,
    redirectUri: callback,
    email,
    scope: 'openid email profile roles',
  });
  return tokens.accessToken;
}

function api(path: string, token?: string, init: RequestInit = {}): Promise<Response> {
  return fetch(new URL(`api${path}`, server.url), {
    ...init,
    headers: {
      ...(init.headers as Record<string, string> | undefined),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
  });
}

/** What the page sent and logged, to show afterwards that the token was never in a URL or a log line. */
interface Traffic {
  urls: string[];
  logs: string[];
  /** Status and Authorization header of each API call. */
  calls: Array<{ method: string; path: string; status: number; authorization: string | undefined }>;
}

function watchTraffic(page: Page): Traffic {
  const traffic: Traffic = { urls: [], logs: [], calls: [] };
  page.on('request', (request) => traffic.urls.push(request.url()));
  page.on('framenavigated', (frame) => traffic.urls.push(frame.url()));
  page.on('console', (message) => traffic.logs.push(message.text()));
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (!url.href.startsWith(server.url) || !url.pathname.startsWith('/api/')) return;
    traffic.calls.push({
      method: response.request().method(),
      path: `${url.pathname}${url.search}`,
      status: response.status(),
      authorization: (await response.request().headerValue('authorization')) ?? undefined,
    });
  });
  return traffic;
}

/** Signs in from the client's sign-in page through the provider's page, and waits to be back. */
async function signInThroughProvider(page: Page, email: string): Promise<void> {
  await page.goto(`${server.url}notes`);
  const leave = page.getByRole('button', { name: /^Sign in with / });
  await leave.waitFor();
  await leave.click();
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.getByLabel(PROVIDER_PAGE.email).fill(email);
  await page.getByRole('button', { name: PROVIDER_PAGE.submit }).click();
  await page.waitForURL(`${server.url}notes`);
  await page.getByRole('group', { name: 'Your session' }).waitFor();
}

/** The token the page sends, read from its own API calls; never printed. */
function bearerOf(traffic: Traffic): string {
  const sent = traffic.calls.find((call) => call.authorization?.startsWith('Bearer '));
  expect(sent, 'an API call with a Bearer token').toBeDefined();
  return sent?.authorization?.slice('Bearer '.length) ?? '';
}

/** The token appears in no address the page visited or called, no log line, and no storage. */
async function expectTokenKept(page: Page, traffic: Traffic, token: string): Promise<void> {
  expect(token.length).toBeGreaterThan(20);
  // Booleans, so that a failure does not print the token itself.
  expect(traffic.urls.some((url) => url.includes(token))).toBe(false);
  expect(traffic.logs.some((line) => line.includes(token))).toBe(false);
  const storage = await page.evaluate(() => ({
    local: Object.entries(localStorage),
    session: Object.entries(sessionStorage),
  }));
  expect(storage.local).toEqual([]);
  // The specification says `session: memory`: nothing of the sign-in stays in session storage either.
  expect(storage.session.some(([, value]) => value.includes(token))).toBe(false);
  expect(storage.session.map(([key]) => key)).not.toContain('ninefold.oidc.pending');
}

describe('OpenID Connect sign-in against a real provider', () => {
  let editor: WatchedPage;
  beforeAll(async () => {
    editor = await browser.newPage();
  });
  afterAll(() => {
    expect(editor?.problems ?? []).toEqual([]);
  });

  it('signs an editor in at the provider, back to where they were, and the API answers with the token', async () => {
    const { page } = editor;
    const traffic = watchTraffic(page);
    await signInThroughProvider(page, EDITOR.email);
    const session = page.getByRole('group', { name: 'Your session' });
    expect(await session.textContent()).toContain(EDITOR.email);
    expect(await page.getByTestId('session-role').textContent()).toBe('Editor');
    await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
    await screenshot(page, 'oidc-signed-in');

    const listed = traffic.calls.find((call) => call.path.startsWith('/api/notes') && call.method === 'GET');
    expect(listed?.status).toBe(200);
    expect(listed?.authorization).toMatch(/^Bearer \S+$/);
    await expectTokenKept(page, traffic, bearerOf(traffic));
  });

  it('lets the editor write a note, which the API saves as theirs', async () => {
    const { page } = editor;
    await page
      .getByRole('link', { name: /new note/i })
      .first()
      .click();
    await page.waitForURL(`${server.url}notes/new`);
    await page.getByLabel('Title', { exact: false }).fill(NOTE_TITLE);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/notes\/\d+$/);

    const token = await tokenFor(EDITOR.email);
    const answer = await api('/notes', token);
    expect(answer.status).toBe(200);
    const notes = (await answer.json()) as
      | { items?: Array<Record<string, unknown>> }
      | Array<Record<string, unknown>>;
    const items = Array.isArray(notes) ? notes : (notes.items ?? []);
    expect(items).toContainEqual(expect.objectContaining({ title: NOTE_TITLE, authorId: EDITOR.sub }));
  });

  it('signs out: the session leaves the header and the tab forgets the token', async () => {
    const { page } = editor;
    await page.getByRole('group', { name: 'Your session' }).getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('group', { name: 'Your session' }).waitFor({ state: 'detached' });
    await page
      .getByRole('link', { name: 'Sign in' })
      .or(page.getByRole('button', { name: /^Sign in/ }))
      .first()
      .waitFor();
    const storage = await page.evaluate(() => Object.keys(sessionStorage).length + localStorage.length);
    expect(storage).toBe(0);
  });
});

describe('a second role, and what the API refuses', () => {
  it('signs a reader in with their role: they read notes, may not write one, and never see the author', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    const traffic = watchTraffic(page);
    await signInThroughProvider(page, READER.email);
    expect(await page.getByTestId('session-role').textContent()).toBe('Reader');
    await page.getByText(NOTE_TITLE).first().waitFor();
    expect(await page.getByRole('link', { name: /new note/i }).count()).toBe(0);
    await expectTokenKept(page, traffic, bearerOf(traffic));
    await screenshot(page, 'oidc-reader');

    const token = await tokenFor(READER.email);
    const notes = await (await api('/notes', token)).json();
    const items = (Array.isArray(notes) ? notes : notes.items) as Array<Record<string, unknown>>;
    expect(items.length).toBeGreaterThan(0);
    for (const note of items) expect(note).not.toHaveProperty('authorId');
    const write = await api('/notes', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Not mine to write' }),
    });
    expect(write.status).toBe(403);
    expect(watched.problems).toEqual([]);
    await page.close();
  });

  it('refuses the API to a request without a token, with a made-up one, and with an ID token', async () => {
    expect((await api('/notes')).status).toBe(401);
    const made = await api('/notes', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1LWVkaXRvciJ9.');
    expect(made.status).toBe(401);
    expect((await made.json()).code).toBe('INVALID_TOKEN');
    const { idToken } = await signInWithoutBrowser(provider, {
      clientId: CLIENT_ID,
      redirectUri: callback,
      email: EDITOR.email,
      scope: 'openid email roles',
    });
    expect(idToken).toBeDefined();
    const offered = await api('/notes', idToken ?? 'no ID token');
    expect(offered.status).toBe(401);
    expect((await offered.json()).code).toBe('INVALID_TOKEN');
  });

  it('shows a plain failure, with no token, when the provider sends back a sign-in this tab did not start', async () => {
    const watched = await browser.newPage();
    const { page } = watched;
    await page.goto(
      `${callback}?code=forged-code&state=forged-state&iss=${encodeURIComponent(provider.issuer)}`,
    );
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('This sign-in was not started in this tab');
    expect(await page.getByRole('group', { name: 'Your session' }).count()).toBe(0);
    expect(watched.problems).toEqual([]);
    await page.close();
  });
});
