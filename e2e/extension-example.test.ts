import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { apiAs, signInAs } from './support/sign-in';

// Harbor Supply's extension (examples/shop-ui) on the demo, as a person uses it in Chromium: the brand,
// a field's own widget, a row action that calls the API, a slot beside an order, and a printable screen.
let browser: Browser;
let server: NinefoldProcess;
let owner: (path: string, init?: RequestInit) => Promise<Response>;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '12', '--ui', 'examples/shop-ui/index.tsx']),
  ]);
  owner = await apiAs(server, 'owner');
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

describe("the shop with Harbor Supply's extension", () => {
  it('draws the brand and the stock level, and restocks a product for the warehouse through point 7', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'warehouse', '/products');
    const table = page.getByRole('table', { name: 'Products' });
    await table.waitFor();
    // The brand: the logo in the header, and the brand's colour on the page's primary buttons.
    await page.getByRole('banner').locator('img.nf-logo').waitFor();
    const primary = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--mantine-primary-color-filled').trim(),
    );
    expect(primary).toBe('#0b7285');
    // Each stock cell is the extension's level: a number and a bar.
    const firstRow = table.locator('tbody tr').first();
    const stockText = (await firstRow.locator('.harbor-stock-units').textContent()) ?? '';
    const before = Number(stockText.replace(/\D/g, ''));
    expect(await table.locator('.harbor-stock').count()).toBe(await table.locator('tbody tr').count());

    const sku = (await firstRow.locator('td').first().textContent()) ?? '';
    await firstRow.getByRole('button', { name: 'Restock 10' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restock 10 units?' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Restock' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'Restocked 10 units.' }).waitFor({ state: 'attached' });
    // The API has it, and the list shows it once read again.
    const answer = await (await owner(`/products?limit=50`)).json();
    const product = answer.items.find((item: { sku: string }) => item.sku === sku);
    expect(product.stock).toBe(before + 10);
    await table
      .locator('tbody tr')
      .filter({ hasText: sku })
      .locator('.harbor-stock-units')
      .filter({ hasText: String(before + 10) })
      .waitFor();
    await screenshot(page, 'extension-products-1280');
    expect(problems).toEqual([]);
    await page.close();
  });

  it("draws a first list's rows once, each with its row actions already in it", async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'warehouse', '/products');
    await page.getByRole('table', { name: 'Products' }).waitFor();
    // The list opened afresh (a bookmark, a reload): the first rows in the document are noted as they
    // come. A column of actions added by a second render would show rows without their buttons first.
    await page.addInitScript(() => {
      const seen: { rows: number; withButtons: number }[] = [];
      (globalThis as { __firstRows?: typeof seen }).__firstRows = seen;
      const observer = new MutationObserver(() => {
        const rows = document.querySelectorAll('tbody tr');
        if (rows.length === 0) return;
        const withButtons = Array.from(rows).filter((row) =>
          row.querySelector('button[data-action="restock"]'),
        );
        seen.push({ rows: rows.length, withButtons: withButtons.length });
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await page
      .getByRole('table', { name: 'Products' })
      .getByRole('button', { name: 'Restock 10' })
      .first()
      .waitFor();
    const first = await page.evaluate(
      () => (globalThis as { __firstRows?: { rows: number; withButtons: number }[] }).__firstRows,
    );
    // One sighting: the rows as they first came, every one of them with its button.
    expect(first).toHaveLength(1);
    expect(first?.[0]?.rows).toBeGreaterThan(0);
    expect(first?.[0]?.withButtons).toBe(first?.[0]?.rows);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('offers no restock to a role that may not update products, and the API refuses it too', async () => {
    const { page, problems } = await browser.newPage();
    await signInAs(page, server, 'clerk', '/products');
    await page.getByRole('table', { name: 'Products' }).locator('tbody tr').first().waitFor();
    expect(await page.getByRole('button', { name: 'Restock 10' }).count()).toBe(0);
    const clerk = await apiAs(server, 'clerk');
    const refused = await clerk('/products/1', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'if-match': '"any"' },
      body: JSON.stringify({ stock: 1 }),
    });
    expect(refused.status).toBe(403);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows an order's packing beside its fields, and its printable slip, at 1280 and 360 px", async () => {
    const orders = await (await owner('/orders?limit=1')).json();
    const order = orders.items[0] as { id: number; number: string; lines: unknown[] };
    for (const width of [1280, 360]) {
      const { page, problems } = await browser.newPage({ width, height: 900 });
      await signInAs(page, server, 'warehouse', `/orders/${order.id}`);
      const aside = page.getByRole('complementary', { name: 'More about this record' });
      await aside.getByRole('heading', { name: 'Packing' }).waitFor();
      expect(await aside.textContent()).toContain(`${order.lines.length} line`);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `extension-order-${width}`);
      await aside.getByRole('link', { name: 'Print packing slip' }).click();
      await page.waitForURL(`${server.url}orders/${order.id}/slip`);
      await page.getByRole('heading', { name: 'Packing slip', level: 1 }).waitFor();
      await page.getByText(order.number).waitFor();
      const rows = page.getByRole('table', { name: 'What to pack' }).locator('tbody tr');
      expect(await rows.count()).toBe(order.lines.length);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `extension-slip-${width}`);
      // Printed, the slip is the whole page: the client's frame is left out.
      await page.emulateMedia({ media: 'print' });
      expect(await page.getByRole('banner').isVisible()).toBe(false);
      expect(await page.getByRole('heading', { name: 'Packing slip' }).isVisible()).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('keeps the slip from a role point 2 does not give it, as any screen', async () => {
    const { page } = await browser.newPage();
    await signInAs(page, server, 'clerk', '/orders/1/slip');
    await page
      .getByText(/may not|not allowed|Your role/i)
      .first()
      .waitFor();
    expect(await page.getByRole('heading', { name: 'Packing slip', level: 1 }).count()).toBe(0);
    await page.close();
  });
});
