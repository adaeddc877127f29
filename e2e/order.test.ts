import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, signInAs } from './support/sign-in';

let browser: Browser;
let server: NinefoldProcess;
let api: (path: string) => Promise<Response>;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '12']),
  ]);
  api = await apiAs(server, 'owner');
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

/** Opens a searchable select, types part of a name and picks the matching option, as a person does. */
async function choose(page: Page, select: ReturnType<Page['getByRole']>, search: string, name: string) {
  await select.click();
  await select.fill(search);
  await page.getByRole('option', { name }).click();
}

describe('an order of the rich example: references, nested lines, an address and a file', () => {
  it('is created through the form, sent as multipart, and stored with its file', async () => {
    const customers = (await (await api('/customers?sort=name&limit=1')).json()).items;
    const products = (await (await api('/products?sort=name&limit=1')).json()).items;
    const customer = customers[0] as { id: number; name: string };
    const product = products[0] as { id: number; name: string };

    const { page, problems } = await browser.newPage({ width: 1280, height: 1000 });
    // A counter clerk takes the order: the draft is theirs (ownerId), which the API stamps.
    await signInAs(page, server, 'clerk');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') requests.push(request.headers()['content-type'] ?? '');
    });
    await page.goto(`${server.url}orders/new`);
    await choose(
      page,
      page.getByRole('combobox', { name: /^Customer/ }),
      customer.name.slice(0, 4),
      customer.name,
    );

    const address = page.getByRole('group', { name: /^Ship to/ });
    await address.getByLabel(/^Street/).fill('1 Quay Street');
    await address.getByLabel(/^Postcode/).fill('ab1 2cd');

    await page.getByRole('button', { name: 'Add order line' }).click();
    const line = page.getByRole('group', { name: 'Order line 1' });
    await choose(
      page,
      line.getByRole('combobox', { name: /^Product/ }),
      product.name.slice(0, 4),
      product.name,
    );
    await line.getByLabel(/^Quantity/).fill('3');
    await line.getByLabel(/^Unit price/).fill('12.50');
    // The derived total follows the lines as they are typed, before anything is saved. Once, in a whole
    // run, it never showed: the failure says what the line held, to tell a lost keystroke from a copy of
    // the product's price that came late, or a total that was not worked out.
    await page
      .getByText('€37.50')
      .waitFor()
      .catch(async (error: Error) => {
        const held = await line
          .locator('input')
          .evaluateAll((inputs) =>
            inputs.map(
              (input) =>
                `${(input as HTMLInputElement).labels?.[0]?.textContent?.trim() || input.id}=${(input as HTMLInputElement).value}`,
            ),
          )
          .catch((failure: Error) => [`(unread: ${failure.message})`]);
        const form = await page
          .locator('form')
          .innerText({ timeout: 2000 })
          .catch((failure: Error) => `(unread: ${failure.message})`);
        throw new Error(
          `${error.message}\nThe line held: ${held.join(', ')}\nThe form shows:\n${form.slice(0, 1500)}`,
        );
      });

    const pdf = Buffer.from('%PDF-1.4\n% a purchase order\n');
    await page
      .getByLabel(/^Purchase order/)
      .setInputFiles({ name: 'po-17.pdf', mimeType: 'application/pdf', buffer: pdf });

    await page.getByRole('button', { name: 'Save' }).click();
    // The postcode breaks the specification's pattern: shown on its field, nothing sent.
    await page.getByText('Use letters, digits, spaces or dashes.').first().waitFor();
    expect(requests).toEqual([]);
    await screenshot(page, 'order-invalid');

    await address.getByLabel(/^Postcode/).fill('AB1 2CD');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/orders\/\d+$/);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^multipart\/form-data; boundary=/);
    await page.getByRole('link', { name: 'po-17.pdf', exact: false }).first().waitFor();
    // The order's total of its lines (a derived field that reads them) stands under their table.
    const footer = page.getByRole('table', { name: 'Lines' }).locator('tfoot');
    await footer.getByRole('rowheader', { name: 'Total' }).waitFor();
    expect(await footer.textContent()).toContain('€37.50');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'order-detail');

    const id = new URL(page.url()).pathname.split('/').pop();
    const stored = await (await api(`/orders/${id}`)).json();
    expect(stored).toMatchObject({
      customer: customer.id,
      status: 'draft',
      total: 37.5,
      shippingAddress: { street: '1 Quay Street', postcode: 'AB1 2CD' },
      lines: [{ product: product.id, quantity: 3, unitPrice: 12.5 }],
      attachment: { name: 'po-17.pdf', type: 'application/pdf', size: pdf.length },
    });
    expect(stored.ownerId).toEqual(expect.any(String));
    const download = await api(stored.attachment.url.replace(/^\/api/, ''));
    expect(Buffer.from(await download.arrayBuffer()).equals(pdf)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is listed on its customer’s page, where a new order starts for that customer', async () => {
    const order = (await (await api('/orders?limit=1')).json()).items[0] as {
      customer: number;
      number: string;
    };
    const customer = (await (await api(`/customers/${order.customer}`)).json()) as {
      id: number;
      name: string;
    };
    const theirs = (await (await api(`/orders?customer=${customer.id}&limit=100`)).json()).total as number;

    for (const width of [1280, 360]) {
      const { page, problems } = await browser.newPage({ width, height: 900 });
      await signInAs(page, server, 'clerk');
      await page.goto(`${server.url}customers/${customer.id}`);
      await page.getByRole('heading', { level: 1, name: customer.name }).waitFor();
      const orders = page.getByRole('region', { name: 'Orders' });
      const table = orders.getByRole('table', { name: 'Orders' });
      await table.waitFor();
      // The customer's orders, at most five, each linking to its page; the rest are one link away.
      const rows = await table.getByRole('row').count();
      expect(rows - 1).toBe(Math.min(theirs, 5));
      await orders.getByText(`${Math.min(theirs, 5)} of ${theirs}`).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `customer-related-orders-${width}`);

      if (width === 1280) {
        await orders.getByRole('link', { name: 'See all' }).click();
        await page.waitForURL(new RegExp(`/orders\\?customer=${customer.id}$`));
        await page.getByRole('table').waitFor();
        await page.goBack();
        await orders.getByRole('link', { name: 'New order' }).click();
        await page.waitForURL(new RegExp(`/orders/new\\?customer=${customer.id}$`));
        // The new order is already this customer's.
        await expect
          .poll(() => page.getByRole('combobox', { name: /^Customer/ }).inputValue())
          .toBe(customer.name);
      }
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
