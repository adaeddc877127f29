// The client's side of live updates: the stream read with fetch (credentials in headers, never in the
// address), hostile frames ignored, and a drop resumed from the last event it had.
import { describe, expect, it } from 'vitest';
import { createHttpDataProvider } from '../src/data/http-data-provider';
import { changeOf, followEvents, type LiveChange, type LiveState } from '../src/data/live-events';
import { apiOf, loadExample } from './support/load-example';

const encoder = new TextEncoder();

/** A fetch that answers each connection with the next script of frames, then ends (a drop). */
function scriptedFetch(scripts: Array<{ status?: number; frames: string[] }>) {
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
    const script = scripts.shift() ?? { status: 401, frames: [] };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const frame of script.frames) controller.enqueue(encoder.encode(frame));
        controller.close();
      },
    });
    return new Response(body, {
      status: script.status ?? 200,
      headers: { 'content-type': 'text/event-stream' },
    });
  }) as typeof fetch;
  return { fetcher, requests };
}

const change = (id: number, data: unknown) => `id: ${id}\nevent: change\ndata: ${JSON.stringify(data)}\n\n`;

describe('following the events stream', () => {
  it('sends the token in the Authorization header only, and resumes from the last event after a drop', async () => {
    const { fetcher, requests } = scriptedFetch([
      {
        frames: [
          'retry: 3000\nid: 4\nevent: ready\ndata: {}\n\n',
          change(5, {
            entity: 'Order',
            key: '7',
            kind: 'updated',
            record: { id: 7 },
            at: '2026-11-26T10:00:00Z',
          }),
          // Split across two chunks, as a network may cut it.
          'id: 6\nevent: change\ndata: {"entity":"Order","key":"8",',
          '"kind":"deleted","at":"2026-11-26T10:00:01Z"}\n\n',
        ],
      },
      {
        frames: [
          'id: 6\nevent: ready\ndata: {}\n\n',
          change(7, { entity: 'Customer', kind: 'changed', at: 'x' }),
        ],
      },
    ]);
    const changes: LiveChange[] = [];
    const states: LiveState[] = [];
    let resets = 0;
    const stop = followEvents(
      {
        url: '/api/_events',
        fetch: fetcher,
        authHeaders: () => ({ authorization: 'Bearer SECRET' }),
        delays: [1],
      },
      { onChange: (c) => changes.push(c), onReset: () => resets++, onState: (s) => states.push(s) },
    );
    for (let waited = 0; waited < 2000 && requests.length < 3; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    stop();
    expect(changes.map((c) => [c.entity, c.key, c.kind])).toEqual([
      ['Order', '7', 'updated'],
      ['Order', '8', 'deleted'],
      ['Customer', undefined, 'changed'],
    ]);
    expect(requests[0]?.headers['last-event-id']).toBeUndefined();
    expect(requests[1]?.headers['last-event-id']).toBe('6');
    for (const request of requests) {
      expect(request.url).toBe('/api/_events');
      expect(request.url).not.toContain('SECRET');
      expect(request.headers.authorization).toBe('Bearer SECRET');
    }
    expect(states.slice(0, 3)).toEqual(['connecting', 'open', 'lost']);
    expect(resets).toBe(0);
  });

  it('stops for good on a 401: the session is over', async () => {
    const { fetcher, requests } = scriptedFetch([{ status: 401, frames: [] }]);
    const states: LiveState[] = [];
    followEvents(
      { url: '/e', fetch: fetcher, delays: [1] },
      { onChange: () => {}, onReset: () => {}, onState: (s) => states.push(s) },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(1);
    expect(states).toEqual(['connecting']);
  });

  it('asks nothing of an offline device, and connects again as soon as it has a network', async () => {
    const { fetcher, requests } = scriptedFetch([
      { frames: ['id: 1\nevent: ready\ndata: {}\n\n'] },
      { frames: ['id: 2\nevent: ready\ndata: {}\n\n'] },
    ]);
    let online = true;
    const listeners = new Set<() => void>();
    const device = {
      online: () => online,
      whenOnline(listener: () => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const states: LiveState[] = [];
    const stop = followEvents(
      // A minute between attempts: only the network's return can explain a second request in the test's time.
      { url: '/e', fetch: fetcher, delays: [60_000], device },
      { onChange: () => {}, onReset: () => {}, onState: (s) => states.push(s) },
    );
    for (let waited = 0; waited < 2000 && !states.includes('lost'); waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    expect(requests).toHaveLength(1);
    online = false;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(1);
    online = true;
    for (const listener of [...listeners]) listener();
    for (let waited = 0; waited < 2000 && requests.length < 2; waited += 5)
      await new Promise((resolve) => setTimeout(resolve, 5));
    stop();
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers['last-event-id']).toBe('1');
    // Stopped, it listens to the device no longer.
    expect(listeners.size).toBe(0);
  });

  it('does not connect while the device is offline, however short its waits', async () => {
    const { fetcher, requests } = scriptedFetch([{ frames: [] }, { frames: [] }]);
    const listeners = new Set<() => void>();
    const stop = followEvents(
      {
        url: '/e',
        fetch: fetcher,
        delays: [1],
        device: {
          online: () => false,
          whenOnline(listener) {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
        },
      },
      { onChange: () => {}, onReset: () => {} },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toHaveLength(0);
    stop();
    expect(listeners.size).toBe(0);
  });

  it('tells a reset, so that everything is read again', async () => {
    const { fetcher } = scriptedFetch([{ frames: ['id: 9\nevent: reset\ndata: {}\n\n'] }]);
    let resets = 0;
    const stop = followEvents(
      { url: '/e', fetch: fetcher, delays: [60_000] },
      { onChange: () => {}, onReset: () => resets++ },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    expect(resets).toBe(1);
  });

  it('is offered only by an API that streams changes: a real API without one changes nothing', () => {
    const model = loadExample('shop.yaml');
    const real = createHttpDataProvider({ ...apiOf(model), events: undefined }, model);
    expect(real.follow).toBeUndefined();
    const prototype = createHttpDataProvider({ ...apiOf(model), events: '/_events' }, model);
    expect(typeof prototype.follow).toBe('function');
  });

  it('ignores frames that are not changes of ours', () => {
    for (const data of [
      '',
      'null',
      '[]',
      '"x"',
      '{"entity":3,"kind":"updated"}',
      '{"entity":"O","kind":"exploded"}',
      '{bad',
    ])
      expect(changeOf(data), data).toBeUndefined();
    const odd = changeOf(
      JSON.stringify({ entity: 'O', kind: 'updated', key: 4, record: [1], by: { id: 1, name: 'x' } }),
    );
    // A key that is no string, a record that is no object, a person without a text id: left out.
    expect(odd).toEqual({ entity: 'O', kind: 'updated', at: expect.any(String) });
    const long = changeOf(
      JSON.stringify({ entity: 'O', kind: 'created', at: 't', by: { id: 'u', name: 'n'.repeat(5000) } }),
    );
    expect(long?.by?.name).toHaveLength(200);
  });
});
