import type { Call, Figure, Model } from '@ninefold/model';
import { type ApiDescription, takesIdempotencyKey } from '@ninefold/model';
import { type Answer, readList, readRecordAnswer, sameOriginLink } from './answer-read';
import { createBlobFetch, parseJson } from './blob-fetch';
import { askedParameters, type ConnectionValues, createConnectionValues } from './connection-values';
import {
  ApiError,
  type ApiRecord,
  type DataProvider,
  type FigureParams,
  type ImportParams,
  type ListParams,
  type ListResult,
  type NamesParams,
  NetworkError,
  UnconfirmedWriteError,
} from './data-provider';
import { entityCallsLookup, requireCall, requireListCall, requireTransitionCall } from './entity-calls';
import type { FileCallsContext } from './file-calls';
import { parseLinkHeader } from './link-header';
import { fillPath, listSearchParams } from './list-request';
import type { LiveHandlers } from './live-events';
import { createNetworkStatus, type NetworkStatus } from './network-status';
import { clipText, readApiError } from './problem-reader';
import { encodeBody } from './request-body';
import { type RetryOptions, withRetries } from './retry';

export interface HttpDataProviderOptions {
  /** The fetch to use; tests route it to the prototype API in process. */
  fetch?: typeof fetch;
  /** How long a request may take before it fails as a `NetworkError`. */
  timeoutMs?: number;
  /**
   * The headers that carry the credentials, asked anew for every request (a refreshed token is used at
   * once). Credentials go in headers only, never in the URL.
   */
  authHeaders?: () => Readonly<Record<string, string>>;
  /**
   * Told of every 401 answer, with the credential headers that request carried, before the request
   * rejects with its `ApiError`: the session asks the person to sign in again without leaving the page.
   */
  onUnauthorized?: (error: ApiError, sent: Readonly<Record<string, string>>) => void;
  /**
   * Retries of calls that are safe to repeat (see `createHttpDataProvider`), or `false` for none. Tests
   * give a seeded `random` and a `sleep` that returns at once.
   */
  retry?: RetryOptions | false;
  /** Values asked of the person for every call that names them; kept for the tab when absent. */
  connection?: ConnectionValues;
  /** Where reachability is told; one of its own when absent. */
  network?: NetworkStatus;
  /** The clock, in milliseconds since the epoch, to read a `Retry-After` date. */
  now?: () => number;
  /** The signal that ends one try after `timeoutMs`; tests give one they abort themselves. */
  timeoutSignal?: (ms: number) => AbortSignal;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** What every request accepts. */
export const ACCEPT = 'application/json, application/problem+json, */*;q=0.1';

/**
 * The data interface over HTTP: each method becomes the call the specification names for the entity and
 * purpose (a method whose call does not exist rejects, with no URL invented). Path parameters are filled
 * URL-encoded; pages, sort and filters go where the call says; answers are read by the call's response
 * shape and `X-Total-Count`; `ETag` is the version and goes back as `If-Match`; bodies are JSON, form or
 * multipart as the call says (see `encodeBody` for the convention). A non-success answer rejects with an
 * `ApiError`; no answer (refused, offline, timed out) with a `NetworkError`; the caller's own abort with
 * the abort's reason. Credentials come from `authHeaders` on every request, and a 401 is told to
 * `onUnauthorized` first.
 *
 * Calls that are safe to repeat are retried with backoff after a failure that may pass (no answer, a
 * timeout, 408, 429 and 503 after their `Retry-After`, 500, 502, 504; see `retryDelay`): reads; a create or
 * transition given an `idempotencyKey` (sent as `Idempotency-Key`, so the API does it once and replays its
 * answer); an update with a `version` (sent as `If-Match`). Others, whose first try may have been done
 * with its answer lost, never are. An update's retry answered 412 may be its own first try having been
 * saved: when the record as it now is (the 412's `current`) holds every value sent, the update is taken as
 * done and resolves with that record and version; otherwise the 412 rejects, for the person to choose.
 *
 * @example
 * ```ts
 * const data = createHttpDataProvider(api, model);
 * const { items, total } = await data.list({ entity: 'Order', page: { style: 'page', page: 1, size: 25 },
 *   sort: [{ field: 'placedOn', direction: 'desc' }], filters: [] });
 * ```
 */
export function createHttpDataProvider(
  api: ApiDescription,
  model: Model,
  options: HttpDataProviderOptions = {},
): DataProvider {
  const callsOf = entityCallsLookup(api, model);
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeoutSignal = options.timeoutSignal ?? ((ms: number) => AbortSignal.timeout(ms));
  const now = options.now ?? Date.now;
  const network = options.network ?? createNetworkStatus();
  const connection =
    options.connection ??
    createConnectionValues(api.base, typeof sessionStorage === 'undefined' ? undefined : sessionStorage);
  /** The asked values a call names, by where they go; a value not given yet is not sent. */
  const askedOf = (call: Call, where: 'query' | 'header'): Array<[string, string]> =>
    askedParameters(model, call).flatMap((parameter) => {
      const value = parameter.in === where ? connection.get(parameter.name) : undefined;
      return value === undefined ? [] : [[parameter.name, value] as [string, string]];
    });
  const base = api.base.replace(/\/+$/, '');
  /** Next-page links a link-header API gave, by the request they continue. */
  const nextLinks = new Map<string, string>();

  const sendOnce = async (call: Call, url: string, init: SendInit): Promise<Answer> => {
    const credentials = options.authHeaders?.() ?? {};
    const headers: Record<string, string> = {
      ...Object.fromEntries(askedOf(call, 'header')),
      ...credentials,
      // JSON first; anything else last, for APIs that answer only a JSON of their own
      // (`application/scim+json`), which the client reads as JSON all the same.
      accept: ACCEPT,
    };
    if (init.contentType) headers['content-type'] = init.contentType;
    if (init.ifMatch) headers['if-match'] = init.ifMatch;
    if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
    const waited = init.timeoutMs ?? timeoutMs;
    const timeout = timeoutSignal(waited);
    const signal = init.signal ? anySignal([init.signal, timeout]) : timeout;
    try {
      const response = await doFetch(url, {
        method: call.method,
        headers,
        signal,
        ...(init.body === undefined ? {} : { body: init.body }),
      });
      const text = await response.text();
      network.answered();
      const body = parseJson(text);
      if (!response.ok) {
        const error = await readApiError(
          response.status,
          response.statusText,
          response.headers.get('content-type'),
          body,
          response.headers,
          now,
        );
        if (response.status === 401) options.onUnauthorized?.(error, credentials);
        throw error;
      }
      return { status: response.status, headers: response.headers, body, url };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // The caller's own abort (a screen left, a query cancelled) is not a network failure.
      if (init.signal?.aborted) throw init.signal.reason ?? error;
      network.unanswered();
      if (timeout.aborted) throw new NetworkError(`No answer within ${Math.round(waited / 1000)} s.`);
      throw new NetworkError(clipText(error instanceof Error ? error.message : String(error)));
    }
  };

  /** One call, tried again while `retry` allows and the failure may pass; `tries` counts the tries made. */
  const send = (call: Call, url: string, init: SendInit, tries?: { count: number }): Promise<Answer> => {
    if (!init.retry || options.retry === false) return sendOnce(call, url, init);
    return withRetries(
      (attempt) => {
        if (tries) tries.count = attempt;
        return sendOnce(call, url, init);
      },
      { ...options.retry, ...(init.signal ? { signal: init.signal } : {}) },
    );
  };

  /**
   * A write, sent once unless `init.retry` says the API can tell a repeat. A write that went out and got
   * no answer, with no way to repeat it safely, may have been done: that is what it rejects with.
   */
  const sendWrite = async (call: Call, url: string, init: SendInit, tries?: { count: number }) => {
    try {
      return await send(call, url, init, tries);
    } catch (error) {
      if (init.retry || error instanceof UnconfirmedWriteError) throw error;
      if (error instanceof NetworkError) throw new UnconfirmedWriteError(error.message);
      // A gateway's "bad gateway" or "timed out" (a proxy, `ninefold dev`'s own) says nothing of whether
      // the server behind it did the write.
      if (error instanceof ApiError && (error.status === 502 || error.status === 504))
        throw new UnconfirmedWriteError(error.detail ?? error.title);
      throw error;
    }
  };

  const urlOf = (
    call: Call,
    path: Record<string, string> | undefined,
    key?: string,
    query?: URLSearchParams,
  ) => {
    const all = new URLSearchParams(query);
    for (const [name, value] of askedOf(call, 'query')) all.set(name, value);
    const search = all.toString();
    return `${base}${fillPath(call.path, path, key)}${search ? `?${search}` : ''}`;
  };

  const readOne = (call: Call, answer: Answer) => readRecordAnswer(model, call, answer);

  const fetchBlob = createBlobFetch({ ...options, doFetch, timeoutMs, timeoutSignal, network, now });
  const fileContext = (): FileCallsContext => ({ api, model, base, callsOf, send, fetchBlob, urlOf });

  return {
    calls: callsOf,

    async list(params: ListParams): Promise<ListResult> {
      const call = requireListCall(callsOf(params.entity), params.entity, params.call);
      const pageKey = (page: number) =>
        JSON.stringify([
          params.entity,
          params.path ?? {},
          params.sort,
          params.filters,
          pageSize(params),
          page,
        ]);
      const linked =
        params.page.style === 'link-header' ? nextLinks.get(pageKey(params.page.page)) : undefined;
      const url = linked ?? urlOf(call, params.path, undefined, listSearchParams(model, call, params));
      const answer = await send(call, url, {
        retry: true,
        ...(params.signal ? { signal: params.signal } : {}),
      });
      const result = readList(model, call, answer);
      if (params.page.style === 'link-header') {
        const next = sameOriginLink(base, answer.url, parseLinkHeader(answer.headers.get('link')).next);
        result.hasNext = next !== undefined;
        if (next !== undefined) nextLinks.set(pageKey(params.page.page + 1), next);
      } else if (result.hasNext === undefined && result.total !== undefined) {
        const offset =
          params.page.style === 'page'
            ? (params.page.page - 1) * params.page.size
            : params.page.style === 'offset'
              ? params.page.offset
              : 0;
        result.hasNext = offset + result.items.length < result.total;
      }
      return result;
    },

    async get(params) {
      const call = requireCall(callsOf(params.entity), params.entity, 'get', params.path);
      const answer = await send(call, urlOf(call, params.path, params.id), {
        retry: true,
        ...(params.signal ? { signal: params.signal } : {}),
      });
      return readOne(call, answer);
    },

    async create(params) {
      const call = requireCall(callsOf(params.entity), params.entity, 'create', params.path);
      const encoded = encodeBody(call.body, params.values);
      const key = takesIdempotencyKey(api, call) ? params.idempotencyKey : undefined;
      const answer = await sendWrite(call, urlOf(call, params.path), {
        body: encoded.body,
        ...(encoded.contentType ? { contentType: encoded.contentType } : {}),
        ...(key ? { idempotencyKey: key } : {}),
        retry: key !== undefined,
      });
      return readOne(call, answer);
    },

    async update(params) {
      const call = requireCall(callsOf(params.entity), params.entity, 'update', params.path);
      const encoded = encodeBody(call.body, params.values);
      const tries = { count: 1 };
      try {
        const answer = await sendWrite(
          call,
          urlOf(call, params.path, params.id),
          {
            body: encoded.body,
            ...(encoded.contentType ? { contentType: encoded.contentType } : {}),
            ...(params.version ? { ifMatch: params.version } : {}),
            retry: params.version !== undefined,
          },
          tries,
        );
        return readOne(call, answer);
      } catch (error) {
        // A retry refused as stale after a try whose answer was lost: that try may be what changed it.
        if (
          error instanceof ApiError &&
          error.status === 412 &&
          tries.count > 1 &&
          error.current !== undefined &&
          holdsValues(error.current, params.values)
        ) {
          return {
            record: error.current,
            ...(error.currentVersion === undefined ? {} : { version: error.currentVersion }),
          };
        }
        throw error;
      }
    },

    async delete(params) {
      const call = requireCall(callsOf(params.entity), params.entity, 'delete', params.path);
      await sendWrite(call, urlOf(call, params.path, params.id), { retry: false });
    },

    async transition(params) {
      const call = requireTransitionCall(callsOf(params.entity), params.entity, params.transition);
      const key = takesIdempotencyKey(api, call) ? params.idempotencyKey : undefined;
      const answer = await sendWrite(call, urlOf(call, params.path, params.id), {
        ...(params.version ? { ifMatch: params.version } : {}),
        ...(key ? { idempotencyKey: key } : {}),
        retry: key !== undefined,
      });
      return readOne(call, answer);
    },

    download: (url) => fetchBlob(url, {}),

    ...(api.names || api.people
      ? {
          // Its code comes with the first name asked for: most roles read the records they name.
          names: async (params: NamesParams) =>
            (await import('./names-call')).readNames(api, base, send, params),
        }
      : {}),

    // A figure the prototype API computes, or one whose own call of point 7 answers it.
    answersFigure: (figure: Figure) =>
      figure.call === undefined
        ? api.figures !== undefined
        : model.calls.shown &&
          model.calls.items.some((call) => call.name === figure.call && call.method === 'GET'),
    figure: async (params: FigureParams) =>
      (await import('./figure-call')).readFigure(model, api, base, send, params),

    // Their code comes when a file is first exported or imported, not with every page.
    ...(api.import
      ? {
          importRows: async (params: ImportParams) =>
            (await import('./file-calls')).importRows(fileContext(), params),
        }
      : {}),
    ...(api.csv
      ? {
          exportCsv: async (params: ListParams) =>
            (await import('./file-calls')).exportCsv(fileContext(), params),
        }
      : {}),
    ...(api.events
      ? {
          follow(handlers: LiveHandlers) {
            // The stream's code loads after the first screen: a page that is never left open pays nothing.
            let stop: (() => void) | undefined;
            let stopped = false;
            void import('./live-events').then(({ followEvents }) => {
              if (stopped) return;
              stop = followEvents(
                {
                  url: `${base}${api.events}`,
                  fetch: doFetch,
                  ...(options.authHeaders ? { authHeaders: options.authHeaders } : {}),
                },
                {
                  ...handlers,
                  onState(state) {
                    network.liveState(state);
                    handlers.onState?.(state);
                  },
                },
              );
            });
            return () => {
              stopped = true;
              stop?.();
              network.liveState(undefined);
            };
          },
        }
      : {}),

    network,
    connection,
  };
}

export interface SendInit {
  body?: BodyInit;
  contentType?: string;
  ifMatch?: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Longer than the usual wait, for a call that does much (an import's rows). */
  timeoutMs?: number;
  /** Whether the call is safe to try again: a read, or a write the API can tell it has seen. */
  retry: boolean;
}

/**
 * Whether a record holds every value an update sent. A file sent cannot be compared with the stored
 * one's description, so an update that sent one never counts as held.
 */
function holdsValues(record: ApiRecord, values: Record<string, unknown>): boolean {
  return Object.entries(values).every(
    ([name, value]) => value === undefined || sameJson(record[name], value),
  );
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]))
    );
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(b).filter((key) => b[key] !== undefined);
  return (
    keys.length === Object.keys(a).filter((key) => a[key] !== undefined).length &&
    keys.every((key) => sameJson(a[key], b[key]))
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function pageSize(params: ListParams): number | undefined {
  const page = params.page;
  return page.style === 'offset' ? page.limit : page.style === 'none' ? undefined : page.size;
}

/** `AbortSignal.any`, with a fallback for browsers that lack it (Safari before 17.4). */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

export type { Answer } from './answer-read';
