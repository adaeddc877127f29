import { createServer, request, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusPath } from '../packages/openapi/test/support/corpus';
import { screenshot } from './support/artifacts';
import { seriousViolations } from './support/axe';
import { type Browser, launchBrowser } from './support/browser';
import { type NinefoldProcess, startNinefold } from './support/ninefold';
import { freePort, type PrismProcess, startPrism } from './support/prism';

// Clients imported from OpenAPI documents of the corpus, running in `ninefold dev --api` against a real
// external API process: Stoplight Prism serving the same document as a mock, which checks every request
// against the document and answers with records made up from its schemas (extra undocumented fields and
// nonsense numbers included, as real APIs drift from their documents). Sign-in does not exist yet, so
// only public calls are used.

interface ApiAnswer {
  /** `/api/articles?offset=0&limit=25`, as the page asked for it. */
  path: string;
  status: number;
  /** What Prism found wrong with the request, when anything. */
  violations?: string;
}

/** Every answer the page gets from the dev server's `/api/`, with Prism's verdict on the request. */
function watchApi(page: Page, base: string): ApiAnswer[] {
  const answers: ApiAnswer[] = [];
  const api = new URL('api/', base).href;
  page.on('response', (response) => {
    if (!response.url().startsWith(api)) return;
    const violations = response.headers()['sl-violations'];
    answers.push({
      path: response.url().slice(base.length - 1),
      status: response.status(),
      ...(violations === undefined ? {} : { violations }),
    });
  });
  return answers;
}

/** What the API answers, asked through the same dev proxy the page uses. */
async function answer<T>(dev: NinefoldProcess, path: string): Promise<T> {
  const response = await fetch(new URL(`api/${path}`, dev.url));
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** One raw request to the dev server, with the request target exactly as given (no normalizing). */
function rawRequest(
  base: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolveAnswer, reject) => {
    const sent = request({ host: hostname, port, path: target, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        resolveAnswer({
          status: response.statusCode ?? 0,
          type: String(response.headers['content-type'] ?? ''),
          body,
        }),
      );
    });
    sent.on('error', reject);
    sent.end();
  });
}

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Prism and `ninefold dev --api` for one corpus document, started side by side. */
function serveWithPrism(document: string, seed: string) {
  const running: { prism?: PrismProcess; dev?: NinefoldProcess } = {};
  beforeAll(async () => {
    const port = await freePort();
    await Promise.all([
      startPrism(corpusPath(document), { port, seed }).then((prism) => {
        running.prism = prism;
      }),
      // The proxy needs only Prism's address to start; the first request finds Prism listening.
      startNinefold('dev', corpusPath(document), ['--api', `http://127.0.0.1:${port}`]).then((dev) => {
        running.dev = dev;
      }),
    ]);
  });
  afterAll(async () => {
    const [devExit] = await Promise.all([running.dev?.stop(), running.prism?.stop()]);
    if (running.dev) expect(devExit).toBe(0);
  });
  return {
    get prism(): PrismProcess {
      if (!running.prism) throw new Error('Prism did not start');
      return running.prism;
    },
    get dev(): NinefoldProcess {
      if (!running.dev) throw new Error('ninefold dev did not start');
      return running.dev;
    },
  };
}

async function open(path: string, dev: NinefoldProcess) {
  if (!browser) throw new Error('the browser did not start');
  const watched = await browser.newPage();
  const api = watchApi(watched.page, dev.url);
  await watched.page.goto(new URL(path, dev.url).href);
  return { ...watched, api };
}

interface Article {
  slug: string;
  title: string;
  description: string;
  author: { username: string };
}

