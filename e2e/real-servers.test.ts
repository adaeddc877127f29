import { createServer, request as httpRequest, type Server } from 'node:http';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser, type WatchedPage } from './support/browser';
import { deleteNow } from './support/delete';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import {
  api,
  DIRECTUS_ADMIN,
  DIRECTUS_TOKEN_SECONDS,
  type RealServer,
  startDirectus,
  startPlatformatic,
} from './support/real-servers';

// Clients imported from the OpenAPI descriptions two real servers publish of themselves, with no hand
// edits, used in Chromium through `ninefold dev DOC --api URL` (issue 39). Every write is checked through
// the server's own API: stored once, as typed, and no other record changed. Neither server is a mock:
// Platformatic DB (database-first REST) and Directus (a headless CMS), each a real process on its own
// temporary PostgreSQL database.

let browser: Browser;
let platformatic: RealServer;
let directus: RealServer;
let plain: NinefoldProcess;
let cms: NinefoldProcess;

beforeAll(async () => {
  [browser, platformatic, directus] = await Promise.all([
    launchBrowser(),
    startPlatformatic(),
    startDirectus(),
  ]);
  for (const supplier of [
    { name: 'Acme Bolts', email: 'sales@acme.test', rating: 4 },
    { name: 'Birch Gears', email: 'hello@birch.test', rating: 2 },
    { name: 'Cobalt Springs', rating: 5 },
  ])
    await api(platformatic, 'POST', '/suppliers/', supplier);
  await api(platformatic, 'POST', '/parts/', { name: 'M8 bolt', price: 0.25, supplierId: 1, stock: 100 });
  await api(directus, 'POST', '/items/events', {
    title: 'Spring fair',
    places: 40,
    starts_on: '2027-04-01',
    published: true,
  });
  await api(directus, 'POST', '/items/events', { title: 'Autumn walk', places: 12, published: false });
  await api(directus, 'POST', '/items/signups', { name: 'Ada Byron', email: 'ada@example.com', event: 1 });
  [plain, cms] = await Promise.all([
    startNinefold('dev', platformatic.document, ['--api', platformatic.url]),
    startNinefold('dev', directus.document, ['--api', directus.url]),
  ]);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([plain?.stop(), cms?.stop()]);
  await Promise.all([platformatic?.stop(), directus?.stop()]);
});

interface Supplier {
  id: number;
  name: string;
  email: string | null;
  rating: number | null;
}

/** Requests the page sent to the dev server's /api/, by method. */
function recordRequests(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) sent.push(request);
  });
  return sent;
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await screenshot(page, name);
}

