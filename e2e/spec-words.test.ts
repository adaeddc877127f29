import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { listBody, listRecords } from './support/list-records';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { signInAs } from './support/sign-in';

// The specification's own words in French (point 1's translations, issue 21): a person who picks
// French reads the shop's labels, states, transitions and figures in French, not only the client's.

let browser: Browser;
let server: NinefoldProcess;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startNinefold('serve', 'examples/shop.md', ['--seed', '12']),
  ]);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

describe('the specification’s words in the person’s language', () => {
  it('shows the shop in French once French is chosen, and in English again after', async () => {
    for (const width of [1280, 360]) {
      const { page, problems } = await browser.newPage({ width, height: 900 });
      await signInAs(page, server, 'owner');
      await page.goto(`${server.url}orders`);
      await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
      // On a phone the language is chosen in the navigation, which then closes from its button.
      if (width === 360) await page.getByRole('button', { name: 'Open navigation' }).click();
      await page.getByLabel('Language').selectOption('fr');
      if (width === 360) await page.getByRole('button', { name: 'Ouvrir la navigation' }).click();
      // The list: its title, its columns and its states, as point 1's table gives them.
      await page.getByRole('heading', { name: 'Commandes', level: 1 }).waitFor();
      // A table at a desk's width, with its columns' headers; a card per order on a phone's.
      await page.getByRole(width === 360 ? 'list' : 'table', { name: 'Commandes' }).waitFor();
      await listRecords(page).first().waitFor();
      if (width === 1280) {
        const headers = await page
          .getByRole('table', { name: 'Commandes' })
          .getByRole('columnheader')
          .allTextContents();
        expect(headers.join(' | ')).toMatch(/Numéro de comm.*Client.*Passée le.*Total.*État/);
      } else {
        expect(await page.getByLabel('Trier par').inputValue()).toBe('desc:placedOn');
        // The filters other than the search are folded on a phone, so the first order is on the first
        // screen; one line opens them.
        const first = await listRecords(page).first().boundingBox();
        expect(first && first.y + first.height).toBeLessThanOrEqual(900);
        const status = page.getByRole('combobox', { name: 'État' });
        expect(await status.isVisible()).toBe(false);
        await page.getByText('Filtres', { exact: true }).click();
        await status.waitFor();
      }
      const states = await listBody(page).textContent();
      expect(states).toMatch(/Brouillon|Passée|Payée|Expédiée|Livrée|Annulée/);
      expect(states).not.toMatch(/\b(Draft|Delivered|Shipped)\b/);
      // At a phone's width the header's controls, in French's longer words, are on screen and apart, and
      // the product's name beside them is whole.
      if (width === 360) {
        const boxes = [];
        const name = page.getByRole('banner').getByRole('link', { name: 'Harbor Supply' });
        for (const control of [
          page.getByRole('button', { name: 'Ouvrir la navigation' }),
          name,
          page.getByRole('button', { name: 'Rechercher' }),
          page.getByRole('button', { name: 'Se déconnecter' }),
        ]) {
          const box = await control.boundingBox();
          expect(box, 'a header control is not drawn').not.toBeNull();
          boxes.push(box ?? { x: -1, y: 0, width: 0, height: 0 });
        }
        for (const [index, box] of boxes.entries()) {
          expect(box.x >= 0 && box.x + box.width <= 360, `control ${index} is off screen`).toBe(true);
          const next = boxes[index + 1];
          if (next)
            expect(box.x + box.width, `control ${index} runs into the next`).toBeLessThanOrEqual(next.x);
        }
        expect(await name.evaluate((link) => link.scrollWidth <= link.clientWidth)).toBe(true);
      }
      // A day is typed in French order, day first, into Mantine's date input, not the browser's.
      if (width === 1280) {
        const placedOn = page.getByRole('textbox', { name: 'Passée le' });
        // The plain box that stands in first loads Mantine's input when it is first used.
        await placedOn.focus();
        await expect.poll(() => placedOn.evaluate((box) => box.classList.contains('nf-input'))).toBe(false);
        expect(await placedOn.getAttribute('placeholder')).toBe('JJ/MM/AAAA');
        await placedOn.fill('01/05/2025');
        await placedOn.press('Enter');
        await page.waitForURL(/placedOn=2025-05-01/);
        await placedOn.fill('');
        await placedOn.press('Enter');
        await page.waitForURL((url) => !url.search.includes('placedOn'));
      }
      // The navigation and the role.
      if (width === 1280) {
        const navigation = page.getByRole('navigation', { name: /Navigation/ });
        await navigation.getByRole('link', { name: 'Nouvelle commande' }).waitFor();
        await page.getByText('Gérant').first().waitFor();
      }
      // A record: its fields' labels and the transitions' words.
      await listRecords(page).first().getByRole('link').first().click();
      await page.getByText('Passée le').first().waitFor();
      // An order's lines fit a phone in French's longer headers, which wrap between their words, not the
      // products' names inside theirs.
      if (width === 360) {
        const lines = page.getByRole('region', { name: 'Lignes' });
        await lines.waitFor();
        expect(await lines.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
      }
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `spec-words-fr-order-${width}`);
      // The home's figures.
      await page.goto(server.url);
      await page
        .getByRole('region', { name: 'Chiffre d’affaires par mois' })
        .locator('.recharts-line')
        .first()
        .waitFor();
      await page.getByRole('table', { name: 'Commandes par état' }).waitFor({ state: 'attached' });
      // French sets a space that does not break before a colon, in the donut's legend too.
      expect(await page.getByRole('region', { name: 'Commandes par état' }).textContent()).toMatch(
        /Brouillon\u00a0: \d+/,
      );
      await screenshot(page, `spec-words-fr-home-${width}`);
      // Back to English: the spec's own words again.
      if (width === 360) await page.getByRole('button', { name: 'Ouvrir la navigation' }).click();
      await page.getByLabel('Langue').selectOption('en');
      await page.getByRole('region', { name: 'Revenue by month' }).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('keeps a day typed before Mantine’s date input has loaded, and shows it in French order', async () => {
    const { page, problems } = await browser.newPage({ width: 1280, height: 900 });
    await signInAs(page, server, 'owner');
    await page.evaluate(() => localStorage.setItem('ninefold.locale', 'fr'));
    // Its code is slow to come: the day is typed into the box that stands in for it.
    await page.route(/\/DateInput-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto(`${server.url}orders`);
    const placedOn = page.getByRole('textbox', { name: 'Passée le' });
    await placedOn.fill('01/05/2025');
    await page.waitForURL(/placedOn=2025-05-01/);
    await expect.poll(() => placedOn.inputValue()).toBe('01/05/2025');
    expect(await placedOn.evaluate((box) => box.classList.contains('nf-input'))).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });
});
