import type { ApiDescription } from '@ninefold/model';
import { describeApi } from '@ninefold/model';
import { buildApp, openStore } from '@ninefold/server';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError, type ApiRecord, type DataProvider, NetworkError } from '../src/data/data-provider';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { injectRequest, signInAsOwner } from './support/in-process-api';
import { loadExample } from './support/load-example';

/**
 * The HTTP data provider against the real prototype API, behind a network that fails on purpose: over
 * 1,000 calls (creates with idempotency keys, reads, updates with If-Match), a seeded share of requests
 * gets a 5xx (some only after the API has done the work: the answer is lost), a timeout (some while the
 * API is still working), or a 429 with Retry-After. A person who sees a save fail saves again, as a form
 * does, with the same idempotency key. At the end every record the client was told is saved must be
 * stored exactly once, holding the last change it was told is saved.
 */

const SEED = 20_260_601;
const CALLS = 1000;
const NOW = new Date('2026-06-01T12:00:00Z');

type FaultKind = '5xx before' | '5xx after' | 'timeout before' | 'timeout after' | '429';
/** Each request's chance of each fault: a quarter of all requests fail in some way. */
const FAULT_RATES: ReadonlyArray<readonly [FaultKind, number]> = [
  ['5xx before', 0.06],
  ['5xx after', 0.06],
  ['timeout before', 0.04],
  ['timeout after', 0.04],
  ['429', 0.05],
];
/** How many times the person saves again after the client reports a failure. */
const SAVES_AGAIN = 5;

/** mulberry32: a small seeded generator, so that every run injects the same faults. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const shop = loadExample('shop.yaml');
const closing: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
});

function problemAnswer(status: number, code: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ title: `Injected ${status}`, status, code }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

interface Figures {
  calls: number;
  requests: number;
  faults: Record<FaultKind, number>;
  retries: number;
  savedAgain: number;
  replayed: number;
  staleRetries: number;
  /** Saves the client reported failed after every try, whose record was stored all the same. */
  unconfirmed: number;
  /** Changes refused as stale after one the client could not confirm: read again, changed again. */
  conflicts: number;
  lost: number;
  duplicated: number;
  lostUpdates: number;
  wrongReads: number;
}

