import {
  type ApiDescription,
  DEFAULT_PAGE_SIZE,
  findEntity,
  listDefaultPageSize,
  type Model,
} from '@ninefold/model';
import type { DataProvider, FilterValue, ListResult, PageRequest } from '../data/data-provider';
import { firstPage } from '../form/first-page';
import type { AnySpec, EntityName, FieldName, SpecNames } from './types';

/**
 * What `list` asks for, in the specification's names: the fields to filter and sort by, and which page
 * of how many records. The list call's own paging style (pages, offsets, cursors) is the client's
 * business; `page` counts from 1.
 */
export interface ListOptions<S extends SpecNames = AnySpec, E extends EntityName<S> = EntityName<S>> {
  filters?: ReadonlyArray<{ field: FieldName<S, E>; op?: FilterValue['op']; value: string | string[] }>;
  sort?: ReadonlyArray<{ field: FieldName<S, E>; direction?: 'asc' | 'desc' }>;
  /** How many records (default: the list's own page size, 25 where it says none). */
  size?: number;
  /** Which page, from 1 (default 1). A call that pages by cursor answers only its first page here. */
  page?: number;
  /** Free text for the call's search parameter, where it has one. */
  search?: string;
  signal?: AbortSignal;
}

/** `Ninefold.list`: the entity's first list call, asked in its own paging style. */
export function listRecords(
  model: Model,
  api: ApiDescription,
  data: DataProvider,
  entity: string,
  options: ListOptions,
): Promise<ListResult> {
  const call = api.calls.find((candidate) => candidate.purpose === 'list' && candidate.entity === entity);
  const found = findEntity(model, entity);
  const size = options.size ?? (found ? listDefaultPageSize(model, found) : DEFAULT_PAGE_SIZE);
  const first = firstPage(call?.pagination, size);
  const number = Math.max(1, Math.floor(options.page ?? 1));
  const page: PageRequest =
    first.style === 'page' || first.style === 'link-header'
      ? { ...first, page: number }
      : first.style === 'offset'
        ? { ...first, offset: (number - 1) * size }
        : first;
  return data.list({
    entity,
    ...(call ? { call: call.name } : {}),
    page,
    sort: (options.sort ?? []).map((key) => ({ field: key.field, direction: key.direction ?? 'asc' })),
    filters: (options.filters ?? []).map((filter) => ({
      field: filter.field,
      op: filter.op ?? (Array.isArray(filter.value) ? 'in' : 'eq'),
      value: filter.value,
    })),
    ...(options.search === undefined ? {} : { search: options.search }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
