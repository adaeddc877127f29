import {
  type Call,
  DEFAULT_PAGE_SIZE,
  type Entity,
  exhaustiveSwitchError,
  type Field,
  type FilterParam,
  findEntity,
  findField,
  type ListScreen,
  type Model,
  machineOf,
  type Pagination,
  resolveAmount,
  type SortKey,
} from '@ninefold/model';
import type { EntityCalls } from '../data/data-provider';

/**
 * The page size when the screen names none: the prototype API's own default (docs/prototype-api.md), so
 * the client asks for what the server would answer anyway rather than a size of its own invention.
 */

const NONE_HIDDEN: ReadonlySet<string> = new Set();

/** A filter the screen offers and the list call can carry. */
export interface FilterPlan {
  field: Field;
  op: FilterParam['op'];
}

/** What a list screen can do against its list call: the intersection of point 2 and point 7. */
export interface ListPlan {
  entity: Entity | undefined;
  /** The list call; without one the screen can only say that it cannot list. */
  call: Call | undefined;
  /** Whether `call` is the entity's main (first) list call, which requests need not name. */
  mainCall: boolean;
  /** Whether a create call exists, so that a "New …" link leads somewhere that can save. */
  creatable: boolean;
  /** The screen's columns that name fields of the entity, in order. */
  columns: Field[];
  /** The column whose cell links to the record: the entity's display field if shown, else the first. */
  linkColumn: string | undefined;
  /** Fields a header click may sort on, with the direction of the first click (the screen's own). */
  sortable: ReadonlyMap<string, SortKey['direction']>;
  /** The screen's first sort entry the call accepts: the order when the address names none. */
  defaultSort: SortKey | undefined;
  filters: FilterPlan[];
  /** Whether the list call takes a free-text search (point 7's `search`): no box without one. */
  searchable: boolean;
  pagination: Pagination;
  /** Rows asked for per page; undefined when the call's style sends no size. */
  pageSize: number | undefined;
  /** What a phone's card of a record shows. */
  card: CardPlan;
}

/**
 * A record as a phone's card (react-admin's `SimpleList`): its name, linking to it; its state as a
 * badge; and a few fields, labelled. A table's other columns would be off-screen at 360 px.
 */
export interface CardPlan {
  /** The column that names the record, its link: the table's link column. */
  title: Field | undefined;
  /** The entity's state field of point 4, when the screen shows it. */
  state: Field | undefined;
  /** The screen's `card` fields the role may read, else the first two columns that are neither. */
  fields: Field[];
}

/** How many columns a card shows when the screen chooses none. */
const CARD_FIELDS = 2;

/**
 * The list call a screen shows: the one whose path is the screen's route (`/articles` for the route
 * `/articles`, not the feed at `/articles/feed`), else the entity's first.
 */
export function listCallForRoute(calls: EntityCalls, route: string): Call | undefined {
  const path = route.replace(/:([A-Za-z_][\w]*)/g, '{$1}');
  return calls.lists.find((call) => call.path === path) ?? calls.list;
}

/**
 * Works out a list screen's columns, sorts, filters and paging from the screen and its entity's calls.
 * Anything the screen names that the call cannot do is left out rather than sent and refused, and so is
 * anything on a field the role may not read (`hidden`, from `fieldAccess`): the API never sends those
 * values, and sorting or filtering on them would tell what they hold.
 */
export function planList(
  model: Model,
  screen: ListScreen,
  calls: EntityCalls,
  hidden: ReadonlySet<string> = NONE_HIDDEN,
): ListPlan {
  const entity = findEntity(model, screen.entity);
  const call = listCallForRoute(calls, screen.route);
  const readable = (name: string): Field | undefined =>
    hidden.has(name) ? undefined : findField(entity, name);
  const columns = screen.columns
    .map(readable)
    .filter((field): field is Field => field !== undefined && !field.writeOnly);
  // The link reads as the record's name: its display field, else its key (an imported entity often has
  // no display field, and its first column may be a timestamp), else whatever comes first.
  const linkColumn = [entity?.display, entity?.key, columns[0]?.name].find(
    (name) => name !== undefined && columns.some((field) => field.name === name),
  );

  const accepted = new Set(call?.sort?.fields ?? []);
  const sortable = new Map<string, SortKey['direction']>();
  for (const key of screen.sort) {
    if (accepted.has(key.field) && readable(key.field) && !sortable.has(key.field)) {
      sortable.set(key.field, key.direction);
    }
  }
  const defaultKey = screen.sort.find((key) => sortable.has(key.field));

  const filters: FilterPlan[] = [];
  for (const name of screen.filters) {
    const field = readable(name);
    const param = call?.filters.find((filter) => filter.field === name);
    if (field && param && filterWidgetKind(field) !== undefined) filters.push({ field, op: param.op });
  }

  const pagination: Pagination = call?.pagination ?? { style: 'none' };
  const title = columns.find((field) => field.name === linkColumn);
  const machine = entity && machineOf(model, entity);
  const state = columns.find((field) => field.name === machine?.field && field !== title);
  const others = columns.filter((field) => field !== title && field !== state);
  const chosen = screen.card
    ?.map(readable)
    .filter(
      (field): field is Field =>
        field !== undefined && !field.writeOnly && field !== title && field !== state,
    );
  return {
    entity,
    call,
    mainCall: call === calls.list,
    creatable: calls.create !== undefined,
    columns,
    linkColumn,
    sortable,
    defaultSort: defaultKey ? { field: defaultKey.field, direction: defaultKey.direction } : undefined,
    filters,
    searchable: call?.search !== undefined,
    pagination,
    pageSize: pageSizeFor(model, screen, pagination),
    card: { title, state, fields: chosen ?? others.slice(0, CARD_FIELDS) },
  };
}

/** The screen's page size (a number or a constant), capped by the call's `maxSize`. */
export function pageSizeFor(model: Model, screen: ListScreen, pagination: Pagination): number | undefined {
  if (pagination.style === 'none') return undefined;
  const wanted = positiveInteger(resolveAmount(model, screen.pageSize)?.value);
  const max = positiveInteger(resolveAmount(model, pagination.maxSize)?.value);
  // Link-header calls may leave the size to the API; the other styles must send one.
  const size = wanted ?? (pagination.style === 'link-header' ? undefined : DEFAULT_PAGE_SIZE);
  if (size === undefined) return undefined;
  return max === undefined ? size : Math.min(size, max);
}

function positiveInteger(value: number | string | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : undefined;
}

/** The widget that edits a filter on a field of this kind; undefined for kinds no filter can take. */
export type FilterWidgetKind = 'enum' | 'boolean' | 'date' | 'datetime' | 'number' | 'text' | 'reference';

export function filterWidgetKind(field: Field): FilterWidgetKind | undefined {
  switch (field.kind) {
    case 'enum':
      return 'enum';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'number':
    case 'integer':
    case 'money':
      return 'number';
    case 'text':
    case 'markdown':
      return 'text';
    case 'reference':
      return 'reference';
    case 'file':
    case 'object':
    case 'list':
      // No single value of these can be typed into a query parameter.
      return undefined;
    default:
      return exhaustiveSwitchError(field);
  }
}
