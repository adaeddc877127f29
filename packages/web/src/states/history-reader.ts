import { clipText } from '../data/problem-reader';
import { isObject, readServiceJson, type ServiceRead, serviceRecordUrl } from '../data/service-read';

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

export interface HistoryRequest extends ServiceRead {
  /** The API's base (`/api`) and its history path (`/_history`), as `/spec.json` gives them. */
  base: string;
  history: string;
  entity: string;
  id: string;
}

/** A record's history is short; an answer past this many entries is cut, not drawn whole. */
export const MAX_HISTORY = 200;

/** `/api/_history/Order/12`: the entity and the id are encoded, so neither can change the path. */
export function historyUrl(base: string, history: string, entity: string, id: string): string {
  return serviceRecordUrl(base, history, entity, id);
}

/**
 * A record's transition history from the prototype API (`GET {base}{history}/{Entity}/{id}`), newest
 * first as the API answers it. Rejects like the data provider (see `readServiceJson`). Entries that are
 * not what the contract says are skipped, and every text is clipped: the answer is data, never markup.
 *
 * @example
 * await readHistory({ base: '/api', history: '/_history', entity: 'Order', id: '1' });
 * // [{ transition: 'place', from: 'draft', to: 'placed', by: { id: 'u1', email: 'clerk@…' }, at: '…' }]
 */
export async function readHistory(request: HistoryRequest): Promise<HistoryEntry[]> {
  return parseHistory(
    await readServiceJson(historyUrl(request.base, request.history, request.entity, request.id), request),
  );
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
