import { ApiError, NetworkError } from '../data/data-provider';
import { clipText, readApiError } from '../data/problem-reader';

/** One transition taken, as the prototype API records it. */
export interface HistoryEntry {
  transition: string;
  from: string;
  to: string;
  /**
   * Who took it; null when nobody was signed in (an API without sign-in); undefined when the API does
   * not tell this person (a role that may only read the record).
   */
  by?: { id?: string; email?: string } | null;
  /** When, as ISO 8601. */
  at: string;
}

export interface HistoryRequest {
  /** The API's base (`/api`) and its history path (`/_history`), as `/spec.json` gives them. */
  base: string;
  history: string;
  entity: string;
  id: string;
  headers?: Readonly<Record<string, string>>;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A record's history is short; an answer past this many entries is cut, not drawn whole. */
export const MAX_HISTORY = 200;
const DEFAULT_TIMEOUT_MS = 30_000;

/** `/api/_history/Order/12`: the entity and the id are encoded, so neither can change the path. */
export function historyUrl(base: string, history: string, entity: string, id: string): string {
  const path = `/${history.replace(/^\/+|\/+$/g, '')}`;
  return `${base.replace(/\/+$/, '')}${path}/${encodeURIComponent(entity)}/${encodeURIComponent(id)}`;
}

/**
 * A record's transition history from the prototype API (`GET {base}{history}/{Entity}/{id}`), newest
 * first as the API answers it. Rejects like the data provider: an `ApiError` for an answer that is not a
 * success, a `NetworkError` for none. Entries that are not what the contract says are skipped, and every
 * text is clipped: the answer is data, never markup.
 *
 * @example
 * await readHistory({ base: '/api', history: '/_history', entity: 'Order', id: '1' });
 * // [{ transition: 'place', from: 'draft', to: 'placed', by: { id: 'u1', email: 'clerk@…' }, at: '…' }]
 */
export async function readHistory(request: HistoryRequest): Promise<HistoryEntry[]> {
  const doFetch = request.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? anySignal([request.signal, timeout]) : timeout;
  let response: Response;
  let body: unknown;
  try {
    response = await doFetch(historyUrl(request.base, request.history, request.entity, request.id), {
      headers: { ...request.headers, accept: 'application/json, application/problem+json' },
      signal,
    });
    const text = await response.text();
    body = parse(text);
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
  return parseHistory(body);
}

/** The entries of a history answer (`{ items: [...] }`), keeping only well-formed ones. */
export function parseHistory(body: unknown): HistoryEntry[] {
  const items = isObject(body) && Array.isArray(body.items) ? body.items : [];
  const entries: HistoryEntry[] = [];
  for (const item of items.slice(0, MAX_HISTORY)) {
    if (!isObject(item)) continue;
    const { transition, from, to, at, by } = item;
    if (typeof transition !== 'string' || typeof to !== 'string' || typeof at !== 'string') continue;
    entries.push({
      transition: clipText(transition),
      from: typeof from === 'string' ? clipText(from) : '',
      to: clipText(to),
      at: clipText(at),
      ...(by === undefined
        ? {}
        : {
            by: isObject(by)
              ? {
                  ...(typeof by.id === 'string' || typeof by.id === 'number'
                    ? { id: clipText(String(by.id)) }
                    : {}),
                  ...(typeof by.email === 'string' ? { email: clipText(by.email) } : {}),
                }
              : null,
          }),
    });
  }
  return entries;
}

export function isHistoryRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 401 || error.status === 403 || error.status === 404);
}

/** `AbortSignal.any` where the browser has it (Safari before 17.4 does not). */
function anySignal(signals: AbortSignal[]): AbortSignal {
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

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
