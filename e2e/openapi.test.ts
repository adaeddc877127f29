import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusPath } from '../packages/openapi/test/support/corpus';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';

// Conduit's OpenAPI document, imported on the fly by `serve` and served on its own prototype API.
describe.skipIf(CORPUS === undefined)('an OpenAPI document as the SPEC of ninefold serve', () => {
  let browser: Browser;
  let server: NinefoldProcess;
  beforeAll(async () => {
    [browser, server] = await Promise.all([
      launchBrowser(),
      startNinefold('serve', corpusPath('realworld/conduit-openapi-3.1-v1.1.0.yml'), ['--seed', '8']),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
  });

  it('lists the articles, opens one, and filters the list, as the document describes them', async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(server.url);
    const navigation = page.getByRole('navigation', { name: 'Navigation' });
    await navigation.getByRole('link', { name: 'Articles' }).click();
    await page.getByRole('heading', { name: 'Articles' }).waitFor();
    const api = await (await fetch(new URL('api/articles?limit=8', server.url))).json();
    const first = api.articles[0] as { slug: string; title: string; author: string };
    const row = page.getByRole('row').filter({ hasText: first.slug.slice(0, 12) });
    await row.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'openapi-list');

    await row.getByRole('link').first().click();
    await page.waitForURL(`${server.url}articles/${first.slug}`);
    await page.getByRole('heading', { name: first.title }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'openapi-detail');

    // The document's `author` query parameter filters the list; the client offers it by its label.
    await page.goto(`${server.url}articles`);
    await page.getByLabel('Author').fill(first.author);
    await page.waitForURL(/author=/);
    const rows = page.getByRole('row');
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    const expected = api.articles.filter(
      (article: { author: string }) => article.author === first.author,
    ).length;
    await expect.poll(async () => (await rows.count()) - 1).toBe(expected);
    expect(problems).toEqual([]);
    await page.close();
  });
});
