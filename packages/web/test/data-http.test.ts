import type { ApiDescription } from '@ninefold/model';
import { describeApi, loadSpec, type Model } from '@ninefold/model';
import { buildApp, openStore, type Store } from '@ninefold/server';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { pointsSaid } from '../../../test/support/points-said';
import { ApiError, type DataProvider, NetworkError } from '../src/data/data-provider';
import { MissingCallError } from '../src/data/entity-calls';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { parseLinkHeader } from '../src/data/link-header';
import { BodyEncodingError, encodeBody } from '../src/data/request-body';
import { injectRequest, signInAsOwner } from './support/in-process-api';
import { loadExample } from './support/load-example';

const NOW = new Date('2026-06-01T12:00:00Z');

function load(text: string, file: string): Model {
  const result = loadSpec(file.endsWith('.yaml') ? pointsSaid(text) : text, { file });
  if (!result.ok || !result.model) throw new Error(`${file} must load: ${JSON.stringify(result.issues)}`);
  return result.model;
}

const shop = loadExample('shop.yaml');

const opened: Array<{ app: FastifyInstance; store: Store }> = [];
afterEach(async () => {
  for (const { app, store } of opened.splice(0)) {
    await app.close();
    await store.close();
  }
});

/** What the provider sent, as the API saw it. */
interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * The real prototype API on in-memory SQLite, reached through a fetch that hands each request to
 * `app.inject`: the provider's requests are real HTTP requests, only without a port.
 */
async function serve(model: Model) {
  const store = await openStore({ model, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model, store, now: () => NOW });
  opened.push({ app, store });
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const url = String(input);
    const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
    // As the browser sends it: a multipart body's content type carries its boundary.
    if (init.body instanceof FormData) {
      headers['content-type'] = new Response(init.body).headers.get('content-type') ?? '';
    }
    sent.push({ method: init.method ?? 'GET', url, headers });
    return injectRequest(app, url, init);
  };
  const api = describeApi(model) as ApiDescription;
  // Where point 6 restricts the API (the rich example), the calls are made as its owner.
  const owner = model.roles.shown && model.roles.roles.some((role) => role.name === 'owner');
  const authorization = owner ? `Bearer ${(await signInAsOwner(app, store, model)).token}` : undefined;
  const data = createHttpDataProvider(api, model, {
    fetch,
    ...(authorization ? { authHeaders: () => ({ authorization }) } : {}),
  });
  return { app, store, data, sent };
}

