import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { description } from './support/described-by';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, demoPassword, signInAs } from './support/sign-in';

type Api = (path: string, init?: RequestInit) => Promise<Response>;
type ApiRecord = Record<string, unknown> & { id: number };

let browser: Browser;
let server: NinefoldProcess;
let owner: Api;
let clerk: Api;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '47']),
  ]);
  owner = await apiAs(server, 'owner');
  clerk = await apiAs(server, 'clerk');
  // The orders below use the first product and customer by name: plenty of stock and no credit limit,
  // except where a test asks for less.
  const product = await first(owner, '/products?sort=name&limit=1');
  await changeAs(owner, `/products/${product.id}`, { stock: 100000 });
  const customer = await first(owner, '/customers?sort=name&limit=1');
  await changeAs(owner, `/customers/${customer.id}`, { creditLimit: null });
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

// ------------------------------------------------------------------------------------------ helpers

/**
 * What went wrong in a page besides the answers a test provokes on purpose: Chromium logs every failed
 * request as a console error, so a test that asks for a 401 says which statuses it expects to see.
 */
function unexpected(problems: string[], expected: Array<number | string> = []): string[] {
  return problems.filter(
    (problem) =>
      !expected.some((status) =>
        typeof status === 'number'
          ? problem.includes(`the server responded with a status of ${status} `)
          : problem.includes(status),
      ),
  );
}

async function json<T = ApiRecord>(answer: Promise<Response>): Promise<T> {
  const response = await answer;
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function first(api: Api, path: string): Promise<ApiRecord> {
  const found = (await json<{ items: ApiRecord[] }>(api(path))).items[0];
  if (!found) throw new Error(`nothing at ${path}`);
  return found;
}

async function statusOf(id: number): Promise<unknown> {
  return (await json(owner(`/orders/${id}`))).status;
}

/** A draft order created through the API (as the clerk by default, who then owns it). */
async function draftOrder(
  customer: number,
  lines: Array<{ product: number; quantity: number; unitPrice: number }>,
  as: Api = clerk,
): Promise<ApiRecord> {
  return json(
    as('/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        customer,
        shippingAddress: { street: '4 Harbour Row', city: 'Leith', postcode: 'EH6 6LX' },
        lines,
      }),
    }),
  );
}

/** A change made through the API as someone else would, on the version read just before. */
async function changeAs(api: Api, path: string, values: Record<string, unknown>): Promise<ApiRecord> {
  const read = await api(path);
  const etag = read.headers.get('etag');
  if (!read.ok || !etag) throw new Error(`${path} answered ${read.status} with no ETag`);
  return json(
    api(path, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify(values),
    }),
  );
}

/** Every customer with this email, over all pages: what a double save would leave two of. */
async function customersWithEmail(email: string): Promise<ApiRecord[]> {
  const found: ApiRecord[] = [];
  for (let page = 1; ; page++) {
    const { items } = await json<{ items: ApiRecord[] }>(owner(`/customers?limit=100&page=${page}`));
    found.push(...items.filter((item) => item.email === email));
    if (items.length < 100) return found;
  }
}

/** The record's state as its badge beside the title says it. */
function badge(page: Page, label: string): Locator {
  return page.getByRole('heading', { level: 1 }).locator('..').getByText(label, { exact: true });
}

function transitions(page: Page): Locator {
  return page.getByRole('group', { name: 'Change the state' });
}

async function isFocused(element: Locator): Promise<boolean> {
  return element.evaluate((node) => node === document.activeElement || node.contains(document.activeElement));
}

