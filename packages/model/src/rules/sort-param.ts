import { exhaustiveSwitchError } from '../exhaustive';
import type { Call, FilterParam, SortKey } from '../model';

type CallSort = NonNullable<Call['sort']>;

/** Where `param-per-field` names the field in its parameter. */
const FIELD_SLOT = '{field}';

/**
 * The query parameters that carry a sort order in the call's style, for the fields the call sorts by
 * (other keys are left out rather than sent to be refused). The client sends them; the prototype API
 * reads them back with `readSortParams`, so both speak each style the same way.
 *
 * @example
 * ```ts
 * sortParams({ param: 'sort', fields: ['name', 'placedOn'], style: 'field,-field' },
 *   [{ field: 'placedOn', direction: 'desc' }]); // [['sort', '-placedOn']]
 * sortParams({ param: 'orderby.{field}', fields: ['name'], style: 'param-per-field' },
 *   [{ field: 'name', direction: 'asc' }]); // [['orderby.name', 'asc']]
 * ```
 */
export function sortParams(sort: CallSort, keys: readonly SortKey[]): Array<[string, string]> {
  const usable = keys.filter((key) => sort.fields.includes(key.field));
  if (usable.length === 0) return [];
  switch (sort.style) {
    case 'field,-field':
      return [
        [sort.param, usable.map((key) => `${key.direction === 'desc' ? '-' : ''}${key.field}`).join(',')],
      ];
    case 'field:asc':
      return [[sort.param, usable.map((key) => `${key.field}:${key.direction}`).join(',')]];
    case 'param-per-field':
      return usable.map((key) => [perFieldParam(sort.param, key.field), key.direction]);
    default:
      return exhaustiveSwitchError(sort.style);
  }
}

/** The names of the parameters a sort may use: one, or one per field. */
export function sortParamNames(sort: CallSort): string[] {
  return sort.style === 'param-per-field'
    ? sort.fields.map((field) => perFieldParam(sort.param, field))
    : [sort.param];
}

/**
 * The sort keys a query asks for, in the call's style, and a sentence for each part it cannot read
 * (a field the call does not sort by, a direction that is neither `asc` nor `desc`). `value` gives a
 * parameter's value, or undefined when it is absent.
 *
 * @example
 * ```ts
 * readSortParams({ param: 'sort', fields: ['name'], style: 'field,-field' }, (n) => ({ sort: '-name' })[n]);
 * // { keys: [{ field: 'name', direction: 'desc' }], problems: [] }
 * ```
 */
export function readSortParams(
  sort: CallSort,
  value: (name: string) => string | undefined,
): { keys: SortKey[]; problems: string[] } {
  const keys: SortKey[] = [];
  const problems: string[] = [];
  const refuse = (part: string) =>
    problems.push(
      `This list cannot be sorted by "${part.slice(0, 80)}"; it sorts by ${sort.fields.join(', ') || 'nothing'}.`,
    );
  if (sort.style === 'param-per-field') {
    for (const field of sort.fields) {
      const name = perFieldParam(sort.param, field);
      const direction = value(name)?.trim().toLowerCase();
      if (direction === undefined || direction === '') continue;
      if (direction === 'asc' || direction === 'desc') keys.push({ field, direction });
      else problems.push(`"${name}" must be asc or desc, not "${direction.slice(0, 80)}".`);
    }
    return { keys, problems };
  }
  const text = value(sort.param);
  if (text === undefined || text === '') return { keys, problems };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [field, direction] =
      sort.style === 'field:asc'
        ? (() => {
            const [name = '', order = 'asc'] = part.split(':');
            return [name, order === 'desc' ? 'desc' : order === 'asc' ? 'asc' : undefined] as const;
          })()
        : part.startsWith('-')
          ? ([part.slice(1), 'desc'] as const)
          : ([part, 'asc'] as const);
    if (!sort.fields.includes(field) || direction === undefined) refuse(part);
    else keys.push({ field, direction });
  }
  return { keys, problems };
}

function perFieldParam(template: string, field: string): string {
  return template.includes(FIELD_SLOT) ? template.replace(FIELD_SLOT, field) : `${template}${field}`;
}

/** Where a filter's pattern puts the value. */
const VALUE_SLOT = '{value}';

/**
 * A filter's value as its parameter carries it: as typed, or inside the filter's `pattern`.
 *
 * @example
 * ```ts
 * filterParamValue({ field: 'name', param: 'where.name.like', op: 'contains', pattern: '%{value}%' }, 'acme'); // '%acme%'
 * ```
 */
export function filterParamValue(filter: FilterParam, value: string): string {
  return filter.pattern === undefined ? value : filter.pattern.replace(VALUE_SLOT, value);
}

/**
 * The value a filter's parameter carries, read back from its `pattern`; undefined when the text does not
 * fit the pattern (the API then says which parameter and why).
 *
 * @example
 * ```ts
 * readFilterParamValue({ field: 'name', param: 'q', op: 'contains', pattern: '%{value}%' }, '%acme%'); // 'acme'
 * ```
 */
export function readFilterParamValue(filter: FilterParam, text: string): string | undefined {
  const pattern = filter.pattern;
  if (pattern === undefined) return text;
  const at = pattern.indexOf(VALUE_SLOT);
  if (at < 0) return undefined;
  const before = pattern.slice(0, at);
  const after = pattern.slice(at + VALUE_SLOT.length);
  if (text.length < before.length + after.length || !text.startsWith(before) || !text.endsWith(after))
    return undefined;
  return text.slice(before.length, text.length - after.length);
}
