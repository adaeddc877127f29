import type { Call, FilterParam } from '@ninefold/model';

/**
 * The list call's filter on the field that names a record, by which typed text finds records: `contains`
 * where point 7 offers it, else `eq`; none, and the first page is offered and filtered where it is shown.
 */
export function displayFilter(
  listCall: Call | undefined,
  display: string | undefined,
): FilterParam | undefined {
  if (display === undefined) return undefined;
  return (
    listCall?.filters.find((filter) => filter.field === display && filter.op === 'contains') ??
    listCall?.filters.find((filter) => filter.field === display && filter.op === 'eq')
  );
}
