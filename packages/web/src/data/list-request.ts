import {
  type Call,
  exhaustiveSwitchError,
  filterParamValue,
  type Model,
  resolveAmount,
  sortParams,
} from '@ninefold/model';
import type { ListParams, PageRequest } from './data-provider';

/** Raised when a call's path needs a value the caller did not give: a programmer error, never guessed. */
export class PathParameterError extends Error {
  override readonly name = 'PathParameterError';
}

/** The `{param}` names of a call's path, in order: `/stores/{storeId}/employees/{id}` -> storeId, id. */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}

/**
 * A call's path with its `{param}` segments filled in, each URL-encoded. The record key goes into the
 * last parameter (`/stores/{storeId}/employees/{id}`), the others come from `values`.
 *
 * @example
 * ```ts
 * fillPath('/orders/{id}', {}, 'a/b'); // '/orders/a%2Fb'
 * ```
 */
export function fillPath(path: string, values: Record<string, string> = {}, key?: string): string {
  const last = pathParameterNames(path).at(-1);
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value =
      key !== undefined && name === last ? key : Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw new PathParameterError(`The path ${path} needs a value for {${name}}.`);
    return encodeURIComponent(value);
  });
}

/**
 * The query string of a list call: the page in the call's pagination style (a request in another style
 * is translated where it can be, e.g. page 3 of 20 is offset 40), the sort in the call's style, and the
 * filters under their parameters (`in` values comma-joined). Sort keys and filters the call does not
 * accept are left out rather than sent to be refused: a screen offers only what the call takes.
 *
 * @example
 * ```ts
 * listSearchParams(model, listOrders, { page: { style: 'page', page: 2, size: 25 },
 *   sort: [{ field: 'placedOn', direction: 'desc' }], filters: [{ field: 'status', op: 'eq', value: 'paid' }] });
 * // page=2&limit=25&sort=-placedOn&status=paid
 * ```
 */
export function listSearchParams(
  model: Model,
  call: Call,
  params: Pick<ListParams, 'page' | 'sort' | 'filters' | 'search'>,
): URLSearchParams {
  const query = new URLSearchParams();
  addPage(query, model, call, params.page);

  if (call.sort) for (const [name, value] of sortParams(call.sort, params.sort)) query.set(name, value);

  for (const filter of params.filters) {
    const target =
      call.filters.find((candidate) => candidate.field === filter.field && candidate.op === filter.op) ??
      call.filters.find((candidate) => candidate.field === filter.field);
    if (!target) continue;
    const values = Array.isArray(filter.value) ? filter.value : [filter.value];
    const nonEmpty = values.filter((value) => value !== '');
    if (nonEmpty.length === 0) continue;
    query.set(
      target.param,
      filterParamValue(target, target.op === 'in' ? nonEmpty.join(',') : (nonEmpty.at(-1) ?? '')),
    );
  }
  const search = params.search?.trim();
  if (call.search && search) query.set(call.search.param, search);
  return query;
}

/** The page size and position of a request in any style, as offset and size. */
function position(page: PageRequest): { offset: number; size: number | undefined } {
  switch (page.style) {
    case 'page':
      return { offset: (page.page - 1) * page.size, size: page.size };
    case 'offset':
      return { offset: page.offset, size: page.limit };
    case 'cursor':
      return { offset: 0, size: page.size };
    case 'link-header':
      return { offset: page.size === undefined ? 0 : (page.page - 1) * page.size, size: page.size };
    case 'none':
      return { offset: 0, size: undefined };
    default:
      return exhaustiveSwitchError(page);
  }
}

function addPage(query: URLSearchParams, model: Model, call: Call, page: PageRequest): void {
  const pagination = call.pagination;
  if (!pagination) return;
  const max = 'maxSize' in pagination ? resolveAmount(model, pagination.maxSize)?.value : undefined;
  const clamp = (size: number) =>
    Math.max(1, typeof max === 'number' && max > 0 ? Math.min(size, max) : size);
  const { offset, size } = position(page);
  switch (pagination.style) {
    case 'page': {
      const pageSize = size === undefined ? undefined : clamp(size);
      const number = page.style === 'page' || page.style === 'link-header' ? page.page : undefined;
      const pageNumber = number ?? (pageSize ? Math.floor(offset / pageSize) + 1 : 1);
      query.set(pagination.pageParam, String(Math.max(1, pageNumber)));
      if (pageSize !== undefined) query.set(pagination.sizeParam, String(pageSize));
      return;
    }
    case 'offset':
      query.set(pagination.offsetParam, String(Math.max(0, offset)));
      if (size !== undefined) query.set(pagination.limitParam, String(clamp(size)));
      return;
    case 'cursor':
      if (page.style === 'cursor' && page.cursor) query.set(pagination.cursorParam, page.cursor);
      if (size !== undefined) query.set(pagination.sizeParam, String(clamp(size)));
      return;
    case 'link-header': {
      // Later pages normally follow the `next` link the API gave; `page` is the prototype API's own
      // parameter, used when no link is known for the page asked for.
      const number = page.style === 'link-header' || page.style === 'page' ? page.page : 1;
      if (number > 1) query.set('page', String(number));
      if (pagination.sizeParam && size !== undefined) query.set(pagination.sizeParam, String(clamp(size)));
      return;
    }
    case 'none':
      return;
    default:
      exhaustiveSwitchError(pagination);
  }
}
