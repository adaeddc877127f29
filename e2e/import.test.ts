import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusPath } from '../packages/openapi/test/support/corpus';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { signInAs } from './support/sign-in';

// The page any client offers at /_/import: an OpenAPI document read and imported in a Web Worker, with
// its progress in view, then a preview of the client it yields on records kept in memory.
describe.skipIf(CORPUS === undefined)('importing an OpenAPI document in the browser', () => {
  let browser: Browser;
  let server: NinefoldProcess;
  beforeAll(async () => {
    [browser, server] = await Promise.all([
      launchBrowser(),
      startNinefold('serve', 'examples/shop.md', ['--seed', '1']),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
  });

  it('imports Conduit from a chosen file and previews its client, then returns to the running one', async () => {
    const { page, problems } = await browser.newPage();
    // Signed in as the shop's owner, so that the running client's navigation is whole to come back to.
    await signInAs(page, server, 'owner');
    await page.goto(`${server.url}_/about`);
    await page.getByRole('link', { name: 'Preview an OpenAPI document' }).click();
    await page.getByRole('heading', { name: 'Preview an OpenAPI document' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page
      .getByLabel('OpenAPI document')
      .setInputFiles(corpusPath('realworld/conduit-openapi-3.1-v1.1.0.yml'));
    await page.getByText(/conduit-openapi-3\.1-v1\.1\.0\.yml imported \(OpenAPI 3\.1\)/).waitFor();
    await page.getByText(/\d+ entities, \d+ screens and \d+ calls/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'import-done');

    await page.getByRole('button', { name: 'Open the preview' }).click();
    await page.getByText('Preview of conduit-openapi-3.1-v1.1.0.yml').waitFor();
    const navigation = page.getByRole('navigation', { name: 'Navigation' });
    await navigation.getByRole('link', { name: 'Articles' }).click();
    await page.getByRole('heading', { name: 'Articles' }).waitFor();
    await screenshot(page, 'import-preview');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'End the preview' }).click();
    await page.getByRole('heading', { name: 'Preview an OpenAPI document' }).waitFor();
    await expect
      .poll(() =>
        page.getByRole('navigation', { name: 'Navigation' }).getByRole('link', { name: 'Customers' }).count(),
      )
      .toBe(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("imports GitHub's 13 MB document off the main thread, with its progress in view while the page keeps ticking", async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${server.url}_/import`);
    await page
      .getByLabel('OpenAPI document')
      .setInputFiles(corpusPath('github/api.github.com.octokit-23.0.2.json'));
    const step = page.getByRole('status').filter({ hasText: /Step \d of 4/ });
    await step.waitFor();
    // The elapsed-time counter is redrawn by the page's own timer: it moves only if the page is not frozen.
    // Read at once: a screenshot first could take long enough, on a busy machine, for the import to end.
    const elapsed = page.getByText(/\d+\.\d s$/);
    const first = await elapsed.textContent();
    await expect.poll(() => elapsed.textContent(), { timeout: 5_000 }).not.toBe(first);
    await screenshot(page, 'import-progress');
    await page
      .getByText(/api\.github\.com\.octokit-23\.0\.2\.json imported \(OpenAPI 3\.0\)/)
      .waitFor({ timeout: 60_000 });
    expect(problems).toEqual([]);
    await page.close();
  });
});
