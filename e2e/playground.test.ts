import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';

let browser: Browser;
let server: NinefoldProcess;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startNinefold('serve', 'examples/empty.md')]);
});
afterAll(async () => {
  await browser?.close();
  expect(await server?.stop()).toBe(0);
});

const preview = (page: Page) => page.getByRole('region', { name: 'Client preview' });
const checking = (page: Page) => page.getByRole('status', { name: 'Checking the text' });
const navigation = (page: Page) => preview(page).getByRole('navigation', { name: 'Navigation' });

/**
 * Puts the cursor at the end of the editor's first line that holds `text`, found as a person finds it
 * (the editor draws only the lines in view): the search panel, Enter, Escape, End.
 */
async function cursorAfter(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Specification text' }).click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Control+f');
  const search = page.getByRole('textbox', { name: 'Find' });
  await search.pressSequentially(text);
  await search.press('Enter');
  await search.press('Escape');
  await page.keyboard.press('End');
}

describe('the playground: the nine points beside the client they describe', () => {
  it('runs the rich example, shows a field as it is typed, keeps the client while the text is broken, and hides what a role may not see', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${server.url}_/playground`);
    // A fresh browser has no draft: the rich example, running on the prototype API in the tab.
    await navigation(page).getByRole('link', { name: 'New customer' }).click();
    const form = preview(page).getByRole('form').or(preview(page).locator('form')).first();
    await form.getByRole('textbox', { name: /^Name/ }).waitFor();
    expect(await form.getByRole('textbox', { name: /^Loyalty tier/ }).count()).toBe(0);
    await form.getByRole('textbox', { name: /^Name/ }).fill('Ada Marine');

    // A new field typed into the Customer entity appears in the form that is open, with what was typed kept.
    await cursorAfter(page, '| tags | list of text |');
    await page.keyboard.type('\n| loyaltyTier | text | Loyalty tier | | | | Account |');
    await page.keyboard.press('Escape');
    await form.getByRole('textbox', { name: /^Loyalty tier/ }).waitFor();
    expect(await form.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Ada Marine');
    await screenshot(page, 'playground-field-typed');

    // A broken line: the issue is shown at its line, and the client keeps running on the last good text.
    await page.keyboard.type('\n| flagship | reference to Boat | Flagship | | | | Account |');
    await page.keyboard.press('Escape');
    const issues = page.getByRole('list', { name: 'Issues in the text' });
    await issues.getByText(/Boat/).first().waitFor();
    const where = await issues.locator('li').first().textContent();
    const brokenLine = await page
      .locator('.cm-activeLineGutter')
      .first()
      .textContent()
      .then((text) => Number(text?.trim()));
    expect(where).toContain(`Line ${brokenLine},`);
    expect(await page.locator('.cm-lintRange-error').count()).toBeGreaterThan(0);
    await checking(page)
      .getByText(/the preview shows the last text without errors/)
      .waitFor();
    expect(await form.getByRole('textbox', { name: /^Loyalty tier/ }).isVisible()).toBe(true);
    expect(await form.getByRole('textbox', { name: /^Name/ }).inputValue()).toBe('Ada Marine');
    await screenshot(page, 'playground-broken');

    // Taking the broken line back out brings the text back to no errors.
    await page.keyboard.press('Control+Shift+k');
    await checking(page)
      .getByText(/^No errors/)
      .waitFor();

    // Seen as a customer, the screens of customers are gone; as the owner they come back.
    expect(await navigation(page).getByRole('link', { name: 'Customers' }).count()).toBe(1);
    await page.getByRole('combobox', { name: 'See it as' }).selectOption({ label: 'Trade customer' });
    await navigation(page).getByRole('link', { name: 'Orders' }).waitFor();
    expect(await navigation(page).getByRole('link', { name: 'Customers' }).count()).toBe(0);
    expect(await navigation(page).getByRole('link', { name: 'New customer' }).count()).toBe(0);
    await screenshot(page, 'playground-as-customer');

    expect(await seriousViolations(page)).toEqual([]);

    // The text downloads as it is, or written in YAML from its model.
    await page.getByRole('button', { name: 'Download' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'As YAML (.yaml)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('harbor-supply.yaml');
    const yaml = readFileSync((await download.path()) as string, 'utf8');
    expect(yaml).toMatch(/^title: Harbor Supply$/m);
    expect(yaml).toContain('loyaltyTier');

    // A shared link carries the text: a fresh browser (no draft, no storage) opens the same client.
    await page.getByRole('button', { name: 'Share link' }).click();
    const link = await page.getByRole('textbox', { name: 'Link to this text (copied)' }).inputValue();
    expect(link).toMatch(/\/_\/playground#md=[A-Za-z0-9_-]+$/);
    const other = await browser.newPage({ width: 360, height: 800 });
    await other.page.goto(link);
    await other.page.getByRole('button', { name: 'Open navigation' }).click();
    await navigation(other.page).getByRole('link', { name: 'New customer' }).click();
    await preview(other.page)
      .getByRole('textbox', { name: /^Loyalty tier/ })
      .waitFor();
    await screenshot(other.page, 'playground-shared-360');
    expect(await seriousViolations(other.page)).toEqual([]);
    expect(other.problems).toEqual([]);
    await other.page.close();

    // Nothing is lost on a reload: the text is kept as a draft.
    await page.goto(`${server.url}_/playground`);
    await checking(page)
      .getByText(/^No errors/)
      .waitFor();
    await cursorAfter(page, '| loyaltyTier | text |');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('opens a dropped file in place of the text, says so with a way back, and starts its preview at its home', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${server.url}_/playground`);
    await navigation(page).getByRole('link', { name: 'New customer' }).click();
    await preview(page).getByRole('textbox', { name: /^Name/ }).waitFor();

    // A ferry line of our own, dropped on the editor as a person drops a file.
    const ferry = readFileSync(new URL('./fixtures/ferry-sailings.yaml', import.meta.url), 'utf8');
    const transfer = await page.evaluateHandle((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], 'ferry-sailings.yaml', { type: 'text/yaml' }));
      return data;
    }, ferry);
    await page.dispatchEvent('.cm-content', 'drop', { dataTransfer: transfer });
    const notice = page
      .getByRole('alert')
      .filter({ hasText: 'ferry-sailings.yaml is open in place of the text you were editing.' });
    await notice.waitFor();
    // The preview is the ferry line's, at its home: not the shop's "/customers/new", which it lacks.
    await navigation(page).getByRole('link', { name: 'Sailings' }).waitFor();
    expect(await preview(page).getByText('Page not found').count()).toBe(0);
    await screenshot(page, 'playground-dropped');

    // The text that was there comes back with one click.
    await notice.getByRole('button', { name: 'Bring my text back' }).click();
    await navigation(page).getByRole('link', { name: 'New customer' }).waitFor();
    await notice.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await page.close();
  });
});
