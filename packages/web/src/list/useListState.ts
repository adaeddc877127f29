import { useCallback, useMemo } from 'react';
import { useSearchParams } from '../app/router';
import type { ListPlan } from './list-plan';
import { type ListState, parseListState, writeListState } from './list-state';

/** The list state, read from and written to the address (so reload, links and back/forward keep it). */
export function useListState(plan: ListPlan): { state: ListState; update(next: ListState): void } {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const state = useMemo(() => parseListState(new URLSearchParams(search), plan), [search, plan]);
  const update = useCallback(
    (next: ListState) => setSearchParams(writeListState(next, plan)),
    [plan, setSearchParams],
  );
  return { state, update };
}
