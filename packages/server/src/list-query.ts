import {
  type Call,
  DEFAULT_PAGE_SIZE,
  type Field,
  findEntity,
  hasNumericKey,
  type JsonValue,
  listMaxSize,
  type Model,
  readFilterParamValue,
  readSortParams,
  searchFields,
} from '@ninefold/model';
import { clip, type Problem, problem } from './problem';
import type { Filter, ListQuery } from './store/store';

export type QueryValues = Record<string, string | string[] | undefined>;

/** What the response needs to know about the page besides the records. */
export interface PageInfo {
  style: 'page' | 'offset' | 'cursor' | 'link-header' | 'none';
  page?: number;
  size: number;
}

const MAX_FILTER_TEXT = 1000;
/** A call without pagination answers with everything, up to this many records. */
const UNPAGED_LIMIT = 10_000;

/**
 * Reads a list call's query string into a store query, strictly: an unknown parameter, an unknown sort
 * field, a page size out of range or a filter value of the wrong type is a 400 that says which and why.
 *
 * @example
 * ```ts
 * parseListQuery(model, call, { page: '2', limit: '50', sort: '-placedOn', status: 'paid' });
 * // { query: { filters: [{ field: 'status', op: 'eq', value: 'paid' }], sort: [...], limit: 50, offset: 50, withTotal: true }, page: {...} }
 * ```
 */
