import { describe, expect, it } from 'vitest';
import { ApiError, type ListParams, NetworkError, UnconfirmedWriteError } from '../src/data/data-provider';
import { createHttpDataProvider, type HttpDataProviderOptions } from '../src/data/http-data-provider';
import { retryAfterSeconds } from '../src/data/problem-reader';
import { retryDelay, sleepFor, withRetries } from '../src/data/retry';
import { apiOf, loadExample } from './support/load-example';

const shop = loadExample('shop.yaml');
const api = apiOf(shop);

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
}

/** One scripted answer: a status and body, or no answer at all. */
type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | 'no-answer';

/**
 * A fetch that answers from a script, one entry per request, and a provider over it whose waits return
 * at once and are recorded.
 */
function scripted(script: Scripted[], options: HttpDataProviderOptions = {}) {
  const sent: Sent[] = [];
  const waits: number[] = [];
  const fetch: typeof globalThis.fetch = async (input, init = {}) => {
    sent.push({
      url: String(input),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
    });
    const next = script.shift();
    if (next === undefined) throw new Error('The script has no answer for this request.');
    if (next === 'no-answer') throw new TypeError('fetch failed');
    const problem = next.status >= 400;
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
      status: next.status,
      headers: {
        'content-type': problem ? 'application/problem+json' : 'application/json',
        ...next.headers,
      },
    });
  };
  const data = createHttpDataProvider(api, shop, {
    fetch,
    retry: {
      random: () => 0.5,
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
    ...options,
  });
  return { data, sent, waits, fetch };
}

const customer = { id: 1, name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000 };
const serverError = { status: 503, body: { title: 'Unavailable', status: 503 } };
const list: ListParams = {
  entity: 'Customer',
  page: { style: 'page', page: 1, size: 10 },
  sort: [],
  filters: [],
};