/** The session token the page holds, to end that session on the server as "signed out elsewhere" does. */
async function endSessionOf(page: Page): Promise<void> {
  const token = await page.evaluate(() => {
    const key = Object.keys(sessionStorage).find((k) => k.startsWith('ninefold.session'));
    return key ? JSON.parse(sessionStorage.getItem(key) ?? '{}').credentials?.token : undefined;
  });
  expect(typeof token).toBe('string');
  const ended = await fetch(new URL('api/auth/sign-out', server.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(ended.status).toBe(204);
}

/** Opens a searchable select, types part of a name and picks the matching option, as a person does. */
async function choose(page: Page, select: Locator, name: string): Promise<void> {
  await select.click();
  await select.fill(name.slice(0, 4));
  await page.getByRole('option', { name }).click();
}

/** Fills the new order form with one line, as a clerk does. */
async function fillOrder(page: Page, values: { quantity: number; unitPrice: number }): Promise<void> {
  const customer = await first(owner, '/customers?sort=name&limit=1');
  const product = await first(owner, '/products?sort=name&limit=1');
  await page.goto(`${server.url}orders/new`);
  await choose(page, page.getByRole('combobox', { name: /^Customer/ }), String(customer.name));
  const address = page.getByRole('group', { name: /^Ship to/ });
  await address.getByLabel(/^Street/).fill('4 Harbour Row');
  await address.getByLabel(/^Postcode/).fill('EH6 6LX');
  await page.getByRole('button', { name: 'Add order line' }).click();
  const line = page.getByRole('group', { name: 'Order line 1' });
  await choose(page, line.getByRole('combobox', { name: /^Product/ }), String(product.name));
  await line.getByLabel(/^Quantity/).fill(String(values.quantity));
  await line.getByLabel(/^Unit price/).fill(String(values.unitPrice));
}

/** Fills the new customer form with fixed values. */
async function fillCustomer(page: Page, name: string, email: string): Promise<void> {
  await page.goto(`${server.url}customers/new`);
  await page.getByLabel('Name', { exact: false }).first().fill(name);
  await page.getByLabel('Email', { exact: false }).fill(email);
  await page.getByLabel('Credit limit', { exact: false }).fill('3200');
}

function isPost(request: Request, path: string): boolean {
  return request.method() === 'POST' && new URL(request.url()).pathname === path;
}

const problem = (status: number, body: Record<string, unknown>) => ({
  status,
  contentType: 'application/problem+json',
  body: JSON.stringify({ status, ...body }),
});

// ------------------------------------------------------------------------------------------ tests

describe('the rich example’s state machine, walked through by two roles', () => {
  it('takes an order from draft to delivered as the clerk and the warehouse, with the diagram and the history; the clerk cancels another after confirming', async () => {
    const customer = await first(owner, '/customers?sort=name&limit=1');
    const product = await first(owner, '/products?sort=name&limit=1');
    const lines = [{ product: product.id, quantity: 2, unitPrice: 19.5 }];
    const order = await draftOrder(customer.id, lines);
    const other = await draftOrder(customer.id, lines);
    expect(order.status).toBe('draft');

    const counter = await browser.newPage({ width: 1280, height: 1000 });
    await signInAs(counter.page, server, 'clerk');
    const { page } = counter;
    await page.goto(`${server.url}orders/${order.id}`);
    await badge(page, 'Draft').waitFor();

    await transitions(page).getByRole('button', { name: 'Place order' }).click();
    await badge(page, 'Placed').waitFor();
    expect(await statusOf(order.id)).toBe('placed');
    await transitions(page).getByRole('button', { name: 'Mark as paid' }).click();
    await badge(page, 'Paid').waitFor();
    expect(await statusOf(order.id)).toBe('paid');

    const warehouse = await browser.newPage({ width: 1280, height: 1000 });
    await signInAs(warehouse.page, server, 'warehouse');
    const shipping = warehouse.page;
    await shipping.goto(`${server.url}orders/${order.id}`);
    await badge(shipping, 'Paid').waitFor();
    await transitions(shipping).getByRole('button', { name: 'Ship' }).click();
    await badge(shipping, 'Shipped').waitFor();
    expect(await statusOf(order.id)).toBe('shipped');
    await transitions(shipping).getByRole('button', { name: 'Confirm delivery' }).click();
    await badge(shipping, 'Delivered').waitFor();
    expect(await statusOf(order.id)).toBe('delivered');

    // The diagram names the state the order is in now, for eyes (outline) and screen readers (description).
    const diagram = shipping.getByRole('img', { name: 'States of Order' });
    await diagram.waitFor();
    await expect.poll(() => description(shipping, diagram)).toContain('Current state: Delivered.');
    expect(await diagram.locator('[data-current="true"]').getAttribute('data-state')).toBe('delivered');

    // Every step, newest first. The warehouse may only read orders, so it is not told who took each
    // step (point 6: only a role that may change the record learns who worked on it).
    const history = shipping.getByRole('region', { name: 'History' });
    await history.getByRole('listitem').nth(3).waitFor();
    const steps = await history.getByRole('listitem').allTextContents();
    expect(steps).toHaveLength(4);
    const expected = [
      ['Confirm delivery: Shipped to Delivered', 'by warehouse@demo.test'],
      ['Ship: Paid to Shipped', 'by warehouse@demo.test'],
      ['Mark as paid: Placed to Paid', 'by clerk@demo.test'],
      ['Place order: Draft to Placed', 'by clerk@demo.test'],
    ];
    expected.forEach(([step], index) => {
      expect(steps[index]).toContain(step);
      expect(steps[index]).not.toMatch(/ by |without sign-in/);
    });
    // The clerk, who may change a placed order, sees the same steps with who took each.
    await page.goto(`${server.url}orders/${order.id}`);
    const clerkHistory = page.getByRole('region', { name: 'History' });
    await clerkHistory.getByRole('listitem').nth(3).waitFor();
    const named = await clerkHistory.getByRole('listitem').allTextContents();
    expected.forEach(([step, who], index) => {
      expect(named[index]).toContain(step);
      expect(named[index]).toContain(who);
    });
    const recorded = await json<{ items: Array<{ transition: string; by: { email: string } }> }>(
      owner(`/_history/Order/${order.id}`),
    );
    expect(recorded.items.map((item) => [item.transition, item.by.email])).toEqual([
      ['deliver', 'warehouse@demo.test'],
      ['ship', 'warehouse@demo.test'],
      ['pay', 'clerk@demo.test'],
      ['place', 'clerk@demo.test'],
    ]);
    expect.soft(await seriousViolations(shipping)).toEqual([]);
    await screenshot(shipping, 'resilience-delivered');

    // Cancelling asks first; going back changes nothing.
    await page.goto(`${server.url}orders/${other.id}`);
    await badge(page, 'Draft').waitFor();
    await transitions(page).getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel order?' });
    await dialog.getByText('Cancel this order? This cannot be undone.').waitFor();
    expect.soft(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'resilience-cancel-confirm');
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await statusOf(other.id)).toBe('draft');
    await transitions(page).getByRole('button', { name: 'Cancel order' }).click();
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await badge(page, 'Cancelled').waitFor();
    expect(await statusOf(other.id)).toBe('cancelled');

    expect(counter.problems).toEqual([]);
    expect(warehouse.problems).toEqual([]);
    await page.close();
    await shipping.close();
  });
});

describe('every entry of the shop’s error catalogue, triggered in the client', () => {
  it('401: a session ended elsewhere shows the catalogue’s message and a sign-in, and keeps what was typed', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    const customer = await first(owner, '/customers?sort=-creditLimit&limit=1');
    await page.goto(`${server.url}customers/${customer.id}/edit`);
    const limit = page.getByLabel('Credit limit', { exact: false });
    await limit.waitFor();
    await limit.fill('4321');
    await endSessionOf(page);

    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const alert = page.getByRole('alert').filter({ hasText: 'Your session has ended.' });
    await alert.getByText('Your session has ended. Sign in again; your changes are kept.').waitFor();
    await screenshot(page, 'resilience-401');
    await alert.getByRole('button', { name: 'Sign in' }).click();
    await dialog.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(server));
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'hidden' });

    expect(await limit.inputValue()).toContain('4321');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.url}customers/${customer.id}`);
    expect((await json(owner(`/customers/${customer.id}`))).creditLimit).toBe(4321);
    expect(unexpected(problems, [401])).toEqual([]);
    await page.close();
  });

  it('404: an order moved out of the customer’s reach reads as gone, as a record that does not exist', async () => {
    // The API answers a record the role may not read as missing (404), never 403: ids cannot be counted.
    const signedIn = await json<{ user: { customerId: number } }>(
      fetch(new URL('api/auth/sign-in', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'customer@demo.test', password: demoPassword(server) }),
      }),
    );
    const mine = signedIn.user.customerId;
    const someoneElse = await first(owner, '/customers?sort=-name&limit=1');
    expect(someoneElse.id).not.toBe(mine);
    const product = await first(owner, '/products?sort=name&limit=1');
    const order = await draftOrder(mine, [{ product: product.id, quantity: 1, unitPrice: 5 }], owner);

    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'customer');
    await page.goto(`${server.url}orders`);
    await page.getByRole('table').waitFor();
    await page.goto(`${server.url}orders/${order.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await changeAs(owner, `/orders/${order.id}`, { customer: someoneElse.id });

    await page.reload();
    await page.getByText('This record no longer exists.').waitFor();
    expect(await page.getByText('Your role may not do this.').count()).toBe(0);
    expect.soft(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'resilience-out-of-reach');
    await page.getByRole('link', { name: 'Back to Orders' }).click();
    await page.waitForURL(`${server.url}orders`);
    expect(unexpected(problems, [404])).toEqual([]);
    await page.close();
  });

  it('404: a record that does not exist shows the catalogue’s message and the way back', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    await page.goto(`${server.url}orders/999999`);
    await page.getByText('This record no longer exists.').waitFor();
    expect.soft(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'resilience-404');
    await page.getByRole('link', { name: 'Back to Orders' }).click();
    await page.waitForURL(`${server.url}orders`);
    expect(unexpected(problems, [404])).toEqual([]);
    await page.close();
  });

  it('409 ILLEGAL_TRANSITION: paying an order someone else paid meanwhile says it moved on, and Reload shows it', async () => {
    const customer = await first(owner, '/customers?sort=name&limit=1');
    const product = await first(owner, '/products?sort=name&limit=1');
    const order = await draftOrder(customer.id, [{ product: product.id, quantity: 1, unitPrice: 8 }]);
    await json(clerk(`/orders/${order.id}/place`, { method: 'POST' }));

    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    await page.goto(`${server.url}orders/${order.id}`);
    await badge(page, 'Placed').waitFor();
    await json(owner(`/orders/${order.id}/pay`, { method: 'POST' }));

    const answered = page.waitForResponse((response) => response.url().endsWith(`/orders/${order.id}/pay`));
    await transitions(page).getByRole('button', { name: 'Mark as paid' }).click();
    const answer = await answered;
    const alert = page.getByRole('alert');
    await alert.getByText('"Mark as paid" is not possible now').waitFor();
    await screenshot(page, 'resilience-409');
    // Soft, so that the way on (Reload) is checked even when the wrong refusal came.
    expect.soft({ status: answer.status(), code: (await answer.json()).code }).toEqual({
      status: 409,
      code: 'ILLEGAL_TRANSITION',
    });
    expect.soft(await alert.textContent()).toContain('The order has moved on since you opened it.');
    await alert.getByRole('button', { name: 'Reload' }).click();
    await badge(page, 'Paid').waitFor();
    await alert.waitFor({ state: 'detached' });
    expect(await statusOf(order.id)).toBe('paid');
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  });

  it('422 OUT_OF_STOCK from the prototype API: the catalogue’s message lands on the line’s quantity, and Go to the field goes there', async () => {
    const { page, problems } = await browser.newPage({ width: 1280, height: 1000 });
    const product = await first(owner, '/products?sort=name&limit=1');
    await changeAs(owner, `/products/${product.id}`, { stock: 12 });
    try {
      await signInAs(page, server, 'clerk');
      await fillOrder(page, { quantity: 40, unitPrice: 12 });
      const answered = page.waitForResponse((response) => isPost(response.request(), '/api/orders'));
      await page.getByRole('button', { name: 'Save' }).click();
      // The rule reads the product's stock (lookup) in the API's transaction; the client sent the order.
      const answer = await answered;
      expect({ status: answer.status(), code: (await answer.json()).code }).toEqual({
        status: 422,
        code: 'OUT_OF_STOCK',
      });
      const quantity = page.getByRole('group', { name: 'Order line 1' }).getByLabel(/^Quantity/);
      const alert = page.getByRole('alert');
      await alert.getByText('Not enough stock for this product.').first().waitFor();
      expect(await quantity.getAttribute('aria-invalid')).toBe('true');
      expect(await description(page, quantity)).toContain('Not enough stock for this product.');
      await screenshot(page, 'resilience-422-stock');
      await alert.getByRole('button', { name: 'Go to the field' }).click();
      await expect.poll(() => isFocused(quantity)).toBe(true);
      expect(await quantity.inputValue()).toBe('40');
      // Within the stock, the same form saves, and the order gets the next number.
      await quantity.fill('12');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/orders\/\d+$/);
      await page
        .getByText(/^ORD-\d{6}$/)
        .first()
        .waitFor();
      expect(unexpected(problems, [422])).toEqual([]);
    } finally {
      await changeAs(owner, `/products/${product.id}`, { stock: 100000 });
      await page.close();
    }
  });

  it('422 CREDIT_LIMIT from the prototype API: the catalogue’s message lands on the lines, and Go to the field goes there', async () => {
    const { page, problems } = await browser.newPage({ width: 1280, height: 1000 });
    const customer = await first(owner, '/customers?sort=name&limit=1');
    // The sum of the customer's open orders is read in SQL; 4,500 EUR more is over a limit of 1,000.
    await changeAs(owner, `/customers/${customer.id}`, { creditLimit: 1000 });
    try {
      await signInAs(page, server, 'clerk');
      await fillOrder(page, { quantity: 3, unitPrice: 1500 });
      const answered = page.waitForResponse((response) => isPost(response.request(), '/api/orders'));
      await page.getByRole('button', { name: 'Save' }).click();
      const answer = await answered;
      expect({ status: answer.status(), code: (await answer.json()).code }).toEqual({
        status: 422,
        code: 'CREDIT_LIMIT',
      });
      const message = 'This order would take the customer over their credit limit.';
      const lines = page.getByRole('group', { name: /^Lines/ });
      const alert = page.getByRole('alert');
      await alert.getByText(message).first().waitFor();
      await expect.poll(() => description(page, lines)).toContain(message);
      await screenshot(page, 'resilience-422-credit');
      await alert.getByRole('button', { name: 'Go to the field' }).click();
      await expect.poll(() => isFocused(lines)).toBe(true);
      expect(unexpected(problems, [422])).toEqual([]);
    } finally {
      await changeAs(owner, `/customers/${customer.id}`, { creditLimit: null });
      await page.close();
    }
  });

  it('422 ORDER_TOTAL_LIMIT: the catalogue’s words on the lines, whether the form refuses before sending or the API answers', async () => {
    const { page, problems } = await browser.newPage({ width: 1280, height: 1000 });
    await signInAs(page, server, 'clerk');
    const before = (await json<{ total: number }>(owner('/orders?limit=1'))).total;
    const posts: Request[] = [];
    page.on('request', (request) => {
      if (isPost(request, '/api/orders')) posts.push(request);
    });
    await fillOrder(page, { quantity: 999, unitPrice: 60 });
    const lines = page.getByRole('group', { name: /^Lines/ });

    // Point 5's rule holds in the client too, and reads as the catalogue says the API's refusal does:
    // the same sentence whoever caught it, on the lines, and nothing sent.
    const catalogueMessage =
      'This order is over 50,000 EUR, the most taken without a second approval. Split it into two orders.';
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => description(page, lines)).toContain(catalogueMessage);
    expect(await page.getByText('An order may total at most 50,000 EUR', { exact: false }).count()).toBe(0);
    expect(posts).toEqual([]);

    // Within the limit in the form, over it on the way (as a client with older rules would send): the
    // prototype's real 422 ORDER_TOTAL_LIMIT, shown with the catalogue's message and action.
    const line = page.getByRole('group', { name: 'Order line 1' });
    await line.getByLabel(/^Quantity/).fill('9');
    await page.route('**/api/orders', (route) => {
      const body = route.request().postData();
      if (route.request().method() !== 'POST' || !body) return route.fallback();
      const tampered = body.replace('"quantity":9', '"quantity":999');
      expect(tampered).not.toBe(body);
      return route.continue({ postData: tampered });
    });
    const answered = page.waitForResponse((response) => isPost(response.request(), '/api/orders'));
    await page.getByRole('button', { name: 'Save' }).click();
    const answer = await answered;
    expect(answer.status()).toBe(422);
    expect((await answer.json()).code).toBe('ORDER_TOTAL_LIMIT');
    const alert = page.getByRole('alert');
    await alert.getByText(catalogueMessage).first().waitFor();
    await expect.poll(() => description(page, lines)).toContain(catalogueMessage);
    await screenshot(page, 'resilience-422-total');
    await alert.getByRole('button', { name: 'Go to the field' }).click();
    await expect.poll(() => isFocused(lines)).toBe(true);
    expect((await json<{ total: number }>(owner('/orders?limit=1'))).total).toBe(before);
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  });

  it('429: a wait longer than the client waits by itself is shown with Try again, which works once it passes', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    const email = 'throttled@harbour.example';
    await fillCustomer(page, 'Throttled Chandlery', email);
    let refused = 0;
    await page.route('**/api/customers', (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      refused++;
      return route.fulfill({
        ...problem(429, { title: 'Too many requests', detail: 'Slow down.', code: 'TOO_MANY_REQUESTS' }),
        headers: { 'retry-after': '60' },
      });
    });
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Too many requests; wait a moment.').waitFor();
    // Sixty seconds is over the client's own cap: it did not sit waiting, nor ask again.
    expect(refused).toBe(1);
    expect.soft(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'resilience-429');

    await page.unroute('**/api/customers');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL(/\/customers\/\d+$/);
    expect(await customersWithEmail(email)).toHaveLength(1);
    expect(unexpected(problems, [429])).toEqual([]);
    await page.close();
  });

  it('5xx: a server error shows the catalogue’s message and the server’s reference, never its body', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    const customer = await first(owner, '/customers?sort=name&limit=1');
    const path = `/api/customers/${customer.id}`;
    let tries = 0;
    await page.route(`**${path}`, (route) => {
      tries++;
      return route.fulfill(
        problem(500, {
          title: 'Server error',
          detail: 'SQLITE_BUSY: database is locked\n    at Statement.run (store.ts:88:7)',
          code: 'INTERNAL',
          reference: 'E7-4KQ2',
        }),
      );
    });
    await page.goto(`${server.url}customers/${customer.id}`);
    const alert = page.getByRole('alert');
    await alert.getByText('The server had a problem. Try again in a moment.').waitFor();
    await alert.getByText('Reference: E7-4KQ2').waitFor();
    const shown = (await page.locator('body').textContent()) ?? '';
    expect(shown).not.toContain('SQLITE');
    expect(shown).not.toContain('store.ts');
    // A read is safe to ask again: the client tried a few times, backing off, before saying so.
    expect(tries).toBeGreaterThan(1);
    expect.soft(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'resilience-500');

    // A proxy's HTML page is no problem document: the same message, and nothing of the page.
    await page.unroute(`**${path}`);
    await page.route(`**${path}`, (route) =>
      route.fulfill({
        status: 502,
        contentType: 'text/html',
        body: '<html><body><h1>502 Bad Gateway</h1><hr>nginx/1.25.3</body></html>',
      }),
    );
    const proxied = page.waitForResponse((response) => response.status() === 502);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await proxied;
    await alert.getByText('Reference: E7-4KQ2').waitFor({ state: 'detached' });
    await alert.getByText('The server had a problem. Try again in a moment.').waitFor();
    expect((await page.locator('body').textContent()) ?? '').not.toContain('nginx');

    await page.unroute(`**${path}`);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: String(customer.name) }).waitFor();
    expect(unexpected(problems, [500, 502])).toEqual([]);
    await page.close();
  });
});

