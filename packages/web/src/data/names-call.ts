import type { ApiDescription, Call, JsonValue } from '@ninefold/model';
import { MAX_NAMES_ASKED, type NamesParams } from './data-provider';
import type { Answer, SendInit } from './http-data-provider';
import { clipText } from './problem-reader';

/** The prototype API's names call, as a call (it is no call of point 7). */
const NAMES_CALL: Call = {
  name: 'names',
  method: 'GET',
  path: '',
  purpose: 'other',
  parameters: [],
  filters: [],
};

/**
 * `DataProvider.names` on the prototype API: `GET {names}/{Entity}?id=…` or `GET {people}?id=…`, read
 * as `{ items: [{ id, name }] }`. Items that are not that are skipped, and a name is clipped: the answer
 * is data, never markup.
 */
export async function readNames(
  api: Pick<ApiDescription, 'names' | 'people'>,
  base: string,
  send: (call: Call, url: string, init: SendInit) => Promise<Answer>,
  params: NamesParams,
): Promise<ReadonlyMap<string, JsonValue>> {
  const path = params.of.kind === 'people' ? api.people : api.names;
  if (path === undefined) return new Map();
  const ids = [...new Set(params.ids ?? [])].slice(0, MAX_NAMES_ASKED);
  const query = new URLSearchParams(
    params.search === undefined ? ids.map((id) => ['id', id]) : [['q', params.search]],
  );
  const where = params.of.kind === 'people' ? path : `${path}/${encodeURIComponent(params.of.entity)}`;
  const answer = await send({ ...NAMES_CALL, path: where }, `${base}${where}?${query}`, {
    retry: true,
    ...(params.signal ? { signal: params.signal } : {}),
  });
  const items = (answer.body as { items?: unknown } | null)?.items;
  const names = new Map<string, JsonValue>();
  if (!Array.isArray(items)) return names;
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const { id, name } = item as { id?: unknown; name?: unknown };
    if (typeof id !== 'string' || (params.search === undefined && !ids.includes(id))) continue;
    if (typeof name === 'string') names.set(id, clipText(name));
    else if (typeof name === 'number' || typeof name === 'boolean') names.set(id, name);
  }
  return names;
}
