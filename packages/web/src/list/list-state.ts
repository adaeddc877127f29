import { exhaustiveSwitchError, type SortKey } from '@ninefold/model';
import type { FilterValue, ListParams, PageRequest } from '../data/data-provider';
import { type FilterPlan, filterWidgetKind, type ListPlan } from './list-plan';

/**
 * Where a person is in a list: the page (or the cursors that led to it), the order and the filters. It
 * lives in the address, so a reload or a shared link shows the same page and back/forward move through it.
 */
export interface ListState {
  /** 1-based page, for the page, offset and link-header styles. */
  page: number;
  /** Cursor style: the cursor of each page after the first that led here; the last is this page's. */
  cursors: string[];
  /** The order the address asks for; undefined means the screen's default. */
  sort: SortKey | undefined;
  /** Field name -> the chosen value (several for an `in` filter). */
  filters: Record<string, string | string[]>;
  /** The free text searched for; '' for none. */
  search: string;
}

export const EMPTY_LIST_STATE: ListState = { page: 1, cursors: [], sort: undefined, filters: {}, search: '' };

const PAGE_PARAM = 'page';
const SORT_PARAM = 'sort';
const CURSOR_PARAM = 'cursor';
const SEARCH_PARAM = 'q';
const RESERVED = new Set([PAGE_PARAM, SORT_PARAM, CURSOR_PARAM, SEARCH_PARAM]);
/** Far beyond any real list; a larger number in the address is a typo or an attack, not a page. */
const MAX_PAGE = 10_000_000;
/** Longer values are not something a person typed or an API handed out; they are dropped. */
const MAX_VALUE_LENGTH = 1_000;
const MAX_CURSORS = 1_000;

/** The address parameter of a filter: the field's name, unless that would clash with paging or sorting. */
export function filterParamName(field: string): string {
  return RESERVED.has(field) ? `filter.${field}` : field;
}

/** Reads the list state from the address. Anything unknown or invalid is ignored, never an error. */
export function parseListState(search: URLSearchParams, plan: ListPlan): ListState {
  const state: ListState = { ...EMPTY_LIST_STATE, cursors: [], filters: {} };
  const text = search.get(SEARCH_PARAM);
  if (plan.searchable && text && text.length <= MAX_VALUE_LENGTH) state.search = text;
  const style = plan.pagination.style;
  if (style === 'page' || style === 'offset' || style === 'link-header') {
    const raw = search.get(PAGE_PARAM);
    if (raw !== null && /^\d{1,8}$/.test(raw)) {
      const page = Number(raw);
      if (page >= 1 && page <= MAX_PAGE) state.page = page;
    }
  }
  if (style === 'cursor') {
    state.cursors = search
      .getAll(CURSOR_PARAM)
      .filter((cursor) => cursor !== '' && cursor.length <= MAX_VALUE_LENGTH)
      .slice(0, MAX_CURSORS);
  }
  state.sort = parseSort(search.get(SORT_PARAM), plan);
  for (const filter of plan.filters) {
    const param = filterParamName(filter.field.name);
    if (filter.op === 'in') {
      const values = [...new Set(search.getAll(param))].filter((value) => validFilterValue(filter, value));
      if (values.length > 0) state.filters[filter.field.name] = values;
    } else {
      const value = search.get(param);
      if (value !== null && validFilterValue(filter, value)) state.filters[filter.field.name] = value;
    }
  }
  return state;
}

function parseSort(raw: string | null, plan: ListPlan): SortKey | undefined {
  if (raw === null) return undefined;
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  return plan.sortable.has(field) ? { field, direction: descending ? 'desc' : 'asc' } : undefined;
}

/** Writes the state as address parameters; defaults are left out so that links stay short. */
export function writeListState(state: ListState, plan: ListPlan): URLSearchParams {
  const search = new URLSearchParams();
  for (const filter of plan.filters) {
    const value = state.filters[filter.field.name];
    const param = filterParamName(filter.field.name);
    if (Array.isArray(value)) for (const item of value) search.append(param, item);
    else if (value !== undefined && value !== '') search.set(param, value);
  }
  if (state.search) search.set(SEARCH_PARAM, state.search);
  if (state.sort) {
    search.set(SORT_PARAM, `${state.sort.direction === 'desc' ? '-' : ''}${state.sort.field}`);
  }
  if (state.page > 1) search.set(PAGE_PARAM, String(state.page));
  for (const cursor of state.cursors) search.append(CURSOR_PARAM, cursor);
  return search;
}

