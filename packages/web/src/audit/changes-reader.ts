import type { JsonValue } from '@ninefold/model';
import { clipText } from '../data/problem-reader';
import { isObject, readServiceJson, type ServiceRead, serviceRecordUrl } from '../data/service-read';

/** A field a write changed, as the API shows it to this person: a side they may not see is absent. */
export interface FieldChange {
  field: string;
  before?: JsonValue;
  after?: JsonValue;
}

/** One write of a record, as the prototype API's audit trail answers it (docs/prototype-api.md). */
export interface ChangeEntry {
  id: number;
  at: string;
  /** The record written: its entity and key, as the API names them. */
  entity: string;
  key: string;
  action: 'create' | 'update' | 'transition' | 'delete';
  transition?: string;
  /**
   * Who made it; null when nobody was signed in; undefined when the API does not tell this person (a
   * role that may only read the record).
   */
  by?: { id?: string; name?: string } | null;
  changes: FieldChange[];
}

export interface ChangesPage {
  entries: ChangeEntry[];
  /** Where the next, older page starts, when there is one. */
  next?: string;
}

export interface ChangesRequest extends ServiceRead {
  /** The API's base (`/api`) and its audit path (`/_audit`), as `/spec.json` gives them. */
  base: string;
  audit: string;
  /** One entity's changes, or with `id` one record's; all the reader may see without either. */
  entity?: string;
  id?: string;
  /** The `next` of the page before. */
  before?: string;
  limit?: number;
}

/** Entries and fields past these are cut: the answer is another party's data. */
const MAX_ENTRIES = 200;
const MAX_CHANGES = 500;
const ACTIONS = new Set(['create', 'update', 'transition', 'delete']);

/**
 * A page of changes, newest first: a record's (`GET {base}{audit}/{Entity}/{id}`), or across records
 * (`GET {base}{audit}?entity=`).
 */
export async function readChanges(request: ChangesRequest): Promise<ChangesPage> {
  return parseChanges(await readServiceJson(changesUrl(request), request));
}

/** Every change the reader may see, as the CSV the API writes: one row per changed field. */
export async function changesCsv(request: ChangesRequest): Promise<Blob> {
  const fetcher = request.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const answer = await fetcher(changesUrl({ ...request, limit: undefined, before: undefined }), {
    headers: { ...request.headers, accept: 'text/csv' },
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (!answer.ok) throw new Error(`The changes could not be exported (${answer.status}).`);
  return answer.blob();
}

function changesUrl(
  request: Omit<ChangesRequest, 'limit' | 'before'> & { limit?: number; before?: string },
): string {
  const query = new URLSearchParams();
  if (request.entity !== undefined && request.id === undefined) query.set('entity', request.entity);
  if (request.limit !== undefined) query.set('limit', String(request.limit));
  if (request.before !== undefined) query.set('before', request.before);
  const url =
    request.entity !== undefined && request.id !== undefined
      ? serviceRecordUrl(request.base, request.audit, request.entity, request.id)
      : `${request.base.replace(/\/+$/, '')}/${request.audit.replace(/^\/+|\/+$/g, '')}`;
  return `${url}${query.size > 0 ? `?${query}` : ''}`;
}

/** The well-formed entries of an answer; every text clipped, values kept as data (never markup). */
export function parseChanges(body: unknown): ChangesPage {
  const items = isObject(body) && Array.isArray(body.items) ? body.items : [];
  const entries: ChangeEntry[] = [];
  for (const item of items.slice(0, MAX_ENTRIES)) {
    if (!isObject(item)) continue;
    const { id, at, action, transition, by, changes, entity, key } = item;
    if (typeof id !== 'number' || typeof at !== 'string' || typeof action !== 'string') continue;
    if (typeof entity !== 'string' || (typeof key !== 'string' && typeof key !== 'number')) continue;
    if (!ACTIONS.has(action) || !Array.isArray(changes)) continue;
    entries.push({
      id,
      at: clipText(at),
      entity: clipText(entity),
      key: clipText(String(key)),
      action: action as ChangeEntry['action'],
      ...(typeof transition === 'string' ? { transition: clipText(transition) } : {}),
      ...(by === undefined ? {} : { by: personOf(by) }),
      changes: changes
        .slice(0, MAX_CHANGES)
        .filter(
          (change): change is Record<string, JsonValue> =>
            isObject(change) && typeof change.field === 'string',
        )
        .map((change) => ({
          field: clipText(String(change.field)),
          ...('before' in change ? { before: change.before as JsonValue } : {}),
          ...('after' in change ? { after: change.after as JsonValue } : {}),
        })),
    });
  }
  const next = isObject(body) && typeof body.next === 'string' ? clipText(body.next) : undefined;
  return { entries, ...(next === undefined ? {} : { next }) };
}

function personOf(by: unknown): ChangeEntry['by'] {
  if (!isObject(by)) return null;
  return {
    ...(typeof by.id === 'string' || typeof by.id === 'number' ? { id: clipText(String(by.id)) } : {}),
    ...(typeof by.name === 'string' ? { name: clipText(by.name) } : {}),
  };
}
