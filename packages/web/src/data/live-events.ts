import type { JsonValue } from '@ninefold/model';
import { createParser } from 'eventsource-parser';

/** A change to records, as the prototype API's events stream tells it to this person. */
export interface LiveChange {
  entity: string;
  /** Absent when many records of the entity changed (an import, a transition's effects). */
  key?: string;
  kind: 'created' | 'updated' | 'deleted' | 'hidden' | 'changed';
  /** The record as this person's role may read it (absent for `deleted`, `hidden` and `changed`). */
  record?: Record<string, JsonValue>;
  by?: { id: string; name: string };
  /** When the change was made (ISO 8601). */
  at: string;
}

/** `open`: changes arrive; `connecting`: first connection; `lost`: dropped, trying again. */
export type LiveState = 'connecting' | 'open' | 'lost';

export interface LiveHandlers {
  onChange(change: LiveChange): void;
  /** Changes may have been missed (a drop longer than the server keeps them): read everything again. */
  onReset(): void;
  onState?(state: LiveState): void;
}

export interface FollowOptions {
  /** The events stream's address; it never carries a credential. */
  url: string;
  fetch?: typeof fetch;
  /** Asked at every connection, so a refreshed token is used on the next one. */
  authHeaders?: () => Readonly<Record<string, string>>;
  /** Waits before connecting again, by attempt; tests shorten them. */
  delays?: readonly number[];
  /** Whether the device has a network, and when it has one again; the browser's `navigator.onLine` by default. */
  device?: DeviceNetwork;
}

/** What the device says of its network connection. */
export interface DeviceNetwork {
  online(): boolean;
  /** Calls back when the device has a network again; returns what stops listening. */
  whenOnline(listener: () => void): () => void;
}

const browserNetwork: DeviceNetwork = {
  online: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  whenOnline(listener) {
    if (typeof window === 'undefined') return () => {};
    window.addEventListener('online', listener);
    return () => window.removeEventListener('online', listener);
  },
};

const DELAYS = [1000, 2000, 5000, 10_000, 30_000];
/** An event larger than this is not ours: the stream is dropped and opened again. */
const MAX_EVENT_CHARS = 1024 * 1024;
const KINDS = new Set<LiveChange['kind']>(['created', 'updated', 'deleted', 'hidden', 'changed']);

/**
 * Follows the prototype API's events stream with `fetch` (the credentials go in the Authorization header,
 * never in the address, which `EventSource` would need), and opens it again after a drop from the last
 * event it had (`Last-Event-ID`), so that nothing is missed within the server's retention window. A 401
 * or 403 stops it: the session is over, and whoever follows again will have a new one.
 *
 * @example
 * ```ts
 * const stop = followEvents({ url: '/api/_events', authHeaders }, {
 *   onChange: (change) => queryClient.invalidateQueries({ queryKey: ['list', change.entity] }),
 *   onReset: () => queryClient.invalidateQueries(),
 * });
 * ```
 */
export function followEvents(options: FollowOptions, handlers: LiveHandlers): () => void {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const delays = options.delays ?? DELAYS;
  const device = options.device ?? browserNetwork;
  const controller = new AbortController();
  let lastId: string | undefined;
  let attempt = 0;
  let state: LiveState | undefined;
  const tell = (next: LiveState) => {
    if (state === next) return;
    state = next;
    handlers.onState?.(next);
  };

  const connect = async (): Promise<'again' | 'stop'> => {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...options.authHeaders?.() };
    if (lastId !== undefined) headers['last-event-id'] = lastId;
    const response = await doFetch(options.url, { headers, signal: controller.signal, cache: 'no-store' });
    // 204 is how a server says "no stream here, do not come back" (as for EventSource).
    if ([204, 401, 403, 404].includes(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      return 'stop';
    }
    if (
      !response.ok ||
      !response.body ||
      !/^text\/event-stream/.test(response.headers.get('content-type') ?? '')
    ) {
      await response.body?.cancel().catch(() => undefined);
      return 'again';
    }
    let failed = false;
    const parser = createParser({
      maxBufferSize: MAX_EVENT_CHARS,
      onEvent(message) {
        if (message.id !== undefined) lastId = message.id;
        if (message.event === 'ready') {
          attempt = 0;
          tell('open');
        } else if (message.event === 'reset') {
          attempt = 0;
          tell('open');
          handlers.onReset();
        } else if (message.event === 'change') {
          const change = changeOf(message.data);
          if (change) handlers.onChange(change);
        }
      },
      onError() {
        failed = true;
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done || failed) break;
      parser.feed(chunk.value);
    }
    await reader.cancel().catch(() => undefined);
    return 'again';
  };

  /**
   * Waits `ms`, or until the device has a network again, whichever is first; an offline device waits for
   * its network however long that takes, as a connection could only fail (and say so in the console).
   */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        stopListening();
        controller.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(() => {
        if (device.online()) done();
      }, ms);
      const stopListening = device.whenOnline(() => {
        attempt = 0;
        done();
      });
      controller.signal.addEventListener('abort', done);
    });

  void (async () => {
    tell('connecting');
    while (!controller.signal.aborted) {
      if (!device.online()) await pause(0);
      if (controller.signal.aborted) return;
      let outcome: 'again' | 'stop';
      try {
        outcome = await connect();
      } catch {
        outcome = 'again';
      }
      if (controller.signal.aborted || outcome === 'stop') return;
      tell('lost');
      const delay = delays[Math.min(attempt, delays.length - 1)] ?? 1000;
      attempt++;
      await pause(delay);
    }
  })();

  return () => controller.abort();
}

/** An event's data, checked: anything else the stream says is ignored, never trusted. */
export function changeOf(data: string): LiveChange | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const value = parsed as Record<string, unknown>;
  if (typeof value.entity !== 'string' || !KINDS.has(value.kind as LiveChange['kind'])) return undefined;
  const change: LiveChange = {
    entity: value.entity,
    kind: value.kind as LiveChange['kind'],
    at: typeof value.at === 'string' ? value.at : new Date().toISOString(),
  };
  if (typeof value.key === 'string') change.key = value.key;
  if (value.record !== null && typeof value.record === 'object' && !Array.isArray(value.record)) {
    change.record = value.record as Record<string, JsonValue>;
  }
  const by = value.by as { id?: unknown; name?: unknown } | undefined;
  if (by && typeof by.id === 'string' && typeof by.name === 'string') {
    change.by = { id: by.id, name: by.name.slice(0, 200) };
  }
  return change;
}