describe('Platformatic DB, as imported from its own description', () => {
  let watched: WatchedPage;
  beforeAll(async () => {
    watched = await browser.newPage();
  });
  afterAll(() => {
    // The one 500 is the database refusing a negative price, which the test asks for.
    expect((watched?.problems ?? []).filter((problem) => !problem.includes('status of 500'))).toEqual([]);
  });

  it('lists the suppliers, sorts and filters them as the server takes it, and opens one', async () => {
    const { page } = watched;
    const requests = recordRequests(page);
    await page.goto(`${plain.url}suppliers`);
    await page.getByRole('row', { name: /Cobalt Springs/ }).waitFor();
    expect(await page.getByRole('row').count()).toBe(4);
    await expectAccessible(page, 'real-platformatic-list');

    await page.getByRole('columnheader', { name: /^Name/ }).getByRole('button').click();
    await page.waitForURL(/sort=name/);
    await page.getByRole('columnheader', { name: /^Name/ }).getByRole('button').click();
    await page.waitForURL(/sort=-name/);
    await expect
      .poll(async () => (await page.getByRole('row').nth(1).textContent()) ?? '')
      .toContain('Cobalt Springs');
    expect(requests.some((sent) => new URL(sent.url()).searchParams.get('orderby.name') === 'desc')).toBe(
      true,
    );

    await page.getByLabel('Name', { exact: true }).fill('Birch Gears');
    await expect.poll(() => page.getByRole('row').count(), { timeout: 10_000 }).toBe(2);
    expect(
      requests.some((sent) => new URL(sent.url()).searchParams.get('where.name.eq') === 'Birch Gears'),
    ).toBe(true);

    // On a phone, as a person opens it there.
    const phone = await browser.newPage({ width: 360, height: 740 });
    await phone.page.goto(`${plain.url}suppliers`);
    await phone.page.getByText('Cobalt Springs').first().waitFor();
    await expectAccessible(phone.page, 'real-platformatic-list-360');
    expect(phone.problems).toEqual([]);
    await phone.page.close();

    await page.getByRole('link', { name: 'Birch Gears' }).click();
    await page.waitForURL(/\/suppliers\/2$/);
    await page.getByRole('heading', { name: 'Birch Gears' }).waitFor();
    expect(await page.getByText('hello@birch.test').count()).toBeGreaterThan(0);
  });

  it('creates a supplier once, edits it with the whole record its PUT asks for, and deletes it', async () => {
    const { page } = watched;
    const requests = recordRequests(page);
    const before = await api<Supplier[]>(platformatic, 'GET', '/suppliers/?limit=100');
    await page.goto(`${plain.url}suppliers/new`);
    await page.getByLabel('Name', { exact: false }).fill('Delta Nuts');
    await page.getByLabel('Email', { exact: false }).fill('orders@delta.test');
    await page.getByLabel('Rating', { exact: false }).fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/suppliers\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: 'Delta Nuts' }).waitFor();

    const afterCreate = await api<Supplier[]>(platformatic, 'GET', '/suppliers/?limit=100');
    expect(afterCreate.filter((supplier) => supplier.name === 'Delta Nuts')).toEqual([
      { id, name: 'Delta Nuts', email: 'orders@delta.test', rating: 3 },
    ]);
    expect(afterCreate.filter((supplier) => supplier.id !== id)).toEqual(before);

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${plain.url}suppliers/${id}/edit`);
    await page.getByLabel('Rating', { exact: false }).fill('4');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${plain.url}suppliers/${id}`);
    expect(await api<Supplier>(platformatic, 'GET', `/suppliers/${id}`)).toEqual({
      id,
      name: 'Delta Nuts',
      email: 'orders@delta.test',
      rating: 4,
    });
    expect(
      (await api<Supplier[]>(platformatic, 'GET', '/suppliers/?limit=100')).filter((s) => s.id !== id),
    ).toEqual(before);

    await page.getByRole('button', { name: 'Delete' }).click();
    await deleteNow(page);
    await expect
      .poll(async () => (await api<Supplier[]>(platformatic, 'GET', '/suppliers/?limit=100')).length, {
        timeout: 15_000,
      })
      .toBe(before.length);
    expect(await api<Supplier[]>(platformatic, 'GET', '/suppliers/?limit=100')).toEqual(before);

    // One record's writes only ever went to its own item path, never to the collection's bulk calls.
    const writes = requests
      .filter((sent) => sent.method() !== 'GET')
      .map((sent) => `${sent.method()} ${new URL(sent.url()).pathname}`);
    expect(writes).toEqual([
      'POST /api/suppliers/',
      `PUT /api/suppliers/${id}`,
      `DELETE /api/suppliers/${id}`,
    ]);
  });

  it('creates a part for a supplier chosen by name in the picker (a reference from the document’s links)', async () => {
    const { page } = watched;
    await page.goto(`${plain.url}parts/new`);
    await page.getByLabel('Name', { exact: false }).fill('Spring washer');
    await page.getByLabel('Price', { exact: false }).fill('0.05');
    await page.getByLabel('Stock', { exact: false }).fill('500');
    const picker = page.getByRole('combobox', { name: 'Supplier id' });
    await picker.click();
    // Part of a name finds it: the server's own LIKE, between its `%` wildcards.
    const searched = page.waitForRequest(
      (sent) => new URL(sent.url()).searchParams.get('where.name.like') === '%Cobalt%',
    );
    await picker.fill('Cobalt');
    await searched;
    await page.getByRole('option', { name: 'Cobalt Springs' }).click();
    await expectAccessible(page, 'real-platformatic-create');
    // A rule only the database knows: its words are shown, with no "Try again" that would fail the same.
    const price = page.getByLabel('Price', { exact: false });
    await price.fill('-1');
    await page.getByRole('button', { name: 'Save' }).click();
    // PostgreSQL's own words, as Platformatic passes them on.
    await page
      .getByText(/violates check constraint "parts_price_check"/)
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await screenshot(page, 'real-platformatic-refused');
    expect(
      (await api<Array<{ name: string }>>(platformatic, 'GET', '/parts/?limit=100')).filter(
        (part) => part.name === 'Spring washer',
      ),
    ).toEqual([]);
    await price.fill('0.05');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/parts\/\d+$/);
    const parts = await api<Array<{ name: string; supplierId: number; price: number; stock: number }>>(
      platformatic,
      'GET',
      '/parts/?limit=100',
    );
    expect(parts.filter((part) => part.name === 'Spring washer')).toEqual([
      expect.objectContaining({ name: 'Spring washer', supplierId: 3, price: 0.05, stock: 500 }),
    ]);
    // The detail names the supplier, and links to it.
    await page.getByRole('link', { name: 'Cobalt Springs' }).waitFor();
  });
});

