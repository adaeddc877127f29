import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, demoPassword, signInAs } from './support/sign-in';

let browser: Browser;
let server: NinefoldProcess;
let owner: (path: string, init?: RequestInit) => Promise<Response>;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '12']),
  ]);
  owner = await apiAs(server, 'owner');
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

async function navigationLinks(page: Page): Promise<string[]> {
  const navigation = page.getByRole('navigation', { name: 'Navigation' });
  await navigation.getByRole('link').first().waitFor();
  return navigation.getByRole('link').allTextContents();
}

/** The first order the owner finds in a state, for a role to open. */
async function orderIn(status: string): Promise<{ id: number; number: string }> {
  const answer = await (await owner(`/orders?status=${status}&limit=1`)).json();
  const order = answer.items[0];
  if (!order) throw new Error(`the seeded shop has no ${status} order`);
  return order;
}

describe('two roles of the rich example, each seeing and doing exactly its own part', () => {
  it('asks for a sign-in before any screen of a shop that needs one, and comes back where it was going', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${server.url}products`);
    await page.waitForURL(/\/sign-in\?next=%2Fproducts$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');
    await page.getByLabel('Email', { exact: false }).fill('warehouse@demo.test');
    await page.getByRole('textbox', { name: /^Password/ }).fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The email or the password is not right.').waitFor();
    // The email typed is kept; only the password is asked again.
    expect(await page.getByLabel('Email', { exact: false }).inputValue()).toBe('warehouse@demo.test');
    await page.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(server));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}products`);
    await page.getByRole('table').waitFor();
    // The token is in no address and no log the page wrote.
    expect(page.url()).not.toContain('token');
    expect(problems.filter((problem) => !problem.includes('401'))).toEqual([]);
    await page.close();
  });

  it('the counter clerk: orders and customers, creates and places an order, may not ship or delete', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    const header = page.getByRole('banner');
    await header.getByText('clerk@demo.test').waitFor();
    expect(await header.getByText('Counter clerk').count()).toBeGreaterThan(0);
    expect(await navigationLinks(page)).toEqual([
      'Today',
      'Orders',
      'New order',
      'Customers',
      'New customer',
      'Products',
      // The prototype API's audit trail: each role sees there only what it may read.
      'Changes',
      'About this client',
    ]);

    const placed = await orderIn('placed');
    await page.goto(`${server.url}orders/${placed.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const actions = page.getByRole('group', { name: 'Change the state' });
    await actions.getByRole('button', { name: 'Mark as paid' }).waitFor();
    // Ship and Confirm delivery belong to the warehouse: the clerk is not offered them at all.
    expect(await actions.getByRole('button', { name: 'Ship' }).count()).toBe(0);
    // Place order is the clerk's, but not from Placed: not a button, but in the menu with its reason.
    expect(await actions.getByRole('button', { name: 'Place order' }).count()).toBe(0);
    await actions.getByRole('button', { name: /^More/ }).click();
    const place = page.getByRole('menuitem', { name: /Place order/ });
    expect(await place.getAttribute('aria-disabled')).toBe('true');
    expect(await place.textContent()).toContain('Possible only from Draft.');
    // Once the menu has finished opening (its items are hidden while it fades in).
    await page.waitForTimeout(400);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'clerk-order-menu');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'hidden' });
    // No grant to delete orders: no Delete button.
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    expect(await page.getByText('Purchase order').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'clerk-order');

    await actions.getByRole('button', { name: 'Mark as paid' }).click();
    await expect.poll(async () => (await (await owner(`/orders/${placed.id}`)).json()).status).toBe('paid');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the warehouse: orders and products only, ships a paid order, never sees purchase orders or customers', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'warehouse');
    expect(await navigationLinks(page)).toEqual([
      'Today',
      'Orders',
      'Products',
      'Changes',
      'About this client',
    ]);

    const paid = await orderIn('paid');
    await page.goto(`${server.url}orders/${paid.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const actions = page.getByRole('group', { name: 'Change the state' });
    await actions.getByRole('button', { name: 'Ship' }).waitFor();
    expect(await actions.getByRole('button', { name: 'Place order' }).count()).toBe(0);
    expect(await actions.getByRole('button', { name: 'Mark as paid' }).count()).toBe(0);
    // The attachment is hidden from the warehouse: not on the page, and not in what the API sent.
    expect(await page.getByText('Purchase order').count()).toBe(0);
    expect(await page.getByRole('link', { name: /^Edit/ }).count()).toBe(0);
    await screenshot(page, 'warehouse-order');

    const answered = page.waitForResponse((response) => response.url().endsWith(`/orders/${paid.id}/ship`));
    await actions.getByRole('button', { name: 'Ship' }).click();
    expect((await answered).status()).toBe(200);
    await expect.poll(async () => (await (await owner(`/orders/${paid.id}`)).json()).status).toBe('shipped');

    // A page of customers, asked for by its address: refused in the shell, with the reason.
    await page.goto(`${server.url}customers`);
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    expect(await page.getByText('The role Warehouse may not see this page.').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'warehouse-not-allowed');

    // Products are the warehouse's to change (stock), but not to create.
    await page.goto(`${server.url}products`);
    await page.getByRole('table').waitFor();
    expect(await page.getByRole('link', { name: /new product/i }).count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    expect(await page.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the warehouse and a trade customer see customers and people by name, and filter orders by a name', async () => {
    const paid = (await (await owner('/orders?limit=1')).json()).items[0];
    const customer = (await (await owner(`/customers/${paid.customer}`)).json()).name as string;
    const people = await (await owner(`/_people?id=${encodeURIComponent(paid.ownerId)}`)).json();
    const enteredBy = people.items[0]?.name as string;
    expect(enteredBy).toMatch(/@demo\.test$/);

    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'warehouse');
    await page.goto(`${server.url}orders/${paid.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    // The customer by name, though the warehouse may not open customers (so no link), and who entered it.
    await page.getByText(customer, { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: customer }).count()).toBe(0);
    await page.getByText(enteredBy, { exact: true }).waitFor();
    expect(await page.getByText(paid.ownerId).count()).toBe(0);

    // The list's Customer filter offers the names the warehouse sees, and filters by the one picked.
    await page.goto(`${server.url}orders`);
    await page.getByRole('table').waitFor();
    const filter = page
      .getByRole('textbox', { name: 'Customer' })
      .or(page.getByRole('combobox', { name: 'Customer' }));
    await filter.click();
    await filter.pressSequentially(customer.slice(0, 4), { delay: 30 });
    await expect
      .poll(() =>
        page
          .locator('datalist option')
          .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
      )
      .toContain(customer);
    await filter.fill(customer);
    await page.waitForURL(new RegExp(`customer=${paid.customer}(&|$)`));
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    // Each row names the customer once the names arrive (the id shows, busy, until then).
    await expect
      .poll(async () => [...new Set(await page.locator('tbody tr td:nth-child(2)').allTextContents())])
      .toEqual([customer]);
    await screenshot(page, 'warehouse-orders-by-customer-name');
    expect(problems).toEqual([]);
    await page.close();

    // A trade customer may not read customers either, yet reads their own company's name on their orders.
    const trade = await browser.newPage();
    await signInAs(trade.page, server, 'customer');
    await trade.page.goto(`${server.url}orders`);
    await trade.page.getByRole('table').waitFor();
    const theirs = () => trade.page.locator('tbody tr td:nth-child(2)').allTextContents();
    await expect.poll(async () => (await theirs()).length).toBeGreaterThan(0);
    await expect.poll(async () => (await theirs()).filter((name) => /^\d+$/.test(name))).toEqual([]);
    expect(new Set(await theirs()).size).toBe(1);
    expect(trade.problems).toEqual([]);
    await trade.page.close();
  });

  it('keeps everything typed in a form through a session that ends in the middle, and saves it after signing in again', async () => {
    const { page } = await browser.newPage();
    await signInAs(page, server, 'clerk');
    const customer = (await (await owner('/customers?sort=name&limit=1')).json()).items[0];
    await page.goto(`${server.url}customers/${customer.id}/edit`);
    const name = page.getByLabel('Name', { exact: false }).first();
    await name.waitFor();
    await name.fill('Renamed while the session ended');
    await page.getByLabel('Credit limit', { exact: false }).fill('1234');

    // The session ends on the server (signed out elsewhere): the next call is a real 401.
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

    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'session-ended');
    await dialog.getByRole('textbox', { name: /^Password/ }).fill(demoPassword(server));
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Nothing typed was lost, and nothing was saved yet.
    expect(await name.inputValue()).toBe('Renamed while the session ended');
    expect(await page.getByLabel('Credit limit', { exact: false }).inputValue()).toContain('1234');
    expect((await (await owner(`/customers/${customer.id}`)).json()).name).toBe(customer.name);

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.url}customers/${customer.id}`);
    const stored = await (await owner(`/customers/${customer.id}`)).json();
    expect(stored).toMatchObject({ name: 'Renamed while the session ended', creditLimit: 1234 });
    await page.close();
  });
});
