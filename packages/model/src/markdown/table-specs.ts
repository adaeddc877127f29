import type { PointKey } from '../model';
import { closest, labelOf, norm } from './words';

// The tables, properties lists and subsections of the Markdown convention (`docs/spec-format.md`), as data
// that the reader's generic machinery follows.

/**
 * How a cell (or property value) becomes a value: the name of one of the reader's cell grammars. `custom`
 * cells are read by the point's own code, because their value depends on more than the cell.
 */
export type CellType =
  | 'text'
  | 'word'
  | 'upper'
  | 'list'
  | 'yesno'
  | 'amount'
  /** `paidAt = now; paidBy = user.id` */
  | 'assignments'
  /** `a; b; c`: statements separated by `;` outside brackets and quotes */
  | 'statements'
  /** `create, update`, in lower case */
  | 'events'
  /** `Order (multipart): name, email` */
  | 'body'
  /** `array of Order`, `envelope: items, total` */
  | 'response'
  /** `cursor: after, first, next` */
  | 'pagination'
  /** `name, createdAt` */
  | 'sortFields'
  /** `author, reviewers: record.status == 'review'`: fields, then the condition they are hidden under */
  | 'hiddenWhile'
  /** `status (eq), name (contains)` */
  | 'filterOps'
  /** `q`, `q: name, email` */
  | 'search'
  /** `404`, or a word such as `network` */
  | 'errorStatus'
  /** `Try again` */
  | 'errorAction'
  | 'custom';

export interface Column {
  key: string;
  label: string;
  type: CellType;
  required?: boolean;
  aliases?: string[];
}

/**
 * The columns of one kind of table.
 *
 * @example
 * ```ts
 * const TONES: TableSpec = { what: 'tones table', name: { label: 'Tone' }, columns: [col('colour', 'word')] };
 * ```
 */
export interface TableSpec {
  /** For messages: `screens table`. */
  what: string;
  /** The first column that names each row; absent when every row is an entry (errors). */
  name?: { label: string; aliases?: string[]; optional?: boolean };
  columns: Column[];
}

export const col = (key: string, type: CellType, options: Partial<Column> = {}): Column => ({
  key,
  label: options.label ?? labelOf(key),
  type,
  ...options,
});

function columnNames(column: { key?: string; label: string; aliases?: string[] }): string[] {
  return [column.key ?? '', column.label, ...(column.aliases ?? [])].filter((n) => n !== '').map(norm);
}

/**
 * Columns or properties under each of their normalised names (key, label, aliases), to match a header or
 * a key, or to suggest the one meant. The first item with a name wins.
 */
export class NameIndex<T extends { key?: string; label: string; aliases?: string[] }> {
  readonly names: string[];
  private readonly items: T[];

  constructor(items: readonly T[]) {
    const pairs = items.flatMap((item) => columnNames(item).map((name) => [name, item] as const));
    this.names = pairs.map(([name]) => name);
    this.items = pairs.map(([, item]) => item);
  }

  /** The item with this normalised name. */
  find(name: string): T | undefined {
    const index = this.names.indexOf(name);
    return index < 0 ? undefined : this.items[index];
  }

  /** The item whose name is closest to this misspelt, normalised one. */
  closest(name: string): T | undefined {
    const best = closest(name, this.names);
    return best === undefined ? undefined : this.find(best);
  }
}

/** The first column's header matches the name column, also in the plural (`Screens`). */
export function namesFirstColumn(spec: TableSpec, header: string): boolean {
  if (!spec.name) return false;
  const h = norm(header);
  return columnNames(spec.name).some((n) => h === n || h === `${n}s`);
}

// ------------------------------------------------------------------------------------------ tables