describe('no lost work', () => {
  it('keeps a new customer through a save whose answer was lost and a reload, and creates it once', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    const email = 'lost.answer@harbour.example';
    await fillCustomer(page, 'Lost Answer Rigging', email);
    const keys: string[] = [];
    // The request reaches the server and is done there; only its answer never comes back.
    await page.route('**/api/customers', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      keys.push((await route.request().headerValue('idempotency-key')) ?? '');
      const done = await route.fetch();
      expect(done.status()).toBe(201);
      return route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('The network failed').waitFor();
    await screenshot(page, 'resilience-lost-answer');
    expect(keys.length).toBeGreaterThan(0);
    expect(await customersWithEmail(email)).toHaveLength(1);

    await page.unroute('**/api/customers');
    await page.reload();
    const offer = page.getByRole('region', { name: 'Unsaved changes' });
    await offer.waitFor();
    expect.soft(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'resilience-draft-offer');
    await offer.getByRole('button', { name: 'Restore' }).click();
    expect(await page.getByLabel('Email', { exact: false }).inputValue()).toBe(email);
    expect(await page.getByLabel('Name', { exact: false }).first().inputValue()).toBe('Lost Answer Rigging');

    const sent = page.waitForRequest((request) => isPost(request, '/api/customers'));
    await page.getByRole('button', { name: 'Save' }).click();
    // The draft kept the key: the API recognises the save it already did and answers it again.
    expect(await (await sent).headerValue('idempotency-key')).toBe(keys[0]);
    await page.waitForURL(/\/customers\/\d+$/);
    const saved = await customersWithEmail(email);
    expect(saved).toHaveLength(1);
    expect(page.url()).toBe(`${server.url}customers/${saved[0]?.id}`);
    expect(saved[0]).toMatchObject({ name: 'Lost Answer Rigging', creditLimit: 3200 });
    expect(new Set(keys).size).toBe(1);
    expect(unexpected(problems, ['net::ERR_CONNECTION_RESET', 'net::ERR_FAILED'])).toEqual([]);
    await page.close();
  });

  it('creates one record from a double click on Save', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    const email = 'double.click@harbour.example';
    await fillCustomer(page, 'Double Click Marine', email);
    const keys: Array<string | undefined> = [];
    page.on('request', (request) => {
      if (isPost(request, '/api/customers')) keys.push(request.headers()['idempotency-key']);
    });
    await page.getByRole('button', { name: 'Save' }).dblclick();
    await page.waitForURL(/\/customers\/\d+$/);
    expect(await customersWithEmail(email)).toHaveLength(1);
    // However many requests the two clicks made, they are one save to the API.
    expect(keys[0]).toEqual(expect.any(String));
    expect(new Set(keys).size).toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  describe('two tabs editing the same customer', () => {
    async function twoTabs(field: string, mine: string, theirs: string) {
      const customer = await first(owner, '/customers?sort=name&limit=1');
      const tabs = [await browser.newPage(), await browser.newPage()] as const;
      const [a, b] = tabs;
      for (const tab of tabs) {
        await signInAs(tab.page, server, 'clerk');
        await tab.page.goto(`${server.url}customers/${customer.id}/edit`);
        await tab.page.getByLabel(field, { exact: false }).first().waitFor();
      }
      await a.page.getByLabel(field, { exact: false }).first().fill(theirs);
      await a.page.getByRole('button', { name: 'Save' }).click();
      await a.page.waitForURL(`${server.url}customers/${customer.id}`);

      await b.page.getByLabel(field, { exact: false }).first().fill(mine);
      await b.page.getByRole('button', { name: 'Save' }).click();
      const panel = b.page
        .getByRole('alert')
        .filter({ hasText: 'Your changes to this Customer were not saved' });
      await panel.waitFor();
      await panel.getByText('Someone else changed this record while you were editing it.').waitFor();
      return { customer, a, b, panel };
    }

    it('shows both versions after a refused save, and Keep mine saves over theirs', async () => {
      const { customer, a, b, panel } = await twoTabs('Credit limit', '2222', '1111');
      const row = panel.getByRole('row', { name: /^Credit limit/ });
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells[0]).toContain('2,222');
      expect(cells[1]).toContain('1,111');
      expect.soft(await seriousViolations(b.page)).toEqual([]);
      await screenshot(b.page, 'resilience-conflict');
      await panel.getByRole('button', { name: 'Keep mine' }).click();
      await b.page.waitForURL(`${server.url}customers/${customer.id}`);
      expect((await json(owner(`/customers/${customer.id}`))).creditLimit).toBe(2222);
      expect(a.problems).toEqual([]);
      expect(b.problems).toEqual([]);
      await a.page.close();
      await b.page.close();
    });

    it('Take theirs puts the other version in the form, and nothing of mine is saved', async () => {
      const { customer, a, b, panel } = await twoTabs(
        'Name',
        'Mine Marine Supplies',
        'Theirs Marine Supplies',
      );
      const row = panel.getByRole('row', { name: /^Name/ });
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells[0]).toContain('Mine Marine Supplies');
      expect(cells[1]).toContain('Theirs Marine Supplies');
      await panel.getByRole('button', { name: 'Take theirs' }).click();
      await panel.waitFor({ state: 'detached' });
      const name = b.page.getByLabel('Name', { exact: false }).first();
      expect(await name.inputValue()).toBe('Theirs Marine Supplies');
      expect((await json(owner(`/customers/${customer.id}`))).name).toBe('Theirs Marine Supplies');
      // The form now stands on their version: a change saved from it goes through.
      await b.page.getByLabel('Credit limit', { exact: false }).fill('777');
      await b.page.getByRole('button', { name: 'Save' }).click();
      await b.page.waitForURL(`${server.url}customers/${customer.id}`);
      expect(await json(owner(`/customers/${customer.id}`))).toMatchObject({
        name: 'Theirs Marine Supplies',
        creditLimit: 777,
      });
      expect(a.problems).toEqual([]);
      expect(b.problems).toEqual([]);
      await a.page.close();
      await b.page.close();
    });
  });

  it('says the device is offline, and stops saying so when it is back', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    await page.goto(`${server.url}orders`);
    await page.getByRole('table').waitFor();
    // The customers' names are read after the first paint: the page is loaded once they are in.
    await page.waitForLoadState('networkidle');
    const banner = page.getByRole('status').filter({ hasText: 'You are offline' });
    expect(await banner.count()).toBe(0);
    await page.context().setOffline(true);
    await banner.getByText('This device has no network connection.', { exact: false }).waitFor();
    expect.soft(await seriousViolations(page)).toEqual([]);
    // The window only: a whole page is taken by resizing the window, whose phone layout would fetch its code.
    await screenshot(page, 'resilience-offline', { fullPage: false });
    await page.context().setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('status').getByText('The connection is back.').waitFor({ state: 'attached' });
    expect(problems).toEqual([]);
    await page.close();
  });
});
