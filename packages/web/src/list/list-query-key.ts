import type { ListParams } from '../data/data-provider';

/**
 * The query key of a list request. Every list of an entity starts with `['list', entity]`, so a screen
 * that changes records refreshes them all with `invalidateQueries({ queryKey: ['list', entity] })`.
 */
export function listQueryKey(params: Omit<ListParams, 'signal'>): readonly unknown[] {
  return [
    'list',
    params.entity,
    {
      path: params.path ?? {},
      page: params.page,
      sort: params.sort,
      filters: params.filters,
      search: params.search ?? '',
    },
  ];
}