const address = { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' };

async function seedShop(data: DataProvider) {
  const customers = [];
  for (const [name, country, creditLimit] of [
    ['Anna Berg', 'SE', 1000],
    ['Bo Ek', 'DK', 500],
    ['Cleo Dahl', 'SE', 2500],
    ['Dan Falk', 'SE', 0],
  ] as const) {
    const email = `${name.split(' ')[0]?.toLowerCase()}@example.com`;
    customers.push(
      (await data.create({ entity: 'Customer', values: { name, email, country, creditLimit } })).record,
    );
  }
  const product = (
    await data.create({
      entity: 'Product',
      values: { sku: 'RG-1001', name: 'Mooring line', category: 'rigging', price: 24.5, stock: 10 },
    })
  ).record;
  return { customers, product };
}

describe('HTTP data provider against the prototype API', () => {
  it('lists with sort, filters and pages, by the parameters the calls name', async () => {
    const { data, sent } = await serve(shop);
    await seedShop(data);
    const first = await data.list({
      entity: 'Customer',
      page: { style: 'page', page: 1, size: 2 },
      sort: [{ field: 'creditLimit', direction: 'desc' }],
      filters: [{ field: 'country', op: 'eq', value: 'SE' }],
    });
    expect(sent.at(-1)?.url).toBe('/api/customers?page=1&limit=2&sort=-creditLimit&country=SE');
    expect(first.items.map((c) => c.name)).toEqual(['Cleo Dahl', 'Anna Berg']);
    expect(first.total).toBe(3);
    expect(first.hasNext).toBe(true);

    const second = await data.list({
      entity: 'Customer',
      page: { style: 'page', page: 2, size: 2 },
      sort: [{ field: 'creditLimit', direction: 'desc' }],
      filters: [{ field: 'country', op: 'eq', value: 'SE' }],
    });
    expect(second.items.map((c) => c.name)).toEqual(['Dan Falk']);
    expect(second.hasNext).toBe(false);

    const named = await data.list({
      entity: 'Customer',
      page: { style: 'page', page: 1, size: 10 },
      sort: [{ field: 'name', direction: 'asc' }],
      filters: [{ field: 'name', op: 'contains', value: 'an' }],
    });
    expect(named.items.map((c) => c.name)).toEqual(['Anna Berg', 'Dan Falk']);
  });

  it('gets a record with its version, and answers a missing one with a 404 ApiError', async () => {
    const { data } = await serve(shop);
    const { customers } = await seedShop(data);
    const read = await data.get({ entity: 'Customer', id: String(customers[0]?.id) });
    expect(read.record).toMatchObject({ name: 'Anna Berg', email: 'anna@example.com' });
    expect(read.version).toBe('"1"');
    const missing = await data.get({ entity: 'Customer', id: '999' }).catch((error) => error);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('fills path parameters URL-encoded', async () => {
    const { data, sent } = await serve(shop);
    await data.get({ entity: 'Customer', id: 'a/b?c' }).catch(() => undefined);
    expect(sent.at(-1)?.url).toBe('/api/customers/a%2Fb%3Fc');
  });

  it('updates with If-Match, and a stale version is a 412 ApiError that changes nothing', async () => {
    const { data, sent } = await serve(shop);
    const { customers } = await seedShop(data);
    const id = String(customers[0]?.id);
    const { version } = await data.get({ entity: 'Customer', id });
    const updated = await data.update({ entity: 'Customer', id, values: { country: 'FI' }, version });
    expect(sent.at(-1)?.headers['if-match']).toBe('"1"');
    expect(updated.record.country).toBe('FI');
    expect(updated.version).toBe('"2"');

    const stale = await data
      .update({ entity: 'Customer', id, values: { country: 'DE' }, version })
      .catch((error) => error);
    expect(stale).toBeInstanceOf(ApiError);
    expect(stale).toMatchObject({ status: 412, code: 'CHANGED_SINCE_READ' });
    expect((await data.get({ entity: 'Customer', id })).record.country).toBe('FI');
  });

  it('deletes', async () => {
    const { data } = await serve(shop);
    const { customers } = await seedShop(data);
    const id = String(customers[1]?.id);
    await data.delete({ entity: 'Customer', id });
    await expect(data.get({ entity: 'Customer', id })).rejects.toMatchObject({ status: 404 });
  });

  it('creates an order as multipart with a file, which the API serves back as a download', async () => {
    const { app, data, sent } = await serve(shop);
    const { customers, product } = await seedShop(data);
    const pdf = new File(['%PDF-1.4 purchase order'], 'po 7.pdf', { type: 'application/pdf' });
    const created = await data.create({
      entity: 'Order',
      values: {
        customer: customers[0]?.id,
        shippingAddress: address,
        lines: [{ product: product.id, quantity: 2, unitPrice: 24.5 }],
        notes: 'Leave at the *gate*.',
        attachment: pdf,
      },
    });
    expect(sent.at(-1)?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(created.record).toMatchObject({
      customer: customers[0]?.id,
      status: 'draft',
      total: 49,
      shippingAddress: address,
      notes: 'Leave at the *gate*.',
      attachment: { name: 'po 7.pdf', type: 'application/pdf', size: 23 },
    });
    const attachment = created.record.attachment as { url: string; id: string };
    // A plain link carries no credentials: the API refuses it, and the provider fetches with them.
    expect((await app.inject({ url: attachment.url })).statusCode).toBe(401);
    const bytes = await data.download?.(attachment.url);
    expect(await bytes?.text()).toBe('%PDF-1.4 purchase order');
    expect(sent.at(-1)?.headers.authorization).toMatch(/^Bearer /);
    const download = await app.inject({
      url: attachment.url,
      headers: { authorization: sent.at(-1)?.headers.authorization ?? '' },
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('%PDF-1.4 purchase order');
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
  });

  it('takes transitions by their calls, and an illegal one is a 409 ApiError', async () => {
    const { data, sent } = await serve(shop);
    const { customers, product } = await seedShop(data);
    const order = await data.create({
      entity: 'Order',
      values: {
        customer: customers[0]?.id,
        shippingAddress: address,
        lines: [{ product: product.id, quantity: 1, unitPrice: 24.5 }],
      },
    });
    const id = String(order.record.id);
    const placed = await data.transition({
      entity: 'Order',
      id,
      transition: 'place',
      version: order.version,
    });
    expect(sent.at(-1)).toMatchObject({ method: 'POST', url: `/api/orders/${id}/place` });
    expect(sent.at(-1)?.headers['if-match']).toBe(order.version);
    expect(placed.record).toMatchObject({ status: 'placed', placedOn: '2026-06-01' });
    await expect(data.transition({ entity: 'Order', id, transition: 'ship' })).rejects.toMatchObject({
      name: 'ApiError',
      status: 409,
      code: 'ILLEGAL_TRANSITION',
    });
  });

  it('maps validation errors to field errors with pointers, for JSON and multipart bodies', async () => {
    const { data } = await serve(shop);
    const { customers, product } = await seedShop(data);
    const json = await data
      .create({ entity: 'Customer', values: { name: 'Eva', email: 'not an address' } })
      .catch((error) => error);
    expect(json).toBeInstanceOf(ApiError);
    expect(json.status).toBe(422);
    expect(json.code).toBe('VALIDATION_FAILED');
    expect(json.fieldErrors).toEqual([
      { pointer: '/email', code: 'pattern', message: 'Enter an email address such as name@example.com.' },
    ]);

    const multipart = await data
      .create({
        entity: 'Order',
        values: {
          customer: customers[0]?.id,
          shippingAddress: address,
          lines: [{ product: product.id, quantity: 0, unitPrice: 24.5 }],
          attachment: new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }),
        },
      })
      .catch((error) => error);
    expect(multipart).toBeInstanceOf(ApiError);
    expect(multipart.fieldErrors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '/attachment',
      '/lines/0/quantity',
    ]);
  });

  it('rejects a method whose call the specification does not name, without a request', async () => {
    const { data, sent } = await serve(shop);
    await expect(data.get({ entity: 'OrderLine', id: '1' })).rejects.toBeInstanceOf(MissingCallError);
    await expect(data.transition({ entity: 'Order', id: '1', transition: 'fly' })).rejects.toBeInstanceOf(
      MissingCallError,
    );
    expect(sent).toEqual([]);
  });
});

describe('HTTP data provider without an answer', () => {
  const api = describeApi(shop) as ApiDescription;

  it('turns a failed fetch into a NetworkError', async () => {
    // Without retries: their backoff is tested in retry.test.ts, and would only slow this down.
    const data = createHttpDataProvider(api, shop, {
      retry: false,
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const error = await data.get({ entity: 'Customer', id: '1' }).catch((e) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe('Failed to fetch');
  });

  /** A server that never answers, but stops when the request is aborted, as fetch does. */
  const silent: typeof fetch = (_input, init) =>
    new Promise((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });

  it('turns a timeout into a NetworkError', async () => {
    const data = createHttpDataProvider(api, shop, { fetch: silent, timeoutMs: 20, retry: false });
    await expect(data.get({ entity: 'Customer', id: '1' })).rejects.toBeInstanceOf(NetworkError);
  });

  it("lets the caller's own abort through as an AbortError", async () => {
    const data = createHttpDataProvider(api, shop, { fetch: silent });
    const controller = new AbortController();
    const pending = data.get({ entity: 'Customer', id: '1', signal: controller.signal });
    controller.abort();
    const error = await pending.catch((e) => e);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect(error.name).toBe('AbortError');
  });
});

describe('HTTP data provider reading answers', () => {
  const api = describeApi(shop) as ApiDescription;
  const answering = (response: () => Response) =>
    createHttpDataProvider(api, shop, { fetch: async () => response() });

  it('gives a generic ApiError for a body that is not a problem, never its HTML', async () => {
    const data = answering(
      () =>
        new Response('<html><script>alert(1)</script>Bad gateway</html>', {
          status: 502,
          statusText: 'Bad Gateway',
          headers: { 'content-type': 'text/html' },
        }),
    );
    const error = await data.get({ entity: 'Customer', id: '1' }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, title: 'Bad Gateway', detail: undefined, fieldErrors: [] });
    expect(error.message).not.toContain('<');
  });

  it('clips every text of a problem and keeps its reference', async () => {
    const long = 'x'.repeat(5000);
    const data = answering(
      () =>
        new Response(
          JSON.stringify({
            title: long,
            detail: long,
            code: 'BOOM',
            status: 500,
            reference: 'ref-1',
            extra: { ignored: true },
            errors: [
              { pointer: '/name', detail: long },
              { pointer: 'not-a-pointer', detail: 'dropped' },
            ],
          }),
          { status: 599, headers: { 'content-type': 'application/problem+json' } },
        ),
    );
    const error = await data.get({ entity: 'Customer', id: '1' }).catch((e) => e);
    expect(error).toMatchObject({ status: 599, code: 'BOOM', reference: 'ref-1' });
    expect(error.title.length).toBeLessThanOrEqual(301);
    expect(error.detail.length).toBeLessThanOrEqual(301);
    expect(error.fieldErrors).toHaveLength(1);
    expect(error.fieldErrors[0].message.length).toBeLessThanOrEqual(301);
  });

  describe('one record wrapped in an object, as Conduit answers it', () => {
    const articles = load(
      `title: Articles
entities:
  Article:
    key: slug
    display: title
    fields:
      slug: { kind: text }
      title: { kind: text }
      meta: { kind: object, entity: Meta }
  Meta:
    embedded: true
    fields:
      title: { kind: text }
calls:
  operations:
    getArticle:
      method: GET
      path: /articles/{slug}
      purpose: get
      entity: Article
      response: { shape: one, entity: Article }
`,
      'articles.yaml',
    );
    const reading = (body: unknown) =>
      createHttpDataProvider(describeApi(articles) as ApiDescription, articles, {
        fetch: async () => Response.json(body),
      }).get({ entity: 'Article', id: 'hello' });

    it('reads the record inside the wrapper, whatever undocumented fields sit beside it', async () => {
      const article = { slug: 'hello', title: 'Hello' };
      expect((await reading({ article })).record).toEqual(article);
      expect((await reading({ article, extra: 7, note: { other: true } })).record).toEqual(article);
    });

    it('keeps a body that has fields of its own, or two candidates, as it is', async () => {
      // The record itself, with an object field that also looks like the entity: not a wrapper.
      const own = { slug: 'hello', meta: { title: 'Meta' } };
      expect((await reading(own)).record).toEqual(own);
      // Two objects that could each be the record: the client does not pick one.
      const two = { a: { title: 'A' }, b: { title: 'B' } };
      expect((await reading(two)).record).toEqual(two);
    });
  });
});

describe('HTTP data provider in every pagination style', () => {
  const ENTITIES = `
entities:
  Note:
    key: id
    display: title
    fields:
      id: { kind: integer, readOnly: true }
      title: { kind: text }
      rank: { kind: integer }
`;
  const spec = (pagination: string, response: string, extra = '') =>
    load(
      `title: Notes\n${ENTITIES}
calls:
  operations:
    listNotes:
      method: GET
      path: /notes
      purpose: list
      entity: Note
      response: ${response}
      pagination: ${pagination}
      sort: { fields: [rank]${extra} }
      filters: [{ field: rank, op: in }, { field: title, op: contains }]
`,
      'notes.yaml',
    );

  async function notes(model: Model, count: number) {
    const served = await serve(model);
    for (let rank = 1; rank <= count; rank++)
      await served.store.create('Note', { title: `Note ${rank}`, rank });
    return served;
  }

  it('cursor: follows the next cursor to the end', async () => {
    const { data } = await notes(
      spec(
        '{ style: cursor, cursorParam: after, sizeParam: first, nextField: next }',
        '{ shape: envelope, items: items }',
      ),
      12,
    );
    const seen: unknown[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 5; round++) {
      const page = await data.list({
        entity: 'Note',
        page: { style: 'cursor', size: 5, ...(cursor ? { cursor } : {}) },
        sort: [{ field: 'rank', direction: 'desc' }],
        filters: [],
      });
      seen.push(...page.items.map((note) => note.rank));
      if (!page.next) {
        expect(page.hasNext).toBe(false);
        break;
      }
      cursor = page.next;
    }
    expect(seen).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('offset: offset and limit, with an `in` filter comma-joined', async () => {
    const { data, sent } = await notes(spec('offset', '{ shape: envelope, items: items, total: total }'), 12);
    const page = await data.list({
      entity: 'Note',
      page: { style: 'offset', offset: 1, limit: 2 },
      sort: [{ field: 'rank', direction: 'asc' }],
      filters: [{ field: 'rank', op: 'in', value: ['2', '4', '6', '8'] }],
    });
    expect(sent.at(-1)?.url).toBe('/api/notes?offset=1&limit=2&sort=rank&rank=2%2C4%2C6%2C8');
    expect(page.items.map((note) => note.rank)).toEqual([4, 6]);
    expect(page.total).toBe(4);
    expect(page.hasNext).toBe(true);
  });

  it('link-header: a bare array, X-Total-Count, and the next link followed', async () => {
    const { data, sent } = await notes(
      spec('{ style: link-header, sizeParam: per_page }', '{ shape: array }', ', style: "field:asc"'),
      12,
    );
    const request = (page: number) =>
      data.list({
        entity: 'Note',
        page: { style: 'link-header', page, size: 5 },
        sort: [{ field: 'rank', direction: 'desc' }],
        filters: [],
      });
    const first = await request(1);
    expect(sent.at(-1)?.url).toBe('/api/notes?per_page=5&sort=rank%3Adesc');
    expect(first.items.map((note) => note.rank)).toEqual([12, 11, 10, 9, 8]);
    expect(first).toMatchObject({ total: 12, hasNext: true });
    const second = await request(2);
    // The URL the API's Link header gave, not one the client made up.
    expect(sent.at(-1)?.url).toBe('/api/notes?per_page=5&sort=rank%3Adesc&page=2');
    expect(second.items.map((note) => note.rank)).toEqual([7, 6, 5, 4, 3]);
    const third = await request(3);
    expect(third.items.map((note) => note.rank)).toEqual([2, 1]);
    expect(third.hasNext).toBe(false);
  });

  it('none: every record at once', async () => {
    const { data, sent } = await notes(spec('none', '{ shape: array }'), 7);
    const all = await data.list({
      entity: 'Note',
      page: { style: 'none' },
      sort: [],
      filters: [{ field: 'title', op: 'contains', value: 'Note' }],
    });
    expect(sent.at(-1)?.url).toBe('/api/notes?title=Note');
    expect(all.items).toHaveLength(7);
    expect(all.hasNext).toBe(false);
  });
});

describe('request bodies', () => {
  it('sends only the fields the call names, as JSON', async () => {
    const encoded = encodeBody(
      { entity: 'Customer', fields: ['name', 'active'], encoding: 'json' },
      { name: 'Anna', active: false, email: 'left@out', notes: undefined },
    );
    expect(encoded).toEqual({ body: '{"name":"Anna","active":false}', contentType: 'application/json' });
  });

  it('encodes forms and multipart by the documented convention', async () => {
    const values = { name: 'Anna', limit: 12.5, active: true, phone: null, tags: ['a', 'b'] };
    const form = encodeBody({ entity: 'Customer', encoding: 'form' }, values);
    expect(String(form.body)).toBe('name=Anna&limit=12.5&active=true&phone=&tags=%5B%22a%22%2C%22b%22%5D');

    const file = new File(['%PDF'], 'po.pdf', { type: 'application/pdf' });
    const multipart = encodeBody({ entity: 'Order', encoding: 'multipart' }, { ...values, attachment: file });
    expect(multipart.contentType).toBeUndefined();
    const parts = multipart.body as FormData;
    expect(parts.get('limit')).toBe('12.5');
    expect(parts.get('phone')).toBe('');
    expect(parts.get('tags')).toBe('["a","b"]');
    const sentFile = parts.get('attachment') as File;
    expect(sentFile.name).toBe('po.pdf');
    expect(await sentFile.text()).toBe('%PDF');
    expect(() => encodeBody({ entity: 'Order', encoding: 'json' }, { attachment: file })).toThrow(
      BodyEncodingError,
    );
  });
});

describe('Link headers', () => {
  it('reads each relation, quoted or not', () => {
    expect(
      parseLinkHeader('</api/n?page=1>; rel="prev", </api/n?a=1,2&page=3>; rel="next last", <x>; rel=first'),
    ).toEqual({
      prev: '/api/n?page=1',
      next: '/api/n?a=1,2&page=3',
      last: '/api/n?a=1,2&page=3',
      first: 'x',
    });
    expect(parseLinkHeader(null)).toEqual({});
  });

  it('never follows a next link to another origin', async () => {
    const api = {
      base: 'https://api.example.com/v1',
      conventional: false,
      calls: [
        {
          name: 'listNotes',
          method: 'GET' as const,
          path: '/notes',
          purpose: 'list' as const,
          entity: 'Note',
          parameters: [],
          filters: [],
          response: { shape: 'array' as const },
          pagination: { style: 'link-header' as const },
        },
      ],
    };
    const model = load(
      'title: Notes\nentities:\n  Note:\n    key: id\n    fields:\n      id: { kind: integer }\n',
      'n.yaml',
    );
    const urls: string[] = [];
    const data = createHttpDataProvider(api, model, {
      fetch: async (input) => {
        urls.push(String(input));
        return new Response('[]', { headers: { link: '<https://evil.example/steal?page=2>; rel="next"' } });
      },
    });
    const request = (page: number) =>
      data.list({ entity: 'Note', page: { style: 'link-header', page }, sort: [], filters: [] });
    expect((await request(1)).hasNext).toBe(false);
    await request(2);
    expect(urls).toEqual(['https://api.example.com/v1/notes', 'https://api.example.com/v1/notes?page=2']);
  });
});