async function serveFaulty() {
  const store = await openStore({ model: shop, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
  const app = await buildApp({ model: shop, store, now: () => NOW });
  closing.push(async () => {
    await app.close();
    await store.close();
  });
  const authorization = `Bearer ${(await signInAsOwner(app, store, shop)).token}`;

  const faultRandom = seeded(SEED);
  const figures: Figures = {
    calls: 0,
    requests: 0,
    faults: { '5xx before': 0, '5xx after': 0, 'timeout before': 0, 'timeout after': 0, '429': 0 },
    retries: 0,
    savedAgain: 0,
    replayed: 0,
    staleRetries: 0,
    unconfirmed: 0,
    conflicts: 0,
    lost: 0,
    duplicated: 0,
    lostUpdates: 0,
    wrongReads: 0,
  };
  /** The timers of requests under way: a fault "times out" a request by firing its timer. */
  const timers = new WeakMap<AbortSignal, AbortController>();
  /** Requests the API is still handling after the client gave up waiting. */
  const unfinished: Array<Promise<unknown>> = [];

  const fault = (): FaultKind | undefined => {
    let roll = faultRandom();
    for (const [kind, rate] of FAULT_RATES) {
      if (roll < rate) return kind;
      roll -= rate;
    }
    return undefined;
  };
  const timeOut = (signal: AbortSignal | null | undefined) => {
    const timer = signal ? timers.get(signal) : undefined;
    if (!timer) throw new Error('Every request must carry its timeout signal.');
    timer.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    return timer.signal.reason;
  };

  const faultyFetch: typeof fetch = async (input, init = {}) => {
    figures.requests += 1;
    const kind = fault();
    if (kind) figures.faults[kind] += 1;
    switch (kind) {
      case undefined: {
        const answer = await injectRequest(app, input, init);
        if (answer.headers.get('idempotency-replayed') === 'true') figures.replayed += 1;
        if (answer.status === 412) figures.staleRetries += 1;
        return answer;
      }
      case '5xx before':
        return problemAnswer(faultRandom() < 0.5 ? 502 : 503, 'INJECTED');
      case '5xx after':
        // The API did the work; the gateway lost its answer.
        await injectRequest(app, input, init);
        return problemAnswer(502, 'INJECTED');
      case 'timeout before':
        throw timeOut(init.signal);
      case 'timeout after':
        // The API is still at it when the client stops waiting: a retry may find the key in progress.
        unfinished.push(injectRequest(app, input, init).catch(() => undefined));
        throw timeOut(init.signal);
      case '429':
        return problemAnswer(429, 'TOO_MANY_REQUESTS', {
          'retry-after': String(1 + Math.floor(faultRandom() * 3)),
        });
      default:
        return kind satisfies never;
    }
  };

  const jitter = seeded(SEED + 1);
  const api = { ...describeApi(shop), idempotency: true } as ApiDescription;
  const data = createHttpDataProvider(api, shop, {
    fetch: faultyFetch,
    authHeaders: () => ({ authorization }),
    timeoutSignal: () => {
      const timer = new AbortController();
      timers.set(timer.signal, timer);
      return timer.signal;
    },
    retry: {
      random: jitter,
      // No real waiting, but a turn of the event loop, so that work the API still has under way goes on.
      sleep: () => new Promise((resolve) => setImmediate(resolve)),
      onRetry: () => {
        figures.retries += 1;
      },
    },
  });
  return { app, data, authorization, figures, unfinished };
}

/** A failure the person would meet with "save again": the network, a server error, or "busy". */
function passing(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return (
    error instanceof ApiError &&
    (error.status >= 500 || error.status === 429 || error.code === 'IDEMPOTENCY_IN_PROGRESS')
  );
}

describe('fault injection: the HTTP data provider over a failing network', () => {
  it(`loses and duplicates nothing over ${CALLS} calls`, { timeout: 300_000 }, async () => {
    const { app, data, authorization, figures, unfinished } = await serveFaulty();
    const seedData = async <T>(run: (provider: DataProvider) => Promise<T>) => {
      // Seeding goes through the same faulty provider: reads and keyed creates survive it.
      for (;;) {
        try {
          return await run(data);
        } catch (error) {
          if (!passing(error)) throw error;
        }
      }
    };
    const customer = await seedData((provider) =>
      provider.create({
        entity: 'Customer',
        values: { name: 'Anna Berg', email: 'anna@example.com', country: 'SE', creditLimit: 1000 },
        idempotencyKey: 'seed-customer',
      }),
    );
    const product = await seedData((provider) =>
      provider.create({
        entity: 'Product',
        values: { sku: 'RG-1001', name: 'Mooring line', category: 'rigging', price: 24.5, stock: 10 },
        idempotencyKey: 'seed-product',
      }),
    );

    /** The person's side: on a failure that may pass, they save again, up to `SAVES_AGAIN` times. */
    const asPerson = async <T>(run: () => Promise<T>): Promise<T | undefined> => {
      for (let save = 0; ; save += 1) {
        try {
          return await run();
        } catch (error) {
          if (!passing(error)) throw error;
          if (save === SAVES_AGAIN) return undefined;
          figures.savedAgain += 1;
        }
      }
    };

    interface Known {
      id: string;
      version: string | undefined;
      notes: string;
    }
    /** Orders the client was told are created, by marker, with the last change it was told is saved. */
    const saved = new Map<string, Known>();
    /** Every marker a create was attempted for, and whether the client said it was done. */
    const attempted = new Map<string, boolean>();
    const unexpected: string[] = [];
    const workload = seeded(SEED + 2);
    let created = 0;

    const create = async () => {
      created += 1;
      const marker = `fault-${String(created).padStart(4, '0')}`;
      const values = {
        customer: customer.record.id,
        shippingAddress: { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' },
        lines: [{ product: product.record.id, quantity: 1 + Math.floor(workload() * 5), unitPrice: 24.5 }],
        notes: marker,
      };
      const send = () =>
        asPerson(() => data.create({ entity: 'Order', values, idempotencyKey: `order-${marker}` }));
      // Now and then a double click: the same save twice at once, under the same key.
      const double = workload() < 0.15;
      figures.calls += double ? 2 : 1;
      attempted.set(marker, false);
      const answers = await Promise.all(double ? [send(), send()] : [send()]);
      const ids = new Set(answers.flatMap((answer) => (answer ? [String(answer.record.id)] : [])));
      if (ids.size > 1) unexpected.push(`${marker}: one save answered with ${ids.size} records`);
      const first = answers.find((answer) => answer !== undefined);
      if (first) {
        attempted.set(marker, true);
        saved.set(marker, { id: String(first.record.id), version: first.version, notes: marker });
      }
    };

    const update = async (known: Known) => {
      figures.calls += 1;
      const notes = `${known.notes.split(' ')[0]} v${Number(known.notes.split(' v')[1] ?? 0) + 1}`;
      const change = (version: string | undefined) =>
        data.update({
          entity: 'Order',
          id: known.id,
          values: { notes },
          ...(version === undefined ? {} : { version }),
        });
      try {
        const answer = await asPerson(() => change(known.version));
        if (answer) Object.assign(known, { version: answer.version, notes });
        else await reread(known);
      } catch (error) {
        // A change given up earlier may have been saved after all: read, then change again.
        if (!(error instanceof ApiError && error.status === 412)) throw error;
        figures.conflicts += 1;
        await reread(known);
        const answer = await asPerson(() => change(known.version));
        if (answer) Object.assign(known, { version: answer.version, notes });
        else await reread(known);
      }
    };

    /** After a change the client could not confirm, the person reloads the record to see where it stands. */
    const reread = async (known: Known) => {
      const fresh = await asPerson(() => data.get({ entity: 'Order', id: known.id }));
      if (!fresh) throw new Error(`${known.notes}: could not be read again`);
      known.version = fresh.version;
      known.notes = String(fresh.record.notes);
    };

    const read = async (known: Known) => {
      figures.calls += 1;
      const answer = await asPerson(() => data.get({ entity: 'Order', id: known.id }));
      if (answer && answer.record.notes !== known.notes) figures.wrongReads += 1;
    };

    const list = async () => {
      figures.calls += 1;
      await asPerson(() =>
        data.list({
          entity: 'Order',
          page: { style: 'page', page: 1, size: 25 },
          sort: [{ field: 'number', direction: 'desc' }],
          filters: [],
        }),
      );
    };

    while (figures.calls < CALLS) {
      const roll = workload();
      const orders = [...saved.values()];
      const some = orders[Math.floor(workload() * orders.length)];
      try {
        if (roll < 0.35 || !some) await create();
        else if (roll < 0.6) await update(some);
        else if (roll < 0.85) await read(some);
        else await list();
      } catch (error) {
        unexpected.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      }
    }
    await Promise.all(unfinished);

    // What the API stored, read without faults.
    const stored: ApiRecord[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await app.inject({
        url: `/api/orders?page=${page}&limit=100`,
        headers: { authorization },
      });
      const items = answer.json().items as ApiRecord[];
      stored.push(...items);
      if (items.length < 100) break;
    }
    const byMarker = new Map<string, ApiRecord[]>();
    for (const order of stored) {
      const marker = String(order.notes).split(' ')[0] ?? '';
      byMarker.set(marker, [...(byMarker.get(marker) ?? []), order]);
    }
    for (const [marker, done] of attempted) {
      const copies = byMarker.get(marker)?.length ?? 0;
      // Lost: the client said it was saved and it is not, or it never was despite the saves again.
      if (copies === 0) figures.lost += 1;
      else if (!done) figures.unconfirmed += 1;
      if (copies > 1) figures.duplicated += copies - 1;
    }
    for (const [marker, known] of saved) {
      const order = byMarker.get(marker)?.[0];
      if (order && order.notes !== known.notes) figures.lostUpdates += 1;
    }

    console.info(
      [
        `[fault injection] seed ${SEED}: ${figures.calls} calls, ${figures.requests} requests`,
        `faults injected: ${Object.values(figures.faults).reduce((a, b) => a + b, 0)} (${FAULT_RATES.map(
          ([kind]) => `${kind} ${figures.faults[kind]}`,
        ).join(', ')})`,
        `retries by the client: ${figures.retries}; saves again by the person: ${figures.savedAgain}`,
        `answers replayed under an idempotency key: ${figures.replayed}; stale retries (412): ${figures.staleRetries}`,
        `orders created: ${attempted.size}, stored: ${stored.length}; saves reported failed but stored: ${figures.unconfirmed}; conflicts read again: ${figures.conflicts}`,
        `lost: ${figures.lost}, duplicated: ${figures.duplicated}, lost updates: ${figures.lostUpdates}, wrong reads: ${figures.wrongReads}`,
      ].join('\n'),
    );

    expect(unexpected).toEqual([]);
    expect(figures.calls).toBeGreaterThanOrEqual(CALLS);
    // Every kind of fault was met, enough to matter.
    for (const count of Object.values(figures.faults)) expect(count).toBeGreaterThan(20);
    expect(figures.lost).toBe(0);
    expect(figures.duplicated).toBe(0);
    expect(figures.lostUpdates).toBe(0);
    expect(figures.wrongReads).toBe(0);
  });
});
