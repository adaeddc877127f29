import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/data/data-provider';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const api = apiOf(shop);

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
}

/** A fetch that records each request and answers with the given status. */
function fakeApi(answer: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    const request: Sent = {
      url: String(input),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
    };
    sent.push(request);
    return answer(request);
  };
  return { sent, fetch };
}

const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

describe('credentials on every request', () => {
  it('asks for the credential headers anew on each request, and never puts them in the URL', async () => {
    const { sent, fetch } = fakeApi(() => json(200, { id: 1, name: 'Anna' }));
    let token = 'first-token';
    const data = createHttpDataProvider(api, shop, {
      fetch,
      authHeaders: () => ({ authorization: `Bearer ${token}` }),
    });
    await data.get({ entity: 'Customer', id: '1' });
    token = 'second-token';
    await data.update({ entity: 'Customer', id: '1', values: { name: 'Berg' } });

    expect(sent.map((request) => request.headers.authorization)).toEqual([
      'Bearer first-token',
      'Bearer second-token',
    ]);
    for (const request of sent) {
      expect(request.url).not.toContain('token');
      expect(request.headers.accept).toBe('application/json, application/problem+json, */*;q=0.1');
    }
    expect(sent[1]?.headers['content-type']).toBe('application/json');
  });

  it('sends an API key in the header the session names', async () => {
    const { sent, fetch } = fakeApi(() => json(200, { items: [], total: 0 }));
    const data = createHttpDataProvider(api, shop, { fetch, authHeaders: () => ({ 'X-Api-Key': 'k-123' }) });
    await data.list({ entity: 'Product', page: { style: 'page', page: 1, size: 10 }, sort: [], filters: [] });
    expect(sent[0]?.headers['X-Api-Key']).toBe('k-123');
    expect(sent[0]?.url).not.toContain('k-123');
  });

  it('tells of a 401 with the credentials the request carried, then rejects with the problem', async () => {
    const { fetch } = fakeApi(() =>
      json(
        401,
        { title: 'Unauthorized', code: 'SESSION_EXPIRED', detail: 'The session has ended.' },
        'application/problem+json',
      ),
    );
    const told: Array<{ error: ApiError; sent: Readonly<Record<string, string>> }> = [];
    const data = createHttpDataProvider(api, shop, {
      fetch,
      authHeaders: () => ({ authorization: 'Bearer old' }),
      onUnauthorized: (error, sentWith) => told.push({ error, sent: sentWith }),
    });
    const failed = await data
      .create({ entity: 'Customer', values: { name: 'Anna' } })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).status).toBe(401);
    expect(told).toHaveLength(1);
    expect(told[0]?.error.code).toBe('SESSION_EXPIRED');
    expect(told[0]?.sent).toEqual({ authorization: 'Bearer old' });
  });

  it('does not take a 403 for an ended session', async () => {
    const { fetch } = fakeApi(() =>
      json(403, { title: 'Forbidden', code: 'FORBIDDEN', detail: 'No.' }, 'application/problem+json'),
    );
    let told = 0;
    const data = createHttpDataProvider(api, shop, {
      fetch,
      onUnauthorized: () => {
        told += 1;
      },
    });
    await expect(data.delete({ entity: 'Customer', id: '1' })).rejects.toMatchObject({ status: 403 });
    expect(told).toBe(0);
  });

  it('sends no credential header when none is held', async () => {
    const { sent, fetch } = fakeApi(() => json(200, { id: 1 }));
    const data = createHttpDataProvider(api, shop, { fetch, authHeaders: () => ({}) });
    await data.get({ entity: 'Customer', id: '1' });
    expect(Object.keys(sent[0]?.headers ?? {})).toEqual(['accept']);
  });
});