/** Whether a value chosen for a filter is one its field can hold; the address can say anything. */
export function validFilterValue(filter: FilterPlan, value: string): boolean {
  if (value === '' || value.length > MAX_VALUE_LENGTH) return false;
  const field = filter.field;
  const kind = filterWidgetKind(field);
  switch (kind) {
    case 'enum':
      return field.kind === 'enum' && field.values.some((option) => option.value === value);
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
    case 'datetime':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
    case 'number': {
      const number = Number(value);
      return (
        value.trim() !== '' &&
        Number.isFinite(number) &&
        (field.kind !== 'integer' || Number.isInteger(number))
      );
    }
    case 'text':
    case 'reference':
      return value.trim() !== '';
    case undefined:
      return false;
    default:
      return exhaustiveSwitchError(kind);
  }
}

/** The order in force: the address's, else the screen's default. */
export function effectiveSort(state: ListState, plan: ListPlan): SortKey | undefined {
  return state.sort ?? plan.defaultSort;
}

/** What to ask the data provider for. */
export function toListParams(
  plan: ListPlan,
  state: ListState,
  path: Record<string, string> = {},
): Omit<ListParams, 'signal'> {
  const sort = effectiveSort(state, plan);
  const filters: FilterValue[] = [];
  for (const filter of plan.filters) {
    const value = state.filters[filter.field.name];
    if (value !== undefined) filters.push({ field: filter.field.name, op: filter.op, value });
  }
  return {
    entity: plan.entity?.name ?? '',
    // Named only when it is not the entity's main list call, which the data layer takes by default.
    ...(plan.call && !plan.mainCall ? { call: plan.call.name } : {}),
    ...(Object.keys(path).length > 0 ? { path } : {}),
    page: pageRequest(plan, state),
    sort: sort ? [sort] : [],
    filters,
    ...(state.search.trim() ? { search: state.search } : {}),
  };
}

function pageRequest(plan: ListPlan, state: ListState): PageRequest {
  const pagination = plan.pagination;
  const size = plan.pageSize ?? 0;
  switch (pagination.style) {
    case 'page':
      return { style: 'page', page: state.page, size };
    case 'offset':
      return { style: 'offset', offset: (state.page - 1) * size, limit: size };
    case 'cursor': {
      const cursor = state.cursors.at(-1);
      return cursor === undefined ? { style: 'cursor', size } : { style: 'cursor', cursor, size };
    }
    case 'link-header':
      return plan.pageSize === undefined
        ? { style: 'link-header', page: state.page }
        : { style: 'link-header', page: state.page, size: plan.pageSize };
    case 'none':
      return { style: 'none' };
    default:
      return exhaustiveSwitchError(pagination);
  }
}

/** A new order (a header click, toggled by the table model). Any change starts again from the first page. */
export function setSort(state: ListState, plan: ListPlan, sort: SortKey): ListState {
  if (!plan.sortable.has(sort.field)) return state;
  return { ...state, page: 1, cursors: [], sort: { field: sort.field, direction: sort.direction } };
}

/** A new filter value; an empty one removes the filter. Any change starts again from the first page. */
export function setFilter(state: ListState, field: string, value: string | string[] | undefined): ListState {
  const filters = { ...state.filters };
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0))
    delete filters[field];
  else filters[field] = value;
  return { ...state, page: 1, cursors: [], filters };
}

/** A new search text. Like a filter, it starts again from the first page. */
export function setSearch(state: ListState, search: string): ListState {
  return { ...state, page: 1, cursors: [], search };
}

export function clearFilters(state: ListState): ListState {
  return { ...state, page: 1, cursors: [], filters: {}, search: '' };
}

export function hasFilters(state: ListState): boolean {
  return Object.keys(state.filters).length > 0 || state.search !== '';
}

export function goToPage(state: ListState, page: number): ListState {
  return { ...state, page: Math.max(1, Math.min(MAX_PAGE, Math.floor(page))) };
}

/** Cursor style: the next page is reached with the cursor the last answer gave. */
export function nextCursor(state: ListState, cursor: string): ListState {
  return { ...state, cursors: [...state.cursors, cursor] };
}

/** Cursor style: back one page, by forgetting the cursor that led to this one. */
export function previousCursor(state: ListState): ListState {
  return { ...state, cursors: state.cursors.slice(0, -1) };
}