export function parseListQuery(
  model: Model,
  call: Call,
  values: QueryValues,
  defaultSize = DEFAULT_PAGE_SIZE,
  pathValues: Record<string, string> = {},
): { query: ListQuery; page: PageInfo } | { problem: Problem } {
  const entity = call.entity ? findEntity(model, call.entity) : undefined;
  // The app serves a list call only for an entity it stores (any other is NOT_IMPLEMENTED there).
  if (!entity) throw new Error(`the list call ${call.name} names no entity`);
  const pagination = call.pagination ?? { style: 'none' as const };
  const max = listMaxSize(model, call);

  const known = new Map<string, string>();
  const take = (name: string | undefined, role: string): string | undefined => {
    if (name === undefined) return undefined;
    known.set(name, role);
    const value = values[name];
    return Array.isArray(value) ? value.at(-1) : value;
  };

  const problems: string[] = [];
  const integer = (name: string, text: string | undefined, min: number, upper: number, fallback: number) => {
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d{1,15}$/.test(text)) {
      problems.push(`"${name}" must be a whole number, not "${clip(text)}".`);
      return fallback;
    }
    const value = Number(text);
    if (value < min || value > upper) {
      problems.push(`"${name}" must be between ${min} and ${upper}, not ${value}.`);
      return fallback;
    }
    return value;
  };

  let limit = Math.min(defaultSize, max);
  let offset: number | undefined;
  let cursor: string | undefined;
  let page: PageInfo;
  switch (pagination.style) {
    case 'page':
    case 'link-header': {
      const pageParam = pagination.style === 'page' ? pagination.pageParam : 'page';
      const sizeParam = pagination.sizeParam ?? 'per_page';
      limit = integer(sizeParam, take(sizeParam, 'page size'), 1, max, limit);
      const number = integer(pageParam, take(pageParam, 'page'), 1, 1_000_000_000, 1);
      offset = (number - 1) * limit;
      page = { style: pagination.style, page: number, size: limit };
      break;
    }
    case 'offset':
      limit = integer(pagination.limitParam, take(pagination.limitParam, 'page size'), 1, max, limit);
      offset = integer(
        pagination.offsetParam,
        take(pagination.offsetParam, 'offset'),
        0,
        1_000_000_000_000,
        0,
      );
      page = { style: 'offset', size: limit };
      break;
    case 'cursor':
      limit = integer(pagination.sizeParam, take(pagination.sizeParam, 'page size'), 1, max, limit);
      cursor = take(pagination.cursorParam, 'cursor') || undefined;
      page = { style: 'cursor', size: limit };
      break;
    case 'none':
      limit = UNPAGED_LIMIT;
      page = { style: 'none', size: limit };
      break;
  }

  const sorted = call.sort
    ? readSortParams(call.sort, (name) => take(name, 'sort order'))
    : { keys: [], problems: [] };
  problems.push(...sorted.problems);
  const sort = sorted.keys;
  const searchText = take(call.search?.param, 'search');
  if (searchText !== undefined && searchText.length > MAX_FILTER_TEXT) {
    problems.push(`"${call.search?.param}" must be at most ${MAX_FILTER_TEXT} characters.`);
  }
  const filters: Filter[] = [];
  for (const filter of call.filters) {
    const raw = values[filter.param];
    known.set(filter.param, 'filter');
    if (raw === undefined || raw === '') continue;
    const field = entity.fields.find((candidate) => candidate.name === filter.field);
    if (!field) continue;
    const unwrapped = (Array.isArray(raw) ? raw : [raw]).map((text) => readFilterParamValue(filter, text));
    if (unwrapped.some((text) => text === undefined)) {
      problems.push(
        `Filter "${filter.param}" must be written as ${filter.pattern} with the value at {value}.`,
      );
      continue;
    }
    const texts = (unwrapped as string[]).flatMap((text) => (filter.op === 'in' ? text.split(',') : [text]));
    const parsed = texts.map((text) => filterValue(model, field, text, filter.param, problems));
    if (parsed.some((value) => value === undefined)) continue;
    filters.push({
      field: filter.field,
      op: filter.op,
      value: filter.op === 'in' ? (parsed as JsonValue[]) : (parsed.at(-1) as JsonValue),
    });
  }

  // Path parameters of a nested collection (`/customers/{customer}/orders`) filter on the field they name.
  for (const [param, text] of Object.entries(pathValues)) {
    const field = entity.fields.find((candidate) => candidate.name === param);
    const value = field ? filterValue(model, field, text, param, problems) : undefined;
    if (value !== undefined) filters.push({ field: param, op: 'eq', value });
  }

  for (const name of Object.keys(values)) {
    if (!known.has(name)) {
      const list = [...known.keys()];
      problems.push(
        `"${clip(name)}" is not a parameter of this list${list.length ? `; it takes ${list.join(', ')}` : ''}.`,
      );
    }
  }
  if (problems.length > 0) return { problem: problem(400, 'INVALID_QUERY', problems.join(' ')) };
  return {
    query: {
      filters,
      sort,
      limit,
      ...(offset === undefined ? {} : { offset }),
      ...(cursor === undefined ? {} : { cursor }),
      // A cursor page counts nothing unless its call's answer names a total: then it is the call's.
      withTotal: page.style !== 'cursor' || call.response?.total !== undefined,
      ...(call.search && searchText?.trim()
        ? { search: { text: searchText, fields: searchFields(entity, call.search) } }
        : {}),
    },
    page,
  };
}

/** A filter value in the field's own type, or undefined (with a problem noted) when it does not fit. */
function filterValue(
  model: Model,
  field: Field,
  text: string,
  param: string,
  problems: string[],
): JsonValue | undefined {
  const bad = (expected: string) => {
    problems.push(`Filter "${param}" must be ${expected}, not "${clip(text)}".`);
    return undefined;
  };
  if (text.length > MAX_FILTER_TEXT) return bad(`at most ${MAX_FILTER_TEXT} characters`);
  switch (field.kind) {
    case 'integer':
      return /^-?\d{1,15}$/.test(text) ? Number(text) : bad('a whole number');
    case 'number':
    case 'money': {
      const value = Number(text);
      return text.trim() !== '' && Number.isFinite(value) ? value : bad('a number');
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : bad('true or false');
    case 'enum':
      return field.values.some((v) => v.value === text)
        ? text
        : bad(`one of ${field.values.map((v) => v.value).join(', ')}`);
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : bad('a date (YYYY-MM-DD)');
    case 'datetime':
      return /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)
        ? text
        : bad('a date and time');
    case 'reference': {
      const target = findEntity(model, field.entity);
      if (!target || hasNumericKey(target))
        return /^\d{1,15}$/.test(text) ? Number(text) : bad('a record number');
      return text;
    }
    default:
      return text;
  }
}
