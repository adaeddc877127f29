import { exhaustiveSwitchError, type Pagination } from '@ninefold/model';
import type { PageRequest } from '../data/data-provider';

/**
 * The smallest page a list call can be asked for, for a dashboard tile that only wants the total: one
 * record, or every record when the call does not page (then the count is the number of records).
 */
export function countRequest(pagination: Pagination | undefined): PageRequest {
  const style = pagination ?? { style: 'none' as const };
  switch (style.style) {
    case 'page':
      return { style: 'page', page: 1, size: 1 };
    case 'offset':
      return { style: 'offset', offset: 0, limit: 1 };
    case 'cursor':
      return { style: 'cursor', size: 1 };
    case 'link-header':
      return { style: 'link-header', page: 1, size: 1 };
    case 'none':
      return { style: 'none' };
    default:
      return exhaustiveSwitchError(style);
  }
}

/** The count an answer gives: its total, or for a call that does not page, the records themselves. */
export function countOf(pagination: Pagination | undefined, result: { items: unknown[]; total?: number }) {
  if (result.total !== undefined) return result.total;
  return (pagination?.style ?? 'none') === 'none' ? result.items.length : undefined;
}