/** The tables of the convention, by what they hold. */
export const TABLES = {
  screens: {
    what: 'screens table',
    name: { label: 'Screen' },
    columns: [
      col('kind', 'word', { required: true }),
      col('route', 'text', { required: true }),
      col('entity', 'text'),
      col('title', 'text'),
      col('columns', 'list'),
      col('filters', 'list'),
      col('sort', 'list'),
      col('pageSize', 'amount'),
      col('card', 'list'),
      col('fields', 'list'),
      col('tiles', 'list'),
      col('roles', 'list'),
      col('hidden', 'yesno'),
      col('group', 'text'),
      col('component', 'text'),
      col('description', 'text'),
    ],
  },
  figures: {
    what: 'figures table',
    name: { label: 'Figure' },
    columns: [
      col('dashboard', 'text'),
      col('title', 'text'),
      col('entity', 'text', { required: true }),
      col('measure', 'word', { required: true }),
      col('field', 'text'),
      col('by', 'text', { aliases: ['grouped by', 'group by'] }),
      col('per', 'word'),
      col('where', 'text'),
      col('chart', 'word'),
      col('call', 'text'),
      col('description', 'text'),
    ],
  },
  fields: {
    what: 'fields table',
    name: { label: 'Field' },
    columns: [
      col('kind', 'custom', { required: true, aliases: ['type'] }),
      col('label', 'text'),
      col('help', 'text'),
      col('format', 'text'),
      col('widget', 'text'),
      col('readOnly', 'yesno'),
      col('writeOnly', 'yesno'),
      col('derived', 'text'),
      col('default', 'custom'),
      col('setOnCreate', 'text'),
      col('numbering', 'text', { aliases: ['numbered', 'number pattern'] }),
      col('copyFrom', 'text', { aliases: ['copied from'] }),
      col('internal', 'yesno'),
      col('column', 'text', { aliases: ['database column'] }),
      col('keyOf', 'list', { aliases: ['key of', 'made of'] }),
      col('through', 'text', { aliases: ['join table'] }),
      col('group', 'text', { aliases: ['section'] }),
    ],
  },
  states: {
    what: 'states table',
    name: { label: 'State' },
    columns: [col('label', 'text'), col('tone', 'word'), col('final', 'yesno')],
  },
  transitions: {
    what: 'transitions table',
    name: { label: 'Transition' },
    columns: [
      col('label', 'text'),
      col('from', 'list', { required: true }),
      col('to', 'text', { required: true }),
      col('roles', 'list'),
      col('guard', 'text'),
      col('guardMessage', 'text'),
      col('guardCode', 'text'),
      col('call', 'text'),
      col('confirm', 'text'),
      col('set', 'assignments', { aliases: ['sets', 'effects'] }),
      col('updates', 'statements', { aliases: ['other records', 'updates other records'] }),
    ],
  },
  fieldConstraints: {
    what: 'field constraints table',
    name: { label: 'Field' },
    columns: [
      col('required', 'yesno'),
      col('min', 'amount'),
      col('max', 'amount'),
      col('pattern', 'text'),
      col('unique', 'yesno'),
      col('uniqueWith', 'list', { aliases: ['unique together with', 'unique per'] }),
      col('message', 'text'),
    ],
  },
  rules: {
    what: 'rules table',
    name: { label: 'Rule', optional: true },
    columns: [
      col('entity', 'text', { required: true }),
      col('check', 'text', { required: true }),
      col('message', 'text', { required: true }),
      col('field', 'text'),
      col('code', 'text'),
      col('on', 'events'),
      col('hint', 'text'),
    ],
  },
  roles: {
    what: 'roles table',
    name: { label: 'Role' },
    columns: [
      col('label', 'text'),
      col('description', 'text'),
      col('home', 'text'),
      col('signedOut', 'yesno', { aliases: ['not signed in', 'visitor'] }),
      col('managesPeople', 'yesno', { aliases: ['people', 'manages people'] }),
    ],
  },
  permissions: {
    what: 'permissions table',
    name: { label: 'Role' },
    columns: [
      col('entity', 'custom', { required: true }),
      col('actions', 'custom', { required: true }),
      col('where', 'text'),
      col('hidden', 'list'),
      col('hiddenWhile', 'hiddenWhile', { aliases: ['hidden when'] }),
      col('readOnly', 'list'),
    ],
  },
  calls: {
    what: 'calls table',
    name: { label: 'Call' },
    columns: [
      col('method', 'upper', { required: true }),
      col('path', 'text', { required: true }),
      col('purpose', 'word'),
      col('entity', 'text'),
      col('description', 'text'),
      col('body', 'body'),
      col('response', 'response'),
      col('pagination', 'pagination'),
      col('sort', 'sortFields'),
      col('filters', 'filterOps'),
      col('search', 'search'),
    ],
  },
  errors: {
    what: 'error catalogue table',
    columns: [
      col('status', 'errorStatus'),
      col('type', 'text'),
      col('code', 'text'),
      col('field', 'text'),
      col('message', 'text', { required: true }),
      col('action', 'errorAction'),
    ],
  },
  constants: {
    what: 'constants table',
    name: { label: 'Name', aliases: ['constant'] },
    columns: [
      col('value', 'custom', { required: true }),
      col('unit', 'text'),
      col('meaning', 'text', { aliases: ['description'] }),
    ],
  },
} satisfies Record<string, TableSpec>;

