import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSpec } from '../app/SpecContext';
import type { ListParams } from '../data/data-provider';
import { listQueryKey } from './list-query-key';

/**
 * One page of a list. While the next page loads, the current one stays on screen (placeholder data) so
 * the table does not collapse into a spinner at every click.
 */
export function useListQuery(params: Omit<ListParams, 'signal'>, enabled: boolean) {
  const { data } = useSpec();
  return useQuery({
    queryKey: listQueryKey(params),
    queryFn: ({ signal }) => data.list({ ...params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