/**
 * A proxy in front of a real server that does each create it is sent, then loses the answer: it drops the
 * connection, or holds the answer past the client's patience. The write is done exactly once either way.
 */
function losingProxy(
  target: string,
  mode: () => 'drop' | 'slow' | 'pass',
  held: () => void,
): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: upstream.host },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const how = incoming.method === 'POST' ? mode() : 'pass';
          if (how === 'drop') {
            incoming.socket.destroy();
            return;
          }
          const send = () => {
            if (outgoing.destroyed) return;
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            outgoing.end(Buffer.concat(chunks));
          };
          if (how === 'slow') {
            setTimeout(send, 35_000).unref();
            held();
          } else send();
        });
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
        server,
      });
    });
  });
}

describe('a create whose answer is lost, behind a real server', () => {
  let proxy: { url: string; server: Server };
  let lossy: NinefoldProcess;
  let how: 'drop' | 'slow' | 'pass' = 'pass';
  let answerHeld = () => {};
  beforeAll(async () => {
    proxy = await losingProxy(
      platformatic.url,
      () => how,
      () => answerHeld(),
    );
    lossy = await startNinefold('dev', platformatic.document, ['--api', proxy.url]);
  });
  afterAll(async () => {
    await lossy?.stop();
    proxy?.server.close();
  });

  for (const mode of ['drop', 'slow'] as const) {
    it(`is stored exactly once, and the screen says it may have been saved (${mode === 'drop' ? 'connection dropped' : 'answer after 35 s'})`, async () => {
      const watched = await browser.newPage();
      const { page } = watched;
      const requests = recordRequests(page);
      const name = `Lost answer ${mode}`;
      how = mode;
      // The page's clock is Playwright's, so that the client's 30 s of patience pass in an instant once
      // the server has done the create and the proxy holds its answer (waiting them out was 30 s of the
      // suite). AbortSignal.timeout, which the client's patience is, runs on that clock too.
      await page.clock.install();
      const held = new Promise<void>((resolve) => {
        answerHeld = resolve;
      });
      try {
        await page.goto(`${lossy.url}suppliers/new`);
        await page.getByLabel('Name', { exact: false }).fill(name);
        await page.getByRole('button', { name: 'Save' }).click();
        if (mode === 'slow') {
          await held;
          await page.clock.fastForward(31_000);
        }
        await page
          .getByText('No answer came back, so this may or may not have been saved.')
          .waitFor({ timeout: 15_000 });
        await page.getByRole('link', { name: 'Look in the list' }).waitFor();
        await screenshot(page, `real-platformatic-unconfirmed-${mode}`);
      } finally {
        how = 'pass';
      }
      const stored = (await api<Supplier[]>(platformatic, 'GET', '/suppliers/?limit=100')).filter(
        (s) => s.name === name,
      );
      expect(stored).toHaveLength(1);
      // Sent once, with no key the server never declared, and never again by itself.
      const posts = requests.filter((sent) => sent.method() === 'POST');
      expect(posts).toHaveLength(1);
      expect(posts[0]?.headers()['idempotency-key']).toBeUndefined();
      await page.getByRole('link', { name: 'Look in the list' }).click();
      await page.getByRole('row', { name: new RegExp(name) }).waitFor();
      await page.close();
      // The dev proxy answers the dropped connection with a 502, which Chromium logs; nothing else failed.
      expect(watched.problems.filter((problem) => !problem.includes('status of 502'))).toEqual([]);
    });
  }
});

interface EventRecord {
  id: number;
  title: string;
  places: number | null;
  starts_on: string | null;
  published: boolean | number | null;
}

