import { NetworkError } from './data-provider';
import { anySignal } from './http-data-provider';
import { clipText, readApiError } from './problem-reader';

/** How a read of one of the prototype API's own services (history, changes) is made. */
export interface ServiceRead {
  headers?: Readonly<Record<string, string>>;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The JSON a service of the prototype API answers at `url`, undefined for a body that is not JSON.
 * Rejects like the data provider: an `ApiError` for an answer that is not a success, a `NetworkError`
 * for none (or none within the timeout). What it answers is data: the caller keeps what the contract says.
 */
export function readServiceJson(url: string, request: ServiceRead): Promise<unknown> {
  return serviceJson(url, {}, request);
}

/**
 * A write to one of the prototype API's own services (people, passwords), as JSON; the answer's JSON, or
 * undefined for none (a 204). Rejects as `readServiceJson` does. Never retried: an invitation sent twice
 * is two emails.
 */
export function sendServiceJson(
  url: string,
  write: { method: 'POST' | 'PATCH'; body?: unknown },
  request: ServiceRead,
): Promise<unknown> {
  return serviceJson(
    url,
    {
      method: write.method,
      ...(write.body === undefined
        ? {}
        : { body: JSON.stringify(write.body), headers: { 'content-type': 'application/json' } }),
    },
    request,
  );
}

async function serviceJson(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string> },
  request: ServiceRead,
): Promise<unknown> {
  const doFetch = request.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? anySignal([request.signal, timeout]) : timeout;
  let response: Response;
  let body: unknown;
  try {
    response = await doFetch(url, {
      ...init,
      headers: { ...request.headers, ...init.headers, accept: 'application/json, application/problem+json' },
      signal,
    });
    body = parse(await response.text());
  } catch (error) {
    if (request.signal?.aborted) throw request.signal.reason ?? error;
    if (timeout.aborted) throw new NetworkError(`No answer within ${Math.round(timeoutMs / 1000)} s.`);
    throw new NetworkError(clipText(error instanceof Error ? error.message : String(error)));
  }
  if (!response.ok) {
    throw await readApiError(
      response.status,
      response.statusText,
      response.headers.get('content-type'),
      body,
    );
  }
  return body;
}

/** `/api/_history/Order/12`: the entity and the id are encoded, so neither can change the path. */
export function serviceRecordUrl(base: string, service: string, entity: string, id: string): string {
  const path = `/${service.replace(/^\/+|\/+$/g, '')}`;
  return `${base.replace(/\/+$/, '')}${path}/${encodeURIComponent(entity)}/${encodeURIComponent(id)}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
