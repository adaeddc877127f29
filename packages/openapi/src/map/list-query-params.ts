import {
  type Call,
  type Entity,
  exhaustiveSwitchError,
  type FieldType,
  type FilterParam,
  type Parameter,
} from '@ninefold/model';
import type { MapContext } from './context';
import type { OperationInfo } from './operations';

// How a list call's query parameters sort, filter and search, in the conventions docs/openapi.md names:
// `sort` in its styles, a parameter per field (`orderby.name`), `where.<field>.<op>`, `filter[<field>]`,
// parameters named as fields, and a free-text search box.

/** Names of a sort order's parameter. */
export const SORT_PARAMS = ['sort', 'sort_by', 'sortby', 'order_by', 'orderby', 'ordering', '$orderby'];

/** Names of a free-text search's parameter. */
const SEARCH_PARAMS = [
  'q',
  'search',
  'query',
  'keyword',
  'keywords',
  'term',
  'search_query',
  'searchterm',
  'search_term',
];

/**
 * Sets the sort, filters and search of a list call from its query parameters, adding to `inferred`
 * what it read and reporting what it left out. `isPaging` names the parameters that page (never filters).
 *
 * @example
 * ```ts
 * mapListQuery(context, info, call, part, 'GET /parts/', inferred, isPaging);
 * call.sort; // { param: 'orderby.{field}', fields: ['id', 'name'], style: 'param-per-field' }
 * ```
 */
export function mapListQuery(
  context: MapContext,
  info: OperationInfo,
  call: Call,
  entity: Entity,
  label: string,
  inferred: string[],
  isPaging: (name: string) => boolean,
): void {
  const query = call.parameters.filter((p) => p.in === 'query');
  const sortParam = query.find((p) => SORT_PARAMS.includes(p.name.toLowerCase()));
  const perField = perFieldSort(query, entity);
  if (perField !== undefined) {
    call.sort = perField;
    inferred.push(
      `sorts by "${perField.param}" on ${perField.fields.join(', ')} (a parameter per field, valued asc or desc)`,
    );
  } else if (sortParam && sortValues(sortParam.type).length === 0 && freeText(sortParam.type)) {
    // A free-text sort parameter (Directus's `sort=-date_created`) takes any field of the records.
    const fields = entity.fields.filter((field) => SORTABLE_KINDS.includes(field.kind)).map((f) => f.name);
    if (fields.length > 0) {
      call.sort = { param: sortParam.name, fields, style: 'field,-field' };
      inferred.push(
        `sorts by "${sortParam.name}" on any of its ${fields.length} scalar fields, "-" first for descending (the parameter lists no values; the common convention)`,
      );
    }
  } else if (sortParam) {
    const values = sortValues(sortParam.type);
    const style = values.some((v) => v.includes(':')) ? 'field:asc' : 'field,-field';
    const fields = [...new Set(values.map((v) => v.replace(/^[-+]/, '').replace(/:.*$/, '')))].filter((f) =>
      entity.fields.some((field) => field.name === f),
    );
    if (fields.length > 0) {
      call.sort = { param: sortParam.name, fields, style };
      inferred.push(
        `sorts by "${sortParam.name}" on ${fields.join(', ')} (the values of the parameter that are fields of "${entity.name}")`,
      );
    } else {
      context.report.add(
        'calls',
        'skipped',
        info.pointer,
        `sort parameter "${sortParam.name}" of ${label} is left out: none of its values is a field of "${entity.name}"`,
      );
    }
  }
  {
    const conventional = conventionalFilters(query, entity);
    call.filters.push(...conventional);
    if (conventional.length > 0)
      inferred.push(
        `filters on ${[...new Set(conventional.map((f) => f.field))].join(', ')} with ${[...new Set(conventional.map((f) => f.param.replace(/^where\.[^.]+\./, 'where.<field>.').replace(/^filter\[[^\]]+\]/, 'filter[<field>]')))].join(', ')} (${FILTER_CONVENTIONS})`,
      );
    for (const parameter of query) {
      if (isPaging(parameter.name)) continue;
      if (conventional.some((filter) => filter.param === parameter.name)) continue;
      const field = entity.fields.find((f) => f.name === parameter.name);
      if (field === undefined || field.kind === 'object' || field.kind === 'list') continue;
      if (!sameValueKind(field, parameter.type)) {
        // Conduit's `favorited` parameter takes a user name, while Article.favorited is a boolean: the
        // same name, another meaning. A filter would send `favorited=true`.
        context.report.add(
          'calls',
          'skipped',
          info.pointer,
          `query parameter "${parameter.name}" of ${label} is not a filter on "${entity.name}.${field.name}": the parameter is ${parameter.type.kind}, the field ${field.kind}`,
        );
        continue;
      }
      const filter: FilterParam = { field: field.name, param: parameter.name, op: 'eq' };
      call.filters.push(filter);
    }
    const named = call.filters.filter((filter) => !conventional.includes(filter));
    if (named.length > 0) {
      inferred.push(
        `filters on ${named.map((f) => f.field).join(', ')}: query parameters named like fields of "${entity.name}"`,
      );
    }
  }
  // A free-text parameter by its usual names; one that is a field's filter (a field named "query") or
  // takes anything but text (GitHub's structured `q` objects elsewhere) is not a search box.
  const searchParam = query.find(
    (parameter) =>
      SEARCH_PARAMS.includes(parameter.name.toLowerCase()) &&
      parameter.type.kind === 'text' &&
      !call.filters.some((filter) => filter.param === parameter.name),
  );
  if (searchParam) {
    call.search = { param: searchParam.name };
    inferred.push(`searches with "${searchParam.name}" (a text query parameter named as searches are)`);
  }
}

