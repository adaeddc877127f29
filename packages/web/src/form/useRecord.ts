import { useQuery } from '@tanstack/react-query';
import { useSpec } from '../app/SpecContext';
import { ApiError, type PathValues } from '../data/data-provider';
import { recordKey } from './query-keys';

/**
 * One record with its version, through `data.get`. A refusal from the API (a 404, a 403) is an answer,
 * not a glitch, so it is not retried; a network failure or a server error is retried once.
 */
export function useRecord(
  entity: string,
  id: string | undefined,
  options: { enabled?: boolean; path?: PathValues } = {},
) {
  const { data } = useSpec();
  const canGet = data.calls(entity).get !== undefined;
  const { path } = options;
  return useQuery({
    queryKey: recordKey(entity, id ?? ''),
    queryFn: ({ signal }) => data.get({ entity, id: id ?? '', signal, ...(path ? { path } : {}) }),
    enabled: (options.enabled ?? true) && canGet && id !== undefined,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
}
