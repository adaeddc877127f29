import { exhaustiveSwitchError } from '@ninefold/model';
import type { ApiRecord, DataProvider, ListParams, PageRequest } from '../data/data-provider';

/** A selection of every matching record stops here: past it, a bulk change is a job for a script. */
export const MAX_SELECTION = 5_000;

/**
 * Every record of the list with its filters and search, read page after page in the call's own style
 * (the API decides what matches, and what the role may read). Stops at `MAX_SELECTION` records.
 *
 * @example
 * await collectAll(data, params, (n) => console.log(n)); // { records: [...134], complete: true }
 */
export async function collectAll(
  data: DataProvider,
  params: Omit<ListParams, 'signal'>,
  /** Records per request: the screen's page size, or the call's stated maximum (an API may cap any other). */
  size: number | undefined,
  onProgress: (read: number) => void,
  signal?: AbortSignal,
): Promise<{ records: ApiRecord[]; complete: boolean }> {
  const records: ApiRecord[] = [];
  let page: PageRequest | undefined = first(params.page, size);
  while (page !== undefined && records.length < MAX_SELECTION) {
    const result = await data.list({ ...params, page, ...(signal ? { signal } : {}) });
    records.push(...result.items);
    onProgress(records.length);
    const more =
      result.items.length > 0 &&
      (result.hasNext ?? (result.total === undefined ? result.next != null : records.length < result.total));
    page = more ? following(page, result.next ?? undefined) : undefined;
  }
  return { records: records.slice(0, MAX_SELECTION), complete: page === undefined };
}

function first(page: PageRequest, size: number | undefined): PageRequest {
  switch (page.style) {
    case 'page':
      return { ...page, page: 1, size: size ?? page.size };
    case 'link-header':
      return size === undefined ? { ...page, page: 1 } : { ...page, page: 1, size };
    case 'offset':
      return { ...page, offset: 0, limit: size ?? page.limit };
    case 'cursor':
      return { style: 'cursor', size: size ?? page.size };
    case 'none':
      return page;
    default:
      return exhaustiveSwitchError(page);
  }
}

function following(page: PageRequest, cursor: string | undefined): PageRequest | undefined {
  switch (page.style) {
    case 'page':
    case 'link-header':
      return { ...page, page: page.page + 1 };
    case 'offset':
      return { ...page, offset: page.offset + page.limit };
    case 'cursor':
      return cursor === undefined ? undefined : { style: 'cursor', cursor, size: page.size };
    case 'none':
      return undefined;
    default:
      return exhaustiveSwitchError(page);
  }
}