const SORTABLE_KINDS: readonly string[] = [
  'text',
  'number',
  'integer',
  'money',
  'date',
  'datetime',
  'enum',
  'boolean',
];

/** Text, or a list of texts sent comma-joined (`sort=-date,title`). */
function freeText(type: FieldType): boolean {
  return type.kind === 'text' || (type.kind === 'list' && type.of.kind === 'text');
}

function sortValues(type: FieldType): string[] {
  if (type.kind === 'enum') return type.values.map((v) => v.value);
  if (type.kind === 'list' && type.of.kind === 'enum') return type.of.values.map((v) => v.value);
  return [];
}

/** `orderby.name`, `sort[name]`, `order_by.name`: a sort parameter per field, whose value is the direction. */
const PER_FIELD_SORT = /^(orderby|order_by|sort|order)(?:\.([A-Za-z_][\w]*)|\[([A-Za-z_][\w]*)\])$/i;

function perFieldSort(query: Parameter[], entity: Entity): Call['sort'] | undefined {
  const fields: string[] = [];
  let template: string | undefined;
  for (const parameter of query) {
    const match = PER_FIELD_SORT.exec(parameter.name);
    const field = match?.[2] ?? match?.[3];
    if (match === null || field === undefined || !entity.fields.some((f) => f.name === field)) continue;
    const directions = sortValues(parameter.type).map((v) => v.toLowerCase());
    if (directions.length > 0 && !(directions.includes('asc') && directions.includes('desc'))) continue;
    const shape = match[2] !== undefined ? `${match[1]}.{field}` : `${match[1]}[{field}]`;
    if (template !== undefined && template !== shape) continue;
    template = shape;
    fields.push(field);
  }
  return template === undefined ? undefined : { param: template, fields, style: 'param-per-field' };
}

/** The filter conventions the importer reads, named in the report and in docs/openapi.md. */
const FILTER_CONVENTIONS =
  'where.<field>.<op> as Platformatic names them (like as contains, between % wildcards), filter[<field>] as JSON:API does';
const WHERE_FILTER = /^where\.([A-Za-z_][\w]*)\.(eq|in|gte|lte|like)$/;
const BRACKET_FILTER = /^filter\[([A-Za-z_][\w]*)\]$/;

function conventionalFilters(query: Parameter[], entity: Entity): FilterParam[] {
  const out: FilterParam[] = [];
  for (const parameter of query) {
    const where = WHERE_FILTER.exec(parameter.name);
    const bracket = where === null ? BRACKET_FILTER.exec(parameter.name) : null;
    const fieldName = where?.[1] ?? bracket?.[1];
    const field = entity.fields.find((f) => f.name === fieldName);
    if (field === undefined || field.kind === 'object' || field.kind === 'list' || field.kind === 'file')
      continue;
    const written = where?.[2] ?? 'eq';
    if (written === 'like') {
      // SQL's LIKE takes wildcards: "contains" is the value between two `%` (text fields only).
      if (field.kind === 'text')
        out.push({ field: field.name, param: parameter.name, op: 'contains', pattern: '%{value}%' });
      continue;
    }
    out.push({ field: field.name, param: parameter.name, op: written as FilterParam['op'] });
  }
  return out;
}

/** The kinds of value a field and a query parameter carry: text, number or yes/no. */
function valueKindOf(type: FieldType): 'text' | 'number' | 'boolean' | undefined {
  switch (type.kind) {
    case 'text':
    case 'markdown':
    case 'enum':
    case 'date':
    case 'datetime':
      return 'text';
    case 'integer':
    case 'number':
    case 'money':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'reference':
    case 'file':
    case 'object':
    case 'list':
      return undefined;
    default:
      return exhaustiveSwitchError(type);
  }
}

/**
 * Whether a query parameter can filter a field: both carry the same kind of value. A reference holds a
 * key, which may be text or a number.
 */
function sameValueKind(field: FieldType, parameter: FieldType): boolean {
  const given = valueKindOf(parameter);
  if (field.kind === 'reference') return given === 'text' || given === 'number';
  return given !== undefined && given === valueKindOf(field);
}