describe('retryDelay', () => {
  it('retries what may pass, with a doubling wait and jitter', () => {
    const random = () => 0.5;
    expect(retryDelay(new NetworkError('offline'), 1, { random })).toBe(225);
    expect(retryDelay(new NetworkError('offline'), 2, { random })).toBe(450);
    expect(retryDelay(new NetworkError('offline'), 3, { random })).toBe(900);
    expect(retryDelay(new NetworkError('offline'), 3, { random: () => 0 })).toBe(600);
    expect(retryDelay(new NetworkError('offline'), 3, { random: () => 0.999 })).toBe(1199);
    expect(retryDelay(new NetworkError('offline'), 2, { random, maxDelayMs: 400 })).toBe(300);
  });

  it('stops when the tries run out', () => {
    expect(retryDelay(new NetworkError('offline'), 4)).toBeUndefined();
    expect(retryDelay(new NetworkError('offline'), 1, { attempts: 1 })).toBeUndefined();
  });

  it('never retries a refusal, nor a fault of the client itself', () => {
    for (const status of [400, 401, 403, 404, 409, 412, 422, 428, 501]) {
      expect(retryDelay(new ApiError(status, 'No', undefined, undefined, undefined, [], undefined), 1)).toBe(
        undefined,
      );
    }
    expect(retryDelay(new TypeError('a bug'), 1)).toBeUndefined();
    expect(retryDelay(new DOMException('left', 'AbortError'), 1)).toBeUndefined();
  });

  it('retries a request still in progress under the same idempotency key', () => {
    const inProgress = new ApiError(
      409,
      'In progress',
      undefined,
      'IDEMPOTENCY_IN_PROGRESS',
      undefined,
      [],
      undefined,
      {
        retryAfterSeconds: 1,
      },
    );
    expect(retryDelay(inProgress, 1)).toBe(1000);
  });

  it('honours Retry-After exactly, and gives up on one longer than the cap', () => {
    const busy = (seconds: number) =>
      new ApiError(429, 'Busy', undefined, undefined, undefined, [], undefined, {
        retryAfterSeconds: seconds,
      });
    expect(retryDelay(busy(3), 1)).toBe(3000);
    expect(retryDelay(busy(20), 1)).toBe(20_000);
    expect(retryDelay(busy(21), 1)).toBeUndefined();
    expect(retryDelay(busy(60), 1, { maxRetryAfterMs: 60_000 })).toBe(60_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Mon, 01 Jun 2026 12:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Mon, 01 Jun 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds('-5', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});

describe('withRetries', () => {
  it('stops waiting at once when the caller aborts', async () => {
    const controller = new AbortController();
    let tries = 0;
    const run = withRetries(
      async () => {
        tries += 1;
        throw new NetworkError('offline');
      },
      {
        signal: controller.signal,
        // The abort comes while the (ten-minute) wait is under way.
        onRetry: () => {
          void Promise.resolve().then(() => controller.abort(new DOMException('left', 'AbortError')));
        },
        sleep: (ms, signal) => sleepFor(ms * 1000, signal),
      },
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(tries).toBe(1);
  });
});

describe('the HTTP provider retries only what is safe to repeat', () => {
  it('reads again after no answer and after a 503', async () => {
    const { data, sent, waits } = scripted([
      'no-answer',
      serverError,
      { status: 200, body: { items: [customer], total: 1 } },
    ]);
    const result = await data.list(list);
    expect(result.items).toEqual([customer]);
    expect(sent).toHaveLength(3);
    expect(waits).toEqual([225, 450]);
  });

  it('gives up after four tries with the last failure', async () => {
    const { data, sent } = scripted([serverError, serverError, serverError, serverError, serverError]);
    await expect(data.get({ entity: 'Customer', id: '1' })).rejects.toMatchObject({ status: 503 });
    expect(sent).toHaveLength(4);
  });

  it('never retries a refusal', async () => {
    const { data, sent } = scripted([{ status: 404, body: { title: 'Not found', code: 'NOT_FOUND' } }]);
    await expect(data.get({ entity: 'Customer', id: '9' })).rejects.toMatchObject({ status: 404 });
    expect(sent).toHaveLength(1);
  });

  it('waits as long as a 429 asks, within the cap', async () => {
    const busy = {
      status: 429,
      body: { title: 'Too many', code: 'TOO_MANY' },
      headers: { 'retry-after': '2' },
    };
    const { data, waits } = scripted([busy, { status: 200, body: customer }]);
    await data.get({ entity: 'Customer', id: '1' });
    expect(waits).toEqual([2000]);

    const long = { ...busy, headers: { 'retry-after': '3600' } };
    const refused = scripted([long]);
    const error = await refused.data.get({ entity: 'Customer', id: '1' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).retryAfterSeconds).toBe(3600);
    expect(refused.sent).toHaveLength(1);
  });

  it('never retries a create without an idempotency key: its answer may have been lost after it was done', async () => {
    const { data, sent } = scripted([serverError]);
    await expect(data.create({ entity: 'Customer', values: { name: 'Anna Berg' } })).rejects.toMatchObject({
      status: 503,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('retries a create with an idempotency key, sending the same key each time', async () => {
    const { data, sent } = scripted([
      'no-answer',
      {
        status: 409,
        body: { code: 'IDEMPOTENCY_IN_PROGRESS', title: 'In progress' },
        headers: { 'retry-after': '1' },
      },
      { status: 201, body: customer, headers: { etag: '"1"', 'idempotency-replayed': 'true' } },
    ]);
    const saved = await data.create({
      entity: 'Customer',
      values: { name: 'Anna Berg' },
      idempotencyKey: 'form-7f3a',
    });
    expect(saved).toEqual({ record: customer, version: '"1"' });
    expect(sent.map((request) => request.headers['idempotency-key'])).toEqual([
      'form-7f3a',
      'form-7f3a',
      'form-7f3a',
    ]);
  });

  it('retries a transition only with an idempotency key', async () => {
    const without = scripted([serverError]);
    await expect(
      without.data.transition({ entity: 'Order', id: '1', transition: 'place' }),
    ).rejects.toMatchObject({ status: 503 });
    expect(without.sent).toHaveLength(1);

    const keyed = scripted([serverError, { status: 200, body: { id: 1, status: 'placed' } }]);
    await keyed.data.transition({ entity: 'Order', id: '1', transition: 'place', idempotencyKey: 'k-1' });
    expect(keyed.sent.map((request) => [request.method, request.headers['idempotency-key']])).toEqual([
      ['POST', 'k-1'],
      ['POST', 'k-1'],
    ]);
  });

  // Regression (issue 39): behind a slow real server, one Save stored four records. The client sent an
  // Idempotency-Key that the API never declared, and retried the create as if it were honoured.
  it('sends no key and never retries a create or transition when the API declares no idempotency keys', async () => {
    const undeclared = { ...api, idempotency: undefined };
    const slow = scripted(['no-answer', { status: 201, body: customer }]);
    const data = createHttpDataProvider(undeclared, shop, {
      fetch: slow.fetch,
      retry: { random: () => 0.5, sleep: async () => {} },
    });
    const error = await data
      .create({ entity: 'Customer', values: { name: 'Anna Berg' }, idempotencyKey: 'form-7f3a' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnconfirmedWriteError);
    expect(slow.sent).toHaveLength(1);
    expect(slow.sent[0]?.headers['idempotency-key']).toBeUndefined();

    const stepping = scripted([serverError, { status: 200, body: { id: 1, status: 'placed' } }]);
    const steps = createHttpDataProvider(undeclared, shop, {
      fetch: stepping.fetch,
      retry: { random: () => 0.5, sleep: async () => {} },
    });
    await expect(
      steps.transition({ entity: 'Order', id: '1', transition: 'place', idempotencyKey: 'k-1' }),
    ).rejects.toMatchObject({ status: 503 });
    expect(stepping.sent).toHaveLength(1);
    expect(stepping.sent[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('sends a key and retries when the call itself declares the Idempotency-Key header', async () => {
    const calls = (shop.calls.shown ? shop.calls.items : []).map((call) =>
      call.purpose === 'create' && call.entity === 'Customer'
        ? {
            ...call,
            parameters: [
              ...call.parameters,
              {
                name: 'Idempotency-Key',
                in: 'header' as const,
                required: false,
                type: { kind: 'text' as const },
              },
            ],
          }
        : call,
    );
    const declared = scripted(['no-answer', { status: 201, body: customer }]);
    const data = createHttpDataProvider({ base: '/api', conventional: false, calls }, shop, {
      fetch: declared.fetch,
      retry: { random: () => 0.5, sleep: async () => {} },
    });
    await data.create({ entity: 'Customer', values: { name: 'Anna Berg' }, idempotencyKey: 'form-1' });
    expect(declared.sent.map((request) => request.headers['idempotency-key'])).toEqual(['form-1', 'form-1']);
  });

  it('rejects a write that went out and got no answer as unconfirmed, never as a plain network failure', async () => {
    const deleting = scripted(['no-answer']);
    const error = await deleting.data
      .delete({ entity: 'Customer', id: '1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnconfirmedWriteError);
    // A gateway that lost the server's answer (502, 504) knows no more than the client does.
    for (const status of [502, 504]) {
      const gateway = scripted([{ status, body: { title: 'Bad gateway', status } }]);
      const lost = await gateway.data
        .update({ entity: 'Customer', id: '1', values: { name: 'Anna' } })
        .catch((caught: unknown) => caught);
      expect(lost).toBeInstanceOf(UnconfirmedWriteError);
      expect(gateway.sent).toHaveLength(1);
    }
    // A refusal is an answer: it stays what the server said.
    const refused = scripted([{ status: 422, body: { title: 'Invalid', status: 422 } }]);
    const answered = await refused.data
      .update({ entity: 'Customer', id: '1', values: { name: 'Anna' } })
      .catch((caught: unknown) => caught);
    expect(answered).toBeInstanceOf(ApiError);
    // A read that gets no answer changed nothing: it stays a network failure, and is retried.
    const reading = scripted(['no-answer', 'no-answer', 'no-answer', 'no-answer']);
    const readError = await reading.data
      .get({ entity: 'Customer', id: '1' })
      .catch((caught: unknown) => caught);
    expect(readError).toBeInstanceOf(NetworkError);
    expect(readError).not.toBeInstanceOf(UnconfirmedWriteError);
    expect(reading.sent).toHaveLength(4);
  });

  it('never retries a delete, nor an update without a version', async () => {
    const deleting = scripted([serverError]);
    await expect(deleting.data.delete({ entity: 'Customer', id: '1' })).rejects.toMatchObject({
      status: 503,
    });
    expect(deleting.sent).toHaveLength(1);

    const updating = scripted([serverError]);
    await expect(
      updating.data.update({ entity: 'Customer', id: '1', values: { name: 'Berg' } }),
    ).rejects.toMatchObject({ status: 503 });
    expect(updating.sent).toHaveLength(1);
  });

  it('takes an update as saved when its retry is refused as stale by a record that holds its values', async () => {
    const current = { ...customer, name: 'Anna Berg-Ek', creditLimit: 1500 };
    const { data, sent } = scripted([
      serverError,
      {
        status: 412,
        body: { title: 'Changed', code: 'CHANGED_SINCE_READ', current },
        headers: { etag: '"3"' },
      },
    ]);
    const saved = await data.update({
      entity: 'Customer',
      id: '1',
      values: { name: 'Anna Berg-Ek', creditLimit: 1500 },
      version: '"2"',
    });
    expect(saved).toEqual({ record: current, version: '"3"' });
    expect(sent.map((request) => request.headers['if-match'])).toEqual(['"2"', '"2"']);
  });

  it('shows a stale retry as the conflict it is when the record holds other values', async () => {
    const current = { ...customer, name: 'Someone else’s name' };
    const { data } = scripted([
      'no-answer',
      {
        status: 412,
        body: { title: 'Changed', code: 'CHANGED_SINCE_READ', current },
        headers: { etag: '"3"' },
      },
    ]);
    const error = await data
      .update({ entity: 'Customer', id: '1', values: { name: 'Anna Berg-Ek' }, version: '"2"' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 412, current, currentVersion: '"3"' });
  });

  it('never takes a first try’s 412 as saved, even when the values agree', async () => {
    const { data } = scripted([
      {
        status: 412,
        body: { title: 'Changed', code: 'CHANGED_SINCE_READ', current: customer },
        headers: { etag: '"3"' },
      },
    ]);
    await expect(
      data.update({ entity: 'Customer', id: '1', values: { name: customer.name }, version: '"2"' }),
    ).rejects.toMatchObject({ status: 412 });
  });

  it('tries once when retries are off', async () => {
    const { data, sent } = scripted(['no-answer'], { retry: false });
    await expect(data.get({ entity: 'Customer', id: '1' })).rejects.toBeInstanceOf(NetworkError);
    expect(sent).toHaveLength(1);
  });
});

describe('reachability', () => {
  it('is lost with a request that gets no answer and back with any answer', async () => {
    const { data } = scripted(['no-answer', { status: 404, body: { title: 'Not found' } }], { retry: false });
    const seen: boolean[] = [];
    data.network?.subscribe(() => seen.push(data.network?.getSnapshot().reachable ?? true));
    await expect(data.get({ entity: 'Customer', id: '1' })).rejects.toBeInstanceOf(NetworkError);
    expect(data.network?.getSnapshot().reachable).toBe(false);
    await expect(data.get({ entity: 'Customer', id: '1' })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toEqual([false, true]);
  });
});