// ------------------------------------------------------------------------------------------ properties lists

/** A key of a properties list (`- Label: Customer`). */
export interface Property {
  key: string;
  label: string;
  type: CellType;
  aliases?: string[];
}

const prop = (key: string, type: CellType, label = labelOf(key), aliases: string[] = []): Property => ({
  key,
  label,
  type,
  aliases,
});

/** The keys of the convention's properties lists, by where the list stands. */
export const PROPERTIES = {
  product: [
    prop('audience', 'list', 'For', ['audience', 'who']),
    prop('home', 'text'),
    prop('language', 'text'),
    prop('timeZone', 'text', 'Time zone', ['timezone', 'zone']),
    prop('brandColor', 'text', 'Brand colour', [
      'brand color',
      'colour',
      'color',
      'primary colour',
      'primary color',
    ]),
    prop('logo', 'text'),
    prop('font', 'text'),
    prop('radius', 'amount', 'Radius', ['corner radius']),
    prop('density', 'word'),
  ],
  entity: [
    prop('label', 'text'),
    prop('plural', 'text'),
    prop('key', 'text'),
    prop('display', 'text', 'Display', ['label field', 'shown as', 'title field']),
    prop('embedded', 'yesno'),
    prop('table', 'text', 'Table', ['existing table', 'database table']),
  ],
  machine: [prop('initial', 'text')],
  signIn: [
    prop('kind', 'custom'),
    prop('call', 'text'),
    prop('session', 'word'),
    prop('in', 'word'),
    prop('name', 'text'),
    prop('issuer', 'text'),
    prop('clientId', 'text', 'Client id'),
    prop('scopes', 'list'),
    prop('authorizationUrl', 'text', 'Authorization URL'),
    prop('tokenUrl', 'text', 'Token URL'),
  ],
  calls: [prop('baseUrl', 'text', 'Base URL')],
} satisfies Record<string, readonly Property[]>;

// ------------------------------------------------------------------------------------------ subsections

/** A point whose `###` subsections each name one item of it (an entity, a state machine). */
export interface SubsectionSpec {
  point: PointKey;
  /** The properties list a subsection may have. */
  properties: readonly Property[];
  /** The items in the plural, for the message about two with one name. */
  items: string;
  /** Why a table or properties list before the first subsection is not used, and what to do. */
  beforeFirst: { why: string; hint: string };
  /** The message, and hint, when a `###` has no name. */
  unnamed: { message: string; hint?: string };
}

/** The points made of named subsections, by point. */
export const SUBSECTIONS = {
  entities: {
    point: 'entities',
    properties: PROPERTIES.entity,
    items: 'entities',
    beforeFirst: {
      why: 'it comes before the first entity.',
      hint: 'Put it under a "### Name" heading that names the entity.',
    },
    unnamed: { message: 'An entity heading "###" has no name; its content is ignored.' },
  },
  states: {
    point: 'states',
    properties: PROPERTIES.machine,
    items: 'state machines',
    beforeFirst: {
      why: 'it comes before the first state machine.',
      hint: 'Put it under a "### Entity.field" heading, for example "### Order.status".',
    },
    unnamed: {
      message: 'A state machine heading "###" has no name; its content is ignored.',
      hint: 'Name it after the field that holds the state, for example "### Order.status".',
    },
  },
} satisfies Record<string, SubsectionSpec>;
