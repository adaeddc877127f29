import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser, type WatchedPage } from './support/browser';
import { deleteNow } from './support/delete';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, signInAs } from './support/sign-in';

let browser: Browser;
let server: NinefoldProcess;
let api: (path: string, init?: RequestInit) => Promise<Response>;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '30']),
  ]);
  // The owner may do everything the records below need; the checks read what was saved as them.
  api = await apiAs(server, 'owner');
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

/** The API requests a page makes, so a test can say that nothing was sent. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) requests.push(request);
  });
  return requests;
}

/** The text of the elements that describe a labelled input (aria-describedby): its hints and errors. */
async function description(page: Page, label: string): Promise<string> {
  const ids = (await page.getByLabel(label, { exact: false }).getAttribute('aria-describedby')) ?? '';
  const texts = await Promise.all(
    ids
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  return texts.join(' ');
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await screenshot(page, name);
}

describe('records of the rich example, used as a person uses them', () => {
  let watched: WatchedPage;
  beforeAll(async () => {
    watched = await browser.newPage();
    await signInAs(watched.page, server, 'owner');
  });
  afterAll(() => {
    expect(watched?.problems ?? []).toEqual([]);
  });

  it('creates a customer, refusing invalid input before sending and showing the server’s field error in place', async () => {
    const { page } = watched;
    const requests = recordRequests(page);
    await page.goto(`${server.url}customers`);
    await page
      .getByRole('link', { name: /new customer/i })
      .first()
      .click();
    await page.waitForURL(`${server.url}customers/new`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expectAccessible(page, 'create');

    await page.getByLabel('Name', { exact: false }).first().fill('Aaron Anchors');
    await page.getByLabel('Email', { exact: false }).fill('not an address');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter an email address such as name@example.com.').waitFor();
    expect(requests.filter((request) => request.method() === 'POST')).toEqual([]);
    await screenshot(page, 'create-invalid');

    // An email another customer already has: only the server knows, and its answer lands on the field.
    const taken = (await (await api('/customers?limit=1&sort=name')).json()).items[0].email as string;
    await page.getByLabel('Email', { exact: false }).fill(taken);
    await page.getByRole('button', { name: 'Save' }).click();
    const emailInput = page.getByLabel('Email', { exact: false });
    await page.getByText('Another Customer already has this Email.').first().waitFor();
    expect(await emailInput.getAttribute('aria-invalid')).toBe('true');
    expect(await description(page, 'Email')).toContain('Another Customer already has this Email.');
    expect(await page.getByLabel('Name', { exact: false }).first().inputValue()).toBe('Aaron Anchors');

    await emailInput.fill('aaron@anchors.example');
    await page.getByLabel('Credit limit', { exact: false }).fill('2500');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/customers\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('heading', { name: 'Aaron Anchors' }).waitFor();
    await expectAccessible(page, 'detail');

    const stored = await (await api(`/customers/${id}`)).json();
    expect(stored).toMatchObject({
      name: 'Aaron Anchors',
      email: 'aaron@anchors.example',
      creditLimit: 2500,
    });
  });

  it('shows the new record in the list, edits it, and deletes it, each checked through the API', async () => {
    const { page } = watched;
    await page.goto(`${server.url}customers?sort=name`);
    const row = page.getByRole('row', { name: /Aaron Anchors/ });
    await row.waitFor();
    await expectAccessible(page, 'list');
    await row.getByRole('link', { name: 'Aaron Anchors' }).click();
    await page.waitForURL(/\/customers\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop();

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${server.url}customers/${id}/edit`);
    const limit = page.getByLabel('Credit limit', { exact: false });
    await limit.waitFor();
    expect(await limit.inputValue()).toBe('2500');
    await expectAccessible(page, 'edit');
    await limit.fill('4000');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.url}customers/${id}`);
    expect((await (await api(`/customers/${id}`)).json()).creditLimit).toBe(4000);

    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The dialog fades in: the screenshot is of it once it has.
    await page.waitForFunction(() => {
      const shown = document.querySelector('[role="dialog"]');
      return shown !== null && getComputedStyle(shown).opacity === '1';
    });
    await screenshot(page, 'delete-confirm');
    // Sent once the few seconds for Undo have passed.
    await deleteNow(page);
    await page.waitForURL(/\/customers(\?.*)?$/);
    await expect.poll(async () => (await api(`/customers/${id}`)).status, { timeout: 15_000 }).toBe(404);
  });

  it('keeps the list state in the address: a reloaded deep link shows the same page, order and filter', async () => {
    const { page } = watched;
    const requests = recordRequests(page);
    await page.goto(`${server.url}products?page=2&sort=-price`);
    await page.getByRole('table').waitFor();
    await page.getByRole('row').nth(1).waitFor();
    const firstCells = async () => (await page.getByRole('row').nth(1).textContent()) ?? '';
    const before = await firstCells();
    await page.reload();
    await page.getByRole('row').nth(1).waitFor();
    expect(await firstCells()).toBe(before);
    expect(page.url()).toBe(`${server.url}products?page=2&sort=-price`);
    const listCalls = requests.filter((request) => new URL(request.url()).pathname === '/api/products');
    expect(listCalls.length).toBeGreaterThanOrEqual(2);
    for (const call of listCalls) {
      const params = new URL(call.url()).searchParams;
      expect(params.get('page')).toBe('2');
      expect(params.get('sort')).toBe('-price');
    }
    // Sorting from the keyboard: the header is a button; Enter on it orders by that column.
    await page.getByRole('columnheader', { name: /^Name/ }).getByRole('button').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/sort=name/);
    await page.locator('th[aria-sort="ascending"]', { hasText: 'Name' }).waitFor();
    // The same page, fetched by hand, starts with the same product.
    const limit = new URL(listCalls[0]?.url() ?? '').searchParams.get('limit');
    const expected = (await (await api(`/products?page=2&sort=-price&limit=${limit}`)).json()).items[0];
    expect(before).toContain(expected.name);
  });

  it('filters orders by a customer found by name, and shows that name again after a reload', async () => {
    const { page } = watched;
    const orders = (await (await api('/orders?limit=100')).json()).items as Array<{ customer: number }>;
    const customers = (await (await api('/customers?limit=100')).json()).items as Array<{
      id: number;
      name: string;
    }>;
    // A customer with orders, whose name no other customer has.
    const customer = customers.find(
      (candidate) =>
        orders.some((order) => order.customer === candidate.id) &&
        customers.filter((other) => other.name === candidate.name).length === 1,
    );
    if (!customer) throw new Error('the seeded shop has a customer with orders');
    const theirs = orders.filter((order) => order.customer === customer.id).length;
    await page.goto(`${server.url}orders`);
    // A plain box until it is used, then one with suggestions (a combobox): found by its label either way.
    const box = page.getByLabel('Customer', { exact: true });
    // Typed as a person would, a few letters, then the name the suggestions offer.
    await box.pressSequentially(customer.name.slice(0, 3));
    await page
      .locator(`datalist option[value="${customer.name.replaceAll('"', '\\"')}"]`)
      .waitFor({ state: 'attached' });
    // What was typed while the suggestions' code came is still there, the caret after it.
    expect(await box.inputValue()).toBe(customer.name.slice(0, 3));
    await box.fill(customer.name);
    await page.waitForURL(new RegExp(`customer=${customer.id}(&|$)`));
    const rows = page.getByRole('table', { name: 'Orders' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(Math.min(theirs, 25));
    for (const text of await rows.allTextContents()) expect(text).toContain(customer.name);
    // The address names the customer by id; the box names them by name once more.
    await page.reload();
    await expect.poll(() => box.inputValue()).toBe(customer.name);
    expect(await seriousViolations(page)).toEqual([]);
    // Emptied, the filter goes.
    await box.fill('');
    await page.waitForURL((url) => !url.searchParams.has('customer'));
  });

  it('exports the filtered orders as a CSV file, which opens with what the list shows', async () => {
    const { page } = watched;
    await page.goto(`${server.url}orders?status=paid&sort=-total`);
    await page.getByRole('table', { name: 'Orders' }).locator('tbody tr').first().waitFor();
    const expected = (await (await api('/orders?status=paid&sort=-total&limit=100')).json()).items as Array<{
      number: string;
    }>;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('orders.csv');
    const text = readFileSync(await download.path(), 'utf8');
    const rows = parse(text, { bom: true, columns: true }) as Array<Record<string, string>>;
    // Every paid order, not only the page shown, in the list's order.
    expect(rows.map((row) => row.number)).toEqual(expected.map((order) => order.number));
    expect(rows.every((row) => row.status === 'paid')).toBe(true);
    await page
      .getByRole('status')
      .filter({ hasText: 'orders.csv is downloaded.' })
      .waitFor({ state: 'attached' });
  });

  it("hides a column by the person's choice, kept across a reload, and shows every column again", async () => {
    const { page } = watched;
    await page.goto(`${server.url}orders`);
    const table = page.getByRole('table', { name: 'Orders' });
    await table.locator('tbody tr').first().waitFor();
    const headers = async () =>
      (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim());
    expect((await headers()).some((text) => text.startsWith('Placed on'))).toBe(true);
    const chooser = page.getByRole('button', { name: /^Columns/ });
    await chooser.click();
    const panel = page.getByRole('group', { name: 'Columns shown' });
    // The column that opens an order cannot be hidden: no row could be opened then.
    expect(await panel.getByRole('checkbox', { name: 'Order number' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await panel.getByRole('checkbox', { name: 'Placed on' }).uncheck();
    await expect.poll(async () => (await headers()).some((text) => text.startsWith('Placed on'))).toBe(false);
    await screenshot(page, 'list-columns-1280');
    // Escape closes the panel and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await chooser.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await chooser.textContent()).toBe('Columns (4 of 5)');
    await page.reload();
    await table.locator('tbody tr').first().waitFor();
    expect((await headers()).some((text) => text.startsWith('Placed on'))).toBe(false);
    await page.getByRole('button', { name: /^Columns/ }).click();
    await page.getByRole('button', { name: 'Show every column' }).click();
    await expect.poll(async () => (await headers()).some((text) => text.startsWith('Placed on'))).toBe(true);
  });

  it('searches a list, and everything at once from Ctrl+K, landing on the record found', async () => {
    const { page } = watched;
    const customers = (await (await api('/customers?limit=100')).json()).items as Array<{
      id: number;
      name: string;
    }>;
    // A customer whose last name is theirs alone among the first three letters of any word.
    const customer = customers.find((candidate) => {
      const word = (candidate.name.split(' ').at(-1) ?? '').toLowerCase();
      return (
        word.length >= 4 &&
        /^[a-z]+$/.test(word) &&
        customers.filter((other) => other.name.toLowerCase().includes(word.slice(0, 4))).length === 1
      );
    });
    if (!customer) throw new Error('the seeded shop has a customer with a last name of their own');
    const word = (customer.name.split(' ').at(-1) ?? '').slice(0, 4);
    const expected = (await (await api(`/customers?q=${encodeURIComponent(word)}`)).json()).items as Array<{
      name: string;
    }>;
    expect(expected.map((item) => item.name)).toContain(customer.name);

    await page.goto(`${server.url}customers`);
    const table = page.getByRole('table', { name: 'Customers' });
    await table.locator('tbody tr').first().waitFor();
    await page.getByLabel('Search customers').fill(word);
    await page.waitForURL(new RegExp(`[?&]q=${word}(&|$)`));
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(expected.length);
    expect(await rows.first().textContent()).toContain(expected[0]?.name);
    // Kept in the address: a reload searches again.
    await page.reload();
    await expect.poll(() => page.getByLabel('Search customers').inputValue()).toBe(word);
    await expect.poll(() => rows.count()).toBe(expected.length);

    // The search across the client: a screen by its title, and the records of each searchable list.
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: 'Search for a screen or a record' });
    await box.fill(customer.name.toLowerCase());
    const option = page.getByRole('option', { name: new RegExp(`^${customer.name}\\s*Customers$`) });
    await option.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'global-search-1280');
    // The keyboard picks it: down to it, as the highlight shows, then Enter, which opens the customer's page.
    const wanted = await option.getAttribute('id');
    for (let n = 0; n < 20 && (await box.getAttribute('aria-activedescendant')) !== wanted; n++) {
      await box.press('ArrowDown');
    }
    expect(await box.getAttribute('aria-activedescendant')).toBe(wanted);
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    await page.waitForURL(new RegExp(`/customers/${customer.id}$`));
    await page.getByRole('heading', { level: 1, name: customer.name }).waitFor();
    // A screen by its title, opened from the header's button.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await box.fill('produ');
    await page.getByRole('option', { name: /^Products\s*Screen$/ }).click();
    await page.waitForURL(/\/products$/);
  });

  it('takes a transition on selected orders, refusing the one whose state does not allow it', async () => {
    const { page } = watched;
    const orders = (await (await api('/orders?limit=100')).json()).items as Array<{
      id: number;
      number: string;
      status: string;
    }>;
    const placed = orders.find((item) => item.status === 'placed');
    const shipped = orders.find((item) => item.status === 'shipped');
    if (!placed || !shipped) throw new Error('the seeded shop has a placed and a shipped order');
    await page.goto(`${server.url}orders?q=${encodeURIComponent(`${placed.number}`)}`);
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    const table = page.getByRole('table', { name: 'Orders' });
    await table.getByRole('checkbox', { name: `Select ${placed.number}` }).check();
    // The other one from another search: a selection outlives the page it was made on.
    await page.getByLabel('Search orders').fill(shipped.number);
    await table.getByRole('checkbox', { name: `Select ${shipped.number}` }).check();
    const bar = page.getByRole('region', { name: 'Selection' });
    await bar.getByText('2 selected').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await bar.getByRole('button', { name: 'Mark as paid' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark as paid: 2 orders?' });
    await dialog.getByRole('button', { name: 'Go ahead' }).click();
    const report = page.getByRole('status').filter({ hasText: 'Mark as paid: 1 done, 1 refused.' });
    await report.waitFor();
    expect(await report.getByRole('listitem').allTextContents()).toEqual([
      `${shipped.number}: Possible only from Placed.`,
    ]);
    await screenshot(page, 'bulk-report-1280');
    const statusOf = async (id: number) => (await (await api(`/orders/${id}`)).json()).status as string;
    expect(await statusOf(placed.id)).toBe('paid');
    expect(await statusOf(shipped.id)).toBe('shipped');
    // What was done left the selection; what was refused stays in it.
    await bar.getByText('1 selected').waitFor();
    await bar.getByRole('button', { name: 'Stop selecting' }).click();
    await bar.waitFor({ state: 'detached' });
  });

  it('imports customers from a CSV file: bad rows shown before anything is written, fixed, and run again without duplicates', async () => {
    const { page } = watched;
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-import-'));
    // "Mail" names no field: the person says which field it is.
    const bad = [
      'Name,Mail,Country,Credit limit,Active,Colour',
      'Ada Quay,ada@quay.test,Norway,1000,yes,red',
      'Bo Reef,not-an-email,Denmark,500,no,blue',
      'Cy Cove,cy@cove.test,Sweden,12.5.0,yes,green',
      'Di Dock,ada@quay.test,Norway,10,yes,',
    ].join('\n');
    const badFile = join(dir, 'customers.csv');
    writeFileSync(badFile, bad);
    const count = async () => (await (await api('/customers?limit=1')).json()).total as number;
    const before = await count();

    await page.goto(`${server.url}customers`);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import customers from a CSV file' });
    await dialog.getByLabel('CSV file', { exact: true }).setInputFiles(badFile);
    await dialog.getByRole('status').filter({ hasText: 'customers.csv: 4 rows, 6 columns.' }).waitFor();
    await dialog.getByRole('combobox', { name: 'Field: Mail' }).click();
    await page.getByRole('option', { name: 'Email', exact: true }).click();
    // Email is unique: rows are now matched on it, so a file run twice makes nothing twice.
    await expect
      .poll(() => dialog.getByRole('combobox', { name: /match an existing customer/ }).inputValue())
      .toBe('Email');
    await dialog.getByRole('button', { name: 'Check the file' }).click();
    await dialog.getByText('Checked: 1 new, 0 to update, 0 to skip, 3 with errors.').waitFor();
    const errors = dialog.getByRole('table', { name: 'Rows with errors' });
    expect(await errors.locator('tbody tr').allTextContents()).toEqual([
      '3EmailEnter an email address such as name@example.com.',
      '4Credit limitCredit limit is not a number written as 1,234.56: "12.5.0".',
      '5EmailEmail is the same as in row 2 of this file.',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'import-check-1280');
    expect(await count()).toBe(before);

    // The file corrected and chosen again keeps the columns' fields; checked, then imported.
    writeFileSync(
      badFile,
      bad
        .replace('not-an-email', 'bo@reef.test')
        .replace('12.5.0', '12.5')
        .replace('Di Dock,ada@quay.test', 'Di Dock,di@dock.test'),
    );
    for (const run of [1, 2]) {
      await dialog.getByLabel('CSV file', { exact: true }).setInputFiles(badFile);
      await dialog.getByRole('button', { name: 'Check the file' }).click();
      await dialog
        .getByText(
          run === 1
            ? 'Checked: 4 new, 0 to update, 0 to skip, 0 with errors.'
            : 'Checked: 0 new, 0 to update, 4 to skip, 0 with errors.',
        )
        .waitFor();
      await dialog.getByRole('button', { name: 'Import 4 rows' }).click();
      await dialog
        .getByText(
          run === 1
            ? 'Imported: 4 new, 0 updated, 0 skipped, 0 refused.'
            : 'Imported: 0 new, 0 updated, 4 skipped, 0 refused.',
        )
        .waitFor();
      expect(await count()).toBe(before + 4);
      if (run === 1) {
        await dialog.getByRole('progressbar').waitFor();
        await screenshot(page, 'import-done-1280');
      }
    }
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });
    const found = (await (await api('/customers?q=dock')).json()).items as Array<{
      email: string;
      creditLimit: number;
    }>;
    expect(found).toEqual([expect.objectContaining({ email: 'di@dock.test', creditLimit: 10 })]);
  });

  it('imports a German spreadsheet’s file: Windows-1252, semicolons, decimal commas, every bad row listed and downloadable', async () => {
    const { page } = watched;
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-import-eu-'));
    const rows = [
      'Name;Email;Country;Credit limit;Active',
      'Jürgen Müller;jm@eu.test;Germany;36.500;yes',
      'Zoë Çelik;zc@eu.test;France;172.101,96;no',
      'Renée Dupré;not-an-email;France;1,5;yes',
      'Åsa Øberg;ao@eu.test;Sweden;12abc;yes',
      'Björn Weiß;bw@eu.test',
      'Íñigo Peña;jm@eu.test;Spain;10;yes',
    ];
    const file = join(dir, 'kunden.csv');
    // As Excel on a German Windows saves "CSV (semicolon-separated)": Windows-1252, CRLF.
    writeFileSync(file, Buffer.from(rows.join('\r\n'), 'latin1'));
    const count = async () => (await (await api('/customers?limit=1')).json()).total as number;
    const before = await count();

    await page.goto(`${server.url}customers`);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import customers from a CSV file' });
    await dialog.getByLabel('CSV file', { exact: true }).setInputFiles(file);
    await dialog.getByRole('status').filter({ hasText: 'kunden.csv: 6 rows, 5 columns.' }).waitFor();
    // What was found, shown and open to change: the encoding, the separator, the numbers' form.
    expect(await dialog.getByRole('combobox', { name: 'Encoding' }).inputValue()).toBe('Windows-1252');
    expect(await dialog.getByRole('combobox', { name: 'Separator' }).inputValue()).toBe('Semicolon ( ; )');
    expect(await dialog.getByRole('combobox', { name: 'Numbers' }).inputValue()).toBe('1.234,56');
    const preview = dialog.getByRole('table', { name: 'How the first rows will be read' });
    expect(await preview.locator('tbody tr').first().textContent()).toContain('Jürgen Müller');
    expect(await preview.locator('tbody tr').first().textContent()).toContain('36,500');
    await screenshot(page, 'import-european-1280');

    await dialog.getByRole('button', { name: 'Check the file' }).click();
    await dialog.getByText('Checked: 2 new, 0 to update, 0 to skip, 4 with errors.').waitFor();
    await page.setViewportSize({ width: 360, height: 800 });
    await screenshot(page, 'import-european-check-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    const errors = dialog.getByRole('table', { name: 'Rows with errors' });
    expect(await errors.locator('tbody tr').allTextContents()).toEqual([
      '4EmailEnter an email address such as name@example.com.',
      '5Credit limitCredit limit is not a number written as 1.234,56: "12abc".',
      '6Row 6 has 2 cells where the header has 5.',
      '7EmailEmail is the same as in row 2 of this file.',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download the 4 rows with errors (CSV)' }).click(),
    ]);
    const mended = parse(readFileSync((await download.path()) as string, 'utf8'), {
      bom: true,
      delimiter: ';',
      relax_column_count: true,
    }) as string[][];
    expect(mended[0]).toEqual(['Name', 'Email', 'Country', 'Credit limit', 'Active', 'Errors']);
    expect(mended.slice(1).map((row) => [row[0], row.at(-1)])).toEqual([
      ['Renée Dupré', 'Enter an email address such as name@example.com.'],
      ['Åsa Øberg', 'Credit limit is not a number written as 1.234,56: "12abc".'],
      ['Björn Weiß', 'Row 6 has 2 cells where the header has 5.'],
      ['Íñigo Peña', 'Email is the same as in row 2 of this file.'],
    ]);

    await dialog.getByRole('button', { name: 'Import the 2 good rows' }).click();
    await dialog.getByText('Imported: 2 new, 0 updated, 0 skipped, 4 refused.').waitFor();
    expect(await count()).toBe(before + 2);
    const stored = async (email: string) =>
      (
        (await (await api(`/customers?q=${encodeURIComponent(email)}`)).json()).items as Array<
          Record<string, unknown>
        >
      ).find((item) => item.email === email);
    expect(await stored('jm@eu.test')).toMatchObject({
      name: 'Jürgen Müller',
      creditLimit: 36500,
      country: 'Germany',
    });
    expect(await stored('zc@eu.test')).toMatchObject({
      name: 'Zoë Çelik',
      creditLimit: 172101.96,
      active: false,
    });
    await page.setViewportSize({ width: 360, height: 800 });
    await screenshot(page, 'import-european-done-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('lets a person say the encoding of a file whose bytes read two ways, then reads it as they said', async () => {
    const { page } = watched;
    const dir = mkdtempSync(join(tmpdir(), 'ninefold-import-latin9-'));
    const file = join(dir, 'clients.csv');
    // ISO-8859-15: byte 0xA4 is "€" there, and "¤" in Windows-1252; nothing in the bytes tells which.
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('Name,Email\nCaf', 'latin1'),
        Buffer.from([0xe9, 0x20, 0xa4]),
        Buffer.from(',cafe@eu.test\n'),
      ]),
    );
    await page.goto(`${server.url}customers`);
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import customers from a CSV file' });
    await dialog.getByLabel('CSV file', { exact: true }).setInputFiles(file);
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'byte 17 (line 2) is "¤" in Windows-1252 but "€" in ISO-8859-15' })
      .waitFor();
    await dialog.getByRole('combobox', { name: 'Encoding' }).click();
    await page.getByRole('option', { name: 'ISO-8859-15' }).click();
    await dialog.getByRole('status').filter({ hasText: 'clients.csv: 1 row, 2 columns.' }).waitFor();
    const preview = dialog.getByRole('table', { name: 'How the first rows will be read' });
    expect(await preview.locator('tbody tr').first().textContent()).toContain('Café €');
    expect(await dialog.getByRole('combobox', { name: 'Encoding' }).inputValue()).toBe('ISO-8859-15');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('keeps a page size and named views per person, and a view brings back its filter, order and columns', async () => {
    const { page } = watched;
    await page.goto(`${server.url}orders?status=paid&sort=-total`);
    const table = page.getByRole('table', { name: 'Orders' });
    await table.locator('tbody tr').first().waitFor();
    const chooser = page.getByRole('button', { name: /^Columns/ });
    await chooser.click();
    await page.getByLabel('Rows per page').selectOption('10');
    await page
      .getByRole('group', { name: 'Columns shown' })
      .getByRole('checkbox', { name: 'Customer' })
      .uncheck();
    await page.getByLabel('Name of this view').fill('Paid, largest first');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Paid, largest first', exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'list-views-1280');
    await page.keyboard.press('Escape');

    // Elsewhere in the list, then back through the view.
    await page.goto(`${server.url}orders`);
    await table.locator('tbody tr').first().waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBeLessThanOrEqual(10);
    await page.getByRole('group', { name: 'Columns shown' }).waitFor({ state: 'detached' });
    await chooser.click();
    await page
      .getByRole('group', { name: 'Columns shown' })
      .getByRole('checkbox', { name: 'Customer' })
      .check();
    await page.getByLabel('Rows per page').selectOption('25');
    await page.getByRole('button', { name: 'Paid, largest first', exact: true }).click();
    await page.waitForURL(/\?status=paid&sort=-total$/);
    const headers = async () =>
      (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim());
    await expect.poll(async () => (await headers()).includes('Customer')).toBe(false);
    expect(await page.getByLabel('Rows per page').inputValue()).toBe('10');
    // Kept across a reload, in this browser, for this person.
    await page.reload();
    await chooser.click();
    await page.getByRole('button', { name: 'Delete the view Paid, largest first' }).click();
    await page.getByText('None yet', { exact: false }).waitFor();
    await page
      .getByRole('group', { name: 'Columns shown' })
      .getByRole('checkbox', { name: 'Customer' })
      .check();
    await page.getByLabel('Rows per page').selectOption('25');
    await page.keyboard.press('Escape');
  });

  it('shows the dashboard with a count per list', async () => {
    const { page } = watched;
    await page.goto(server.url);
    const total = (await (await api('/orders?limit=1')).json()).total as number;
    const tile = page.getByRole('region', { name: 'Orders' });
    await tile.getByText(`Total: ${total}`).waitFor();
    await expectAccessible(page, 'dashboard');
  });
});