describe.skipIf(CORPUS === undefined)('Conduit (OpenAPI 3.1) in ninefold dev, against Prism', () => {
  // This seed makes Prism answer three articles with a negative `articlesCount`: drift the list must survive.
  const served = serveWithPrism('realworld/conduit-openapi-3.1-v1.1.0.yml', 'conduit');

  it('lists the articles Prism answers, opens one, filters the list by author, and lists comments', async () => {
    const { dev, prism } = served;
    const { page, problems, api } = await open('/', dev);
    await page
      .getByRole('navigation', { name: 'Navigation' })
      .getByRole('link', { name: 'Articles' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Articles' }).waitFor();
    const listed = await answer<{ articles: Article[]; articlesCount: number }>(
      dev,
      'articles?offset=0&limit=25',
    );
    expect(listed.articles.length).toBeGreaterThan(1);
    const table = page.getByRole('table', { name: 'Articles' });
    for (const article of listed.articles)
      await table.getByRole('link', { name: article.title, exact: true }).waitFor();
    expect(await table.getByRole('row').count()).toBe(listed.articles.length + 1);
    // A count that is no count (negative) is not shown as a total: the pager counts only what it has.
    expect(listed.articlesCount).toBeLessThan(0);
    await page.getByText(`Showing 1–${listed.articles.length}`, { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'prism-conduit-list');

    // The detail call answers `{ "article": {...} }` plus undocumented fields; the screen shows the record.
    const [first] = listed.articles as [Article];
    const slug = encodeURIComponent(first.slug);
    await table.getByRole('link', { name: first.title, exact: true }).click();
    await page.waitForURL(new URL(`articles/${slug}`, dev.url).href);
    const { article } = await answer<{ article: Article }>(dev, `articles/${slug}`);
    await page.getByRole('heading', { level: 1, name: article.title, exact: true }).waitFor();
    await page.getByText(article.description, { exact: true }).waitFor();
    // The author arrives as a whole profile; it names it by its key and links to its screen.
    const author = page.getByRole('link', { name: article.author.username, exact: true });
    expect(await author.getAttribute('href')).toBe(
      `/profiles/${encodeURIComponent(article.author.username)}`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'prism-conduit-detail');

    // The document's `author` query parameter is the list's Author filter. Prism does not really filter,
    // so what is checked is the call (made, with the parameter, and accepted by Prism) and the page.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Articles' }).waitFor();
    const filtered = page.waitForResponse(
      (response) => new URL(response.url()).searchParams.get('author') === first.author.username,
    );
    await page.getByLabel('Author').fill(first.author.username);
    const response = await filtered;
    expect(response.status()).toBe(200);
    expect(new URL(response.url()).pathname).toBe('/api/articles');
    expect(new URL(page.url()).searchParams.get('author')).toBe(first.author.username);
    await page.getByRole('button', { name: 'Clear filters' }).waitFor();
    await table.getByRole('link', { name: first.title, exact: true }).waitFor();
    expect(await page.getByLabel('Author').inputValue()).toBe(first.author.username);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'prism-conduit-filtered');

    // The article's comments: the nested list `/articles/:slug/comments`, reached by its address.
    await page.goto(new URL(`articles/${slug}/comments`, dev.url).href);
    await page.getByRole('heading', { level: 1, name: 'Comments' }).waitFor();
    const { comments } = await answer<{ comments: Array<{ body: string }> }>(
      dev,
      `articles/${slug}/comments`,
    );
    expect(comments.length).toBeGreaterThan(0);
    const commentTable = page.getByRole('table', { name: 'Comments' });
    for (const comment of comments) await commentTable.getByText(comment.body, { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Every call the client made was one the document allows, and each reached Prism.
    expect(api.filter((seen) => seen.status !== 200 || seen.violations !== undefined)).toEqual([]);
    expect(api.map((seen) => seen.path)).toEqual(
      expect.arrayContaining([`/api/articles/${slug}`, `/api/articles/${slug}/comments`]),
    );
    await expect
      .poll(() => prism.requests())
      .toEqual(
        expect.arrayContaining(['GET /articles', `GET /articles/${slug}`, `GET /articles/${slug}/comments`]),
      );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('forwards to Prism and to no other host, whatever the request target tries', async () => {
    const { dev, prism } = served;
    // A server standing for any other host the proxy might be talked into reaching.
    let reached = 0;
    const canary: Server = createServer((_request, response) => {
      reached += 1;
      response.end('canary');
    });
    const port = await freePort();
    await new Promise<void>((resolveListen) => canary.listen(port, '127.0.0.1', resolveListen));
    try {
      const other = `127.0.0.1:${port}`;
      const before = prism.requests().length;
      const refused = [
        '/api/..%2f..%2fx',
        '/api/%2e%2e/%2e%2e/tags',
        '/api/../../tags',
        `/api/%5c%5c${other}/tags`,
        `/api//${other}/tags`,
        `http://${other}/api/tags`,
      ];
      for (const target of refused) {
        const answered = await rawRequest(dev.url, target);
        expect({ target, status: answered.status, type: answered.type }).toEqual({
          target,
          status: 400,
          type: expect.stringContaining('application/problem+json'),
        });
      }
      // Not under /api/ at all: the client's page, not a forward.
      const protocolRelative = await rawRequest(dev.url, `//${other}/api/tags`);
      expect(protocolRelative.body).not.toContain('canary');
      // Stays a path on Prism's origin, where Prism answers it is no path of the document.
      const userinfo = await rawRequest(dev.url, `/api/@${other}/tags`);
      expect(userinfo.status).toBe(404);
      // The client's Host and forwarding headers do not choose the upstream.
      const hosted = await rawRequest(dev.url, '/api/tags', {
        host: other,
        'x-forwarded-host': other,
        forwarded: `host=${other}`,
      });
      expect(hosted.status).toBe(200);
      expect(JSON.parse(hosted.body)).toHaveProperty('tags');

      expect(reached).toBe(0);
      // Prism saw the two requests that stayed under the prefix, and none of the refused ones.
      await expect
        .poll(() => prism.requests().slice(before).sort())
        .toEqual([`GET /@${other}/tags`, 'GET /tags']);
    } finally {
      await new Promise((resolveClose) => canary.close(resolveClose));
    }
  });
});

interface FineTune {
  id: string;
  model: string;
}

describe.skipIf(CORPUS === undefined)(
  'OpenAI (OpenAPI 3.0) fine-tunes and their events, against Prism',
  () => {
    // `/fine-tunes/{fine_tune_id}/events` is a collection under an item: the nested list screen
    // `/fine-tunes/:fine_tune_id/events`. Prism's ids are words with spaces, which the paths must carry.
    const served = serveWithPrism('apis-guru/openai.com.json', 'ninefold');

    it('opens a fine-tune from its list, then the events listed under it', async () => {
      const { dev, prism } = served;
      const { page, problems, api } = await open('/', dev);
      await page
        .getByRole('navigation', { name: 'Navigation' })
        .getByRole('link', { name: 'FineTune' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'FineTune' }).waitFor();
      const listed = await answer<{ data: FineTune[] }>(dev, 'fine-tunes');
      expect(listed.data.length).toBeGreaterThan(1);
      const table = page.getByRole('table', { name: 'FineTune' });
      // Each row links to its record, through the detail route's own parameter (`:fine_tune_id`).
      for (const fineTune of listed.data)
        await table.getByRole('link', { name: fineTune.id, exact: true }).waitFor();
      expect(await table.getByRole('row').count()).toBe(listed.data.length + 1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'prism-openai-list');

      const [first] = listed.data as [FineTune];
      const id = encodeURIComponent(first.id);
      await table.getByRole('link', { name: first.id, exact: true }).click();
      await page.waitForURL(new URL(`fine-tunes/${id}`, dev.url).href);
      await page.getByRole('heading', { level: 1, name: `FineTune ${first.id}` }).waitFor();
      const detail = await answer<FineTune>(dev, `fine-tunes/${id}`);
      await page.getByText(detail.model, { exact: true }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'prism-openai-detail');

      // The detail links to its sub-resource, the nested list of this fine-tune's events.
      const events = page.waitForResponse(
        (response) => new URL(response.url()).pathname === `/api/fine-tunes/${id}/events`,
      );
      await page
        .getByRole('navigation', { name: 'Related' })
        .getByRole('link', { name: 'FineTuneEvent' })
        .click();
      await page.waitForURL(new URL(`fine-tunes/${id}/events`, dev.url).href);
      expect((await events).status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'FineTuneEvent' }).waitFor();
      const listedEvents = await answer<{ data: Array<{ message: string }> }>(dev, `fine-tunes/${id}/events`);
      expect(listedEvents.data.length).toBeGreaterThan(0);
      const eventTable = page.getByRole('table', { name: 'FineTuneEvent' });
      for (const event of listedEvents.data)
        await eventTable.getByText(event.message, { exact: true }).first().waitFor();
      expect(await eventTable.getByRole('row').count()).toBe(listedEvents.data.length + 1);
      // And the nested list links back to the fine-tune it belongs to.
      const back = page.getByRole('link', { name: `← FineTune ${first.id}` });
      expect(await back.getAttribute('href')).toBe(`/fine-tunes/${id}`);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'prism-openai-events');

      expect(api.filter((seen) => seen.status !== 200 || seen.violations !== undefined)).toEqual([]);
      // Prism got the parent's id in the path, encoded as the page sent it.
      await expect
        .poll(() => prism.requests())
        .toEqual(
          expect.arrayContaining([
            'GET /fine-tunes',
            `GET /fine-tunes/${id}`,
            `GET /fine-tunes/${id}/events`,
          ]),
        );
      expect(problems).toEqual([]);
      await page.close();
    });
  },
);