describe('Directus, as imported from its own description', () => {
  let watched: WatchedPage;
  beforeAll(async () => {
    watched = await browser.newPage();
  });

  it('signs in through the document’s own login call and lists the events', async () => {
    const { page } = watched;
    await page.goto(`${cms.url}items/events`);
    // Directus answers 403 to someone signed out; the page offers to sign in.
    await page.getByText('You don\'t have permission to access collection "events"').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(DIRECTUS_ADMIN.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(DIRECTUS_ADMIN.password);
    await page.getByRole('dialog').getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('row', { name: /Spring fair/ }).waitFor();
    expect(await page.getByRole('row').count()).toBe(3);
    await expectAccessible(page, 'real-directus-list');
  });

  it('stays signed in past the token’s life, renewed through the document’s refresh call', async () => {
    const { page } = watched;
    const requests = recordRequests(page);
    // Directus's tokens last DIRECTUS_TOKEN_SECONDS here; the client renews one at half its life.
    await page.waitForTimeout((DIRECTUS_TOKEN_SECONDS + 2) * 1000);
    await page.getByRole('link', { name: 'Signups' }).click();
    await page.getByRole('row', { name: /Ada Byron/ }).waitFor();
    const refreshes = requests.filter((sent) => new URL(sent.url()).pathname === '/api/auth/refresh');
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(refreshes[0]?.postDataJSON()).toEqual({ refresh_token: expect.any(String) });
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('row', { name: /Spring fair/ }).waitFor();
  });

  it('puts the server’s own validation message on its field, then creates the event once', async () => {
    const { page } = watched;
    const before = (await api<{ data: EventRecord[] }>(directus, 'GET', '/items/events')).data;
    await page.getByRole('link', { name: /New Items events/ }).click();
    await page.getByLabel('Title', { exact: false }).fill('Winter market');
    const places = page.getByLabel('Places', { exact: false });
    await places.fill('70');
    await page.getByRole('button', { name: 'Save' }).click();
    // Directus's own words, from its `errors[].extensions.field`.
    const refusal = 'Validation failed for field "places". Value has to be less than or equal to "60".';
    await page.getByText(refusal).first().waitFor();
    expect(await places.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'real-directus-refused');
    expect((await api<{ data: EventRecord[] }>(directus, 'GET', '/items/events')).data).toEqual(before);

    await places.fill('50');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/items\/events\/\d+$/);
    const after = (await api<{ data: EventRecord[] }>(directus, 'GET', '/items/events')).data;
    expect(after.filter((event) => event.title === 'Winter market')).toEqual([
      expect.objectContaining({ title: 'Winter market', places: 50 }),
    ]);
    expect(after.filter((event) => event.title !== 'Winter market')).toEqual(before);
  });

  it('edits one field of a signup with PATCH, and its event is a picker over the events', async () => {
    const { page } = watched;
    await page.getByRole('link', { name: 'Signups' }).click();
    await page.getByRole('row', { name: /Ada Byron/ }).waitFor();
    await page.getByRole('link', { name: 'Ada Byron' }).click();
    await page.getByRole('link', { name: 'Spring fair' }).waitFor();
    await page.getByRole('link', { name: 'Edit' }).click();
    const picker = page.getByRole('combobox', { name: 'Event' });
    await picker.click();
    // Typed words go to the list's own search, so a record past the first page is found too.
    const searched = page.waitForRequest(
      (sent) => new URL(sent.url()).searchParams.get('search') === 'Autumn',
    );
    await picker.fill('Autumn');
    await searched;
    await page.getByRole('option', { name: 'Autumn walk' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Autumn walk' }).waitFor();
    const signups = (
      await api<{ data: Array<{ id: number; name: string; email: string; event: number }> }>(
        directus,
        'GET',
        '/items/signups',
      )
    ).data;
    expect(signups).toEqual([{ id: 1, name: 'Ada Byron', email: 'ada@example.com', event: 2 }]);
  });

  it('deletes an event at its own path only', async () => {
    const { page } = watched;
    const requests = recordRequests(page);
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('link', { name: 'Winter market' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await deleteNow(page);
    await expect
      .poll(async () => (await api<{ data: EventRecord[] }>(directus, 'GET', '/items/events')).data.length, {
        timeout: 15_000,
      })
      .toBe(2);
    const deletes = requests
      .filter((sent) => sent.method() === 'DELETE')
      .map((sent) => new URL(sent.url()).pathname);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).toMatch(/^\/api\/items\/events\/\d+$/);
    // Directus's 403s before signing in, and its 400 refusing 70 places, are its answers, not faults.
    expect(watched.problems.filter((problem) => !/status of (403|400)/.test(problem))).toEqual([]);
  });
});
