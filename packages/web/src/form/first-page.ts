import { exhaustiveSwitchError, type Pagination } from '@ninefold/model';
import type { PageRequest } from '../data/data-provider';

/**
 * The request for the first page of a list call, in the call's own pagination style.
 *
 * @example
 * firstPage({ style: 'page', pageParam: 'page', sizeParam: 'limit' }, 25) // { style: 'page', page: 1, size: 25 }
 */
export function firstPage(pagination: Pagination | undefined, size: number): PageRequest {
  if (!pagination) return { style: 'none' };
  switch (pagination.style) {
    case 'page':
      return { style: 'page', page: 1, size };
    case 'offset':
      return { style: 'offset', offset: 0, limit: size };
    case 'cursor':
      return { style: 'cursor', size };
    case 'link-header':
      return { style: 'link-header', page: 1, size };
    case 'none':
      return { style: 'none' };
    default:
      return exhaustiveSwitchError(pagination);
  }
}
