import {
  conditionFields,
  type Entity,
  exhaustiveSwitchError,
  type Field,
  type FieldKind,
  type FieldType,
  figureCondition,
  findEntity,
  type Model,
  searchFields,
} from '@ninefold/model';

/** Column types independent of the dialect; `dialect-sql.ts` spells them for SQLite and PostgreSQL. */
export type ColumnType = 'text' | 'real' | 'integer' | 'boolean' | 'json';

export interface PlannedColumn {
  name: string;
  type: ColumnType;
  /** The field's kind (or `id` for the hidden key), for migration messages. */
  kind: FieldKind | 'id';
  /** The column's name in an existing table (`Column:`), where it is not the field's. */
  sql?: string;
  /** A composite key (`keyOf`): no column, its value is made of these fields' when a row is read. */
  composite?: string[];
  /** A list of references kept in a team's join table (`through`): no column in the entity's table. */
  through?: { table: ExistingTable; target: string };
  /** A reference field whose target has a table: a FOREIGN KEY to the target's key (ON DELETE RESTRICT). */
  references?: { table: string; column: string; constraint: string };
}

export interface PlannedKey {
  column: string;
  /**
   * `identity`: the database numbers rows; `uuid`: the store generates one; `none`: the caller gives it;
   * `database`: an existing table's own default fills it when the caller does not.
   */
  generate: 'identity' | 'uuid' | 'none' | 'database';
  /** The fields a composite key is made of, in order: a row is found by all of them. */
  parts?: string[];
  /** The entity names no key, so the store keeps an integer `id` of its own (still returned as `id`). */
  hidden: boolean;
  /** Name of the primary key constraint (PostgreSQL reports it on a duplicate key). */
  constraint: string;
}

export interface PlannedIndex {
  name: string;
  columns: string[];
  unique: boolean;
}

/** A table the team already has (`Table:`): read and written in place, never created or changed. */
export interface ExistingTable {
  /** PostgreSQL's schema; absent on SQLite, and where the connection's own schema is meant. */
  schema?: string;
  name: string;
}

export interface PlannedTable {
  name: string;
  /**
   * Where the entity lives when the team's table holds it. Such a table has no columns of the store's
   * own (`META_COLUMNS`): its version is read from its values (`rowVersion`).
   */
  existing?: ExistingTable;
  key: PlannedKey;
  /** Every column that holds a field, the key included, in the entity's field order. */
  columns: PlannedColumn[];
  indexes: PlannedIndex[];
  /**
   * The text columns a list call searches (point 7's `search`), in field order; absent when none is.
   * Indexed by `search-index.ts`.
   */
  search?: string[];
}

/** What the database should look like for a model. Stored as JSON in `_ninefold_schema` once applied. */
export interface TablePlan {
  format: 1;
  tables: PlannedTable[];
}

/** Columns every table has besides its fields. They are never returned as fields. */
export const META_COLUMNS = ['_version', '_created_at', '_updated_at'] as const;
/** The name a list's first query gives the total it counts alongside the page's rows. */
export const TOTAL_COLUMN = '_ninefold_total';
/** Field names a table cannot have: its own columns, and the names its queries give. */
const RESERVED_FIELDS: readonly string[] = [...META_COLUMNS, TOTAL_COLUMN];
/** Where the applied plan is kept. */
export const SCHEMA_TABLE = '_ninefold_schema';
/** Uploaded files' bytes live in the database, so a PostgreSQL deployment shares them across servers. */
export const FILES_TABLE = '_ninefold_files';
/** The prototype API's own users (point 6), in the database so a PostgreSQL deployment shares them. */
export const USERS_TABLE = '_ninefold_users';
/** The answers to POST calls sent with an `Idempotency-Key`, kept for a day so a retry is answered alike. */
export const IDEMPOTENCY_TABLE = '_ninefold_idempotency';
/** Every transition of point 4 taken: who, when, from and to. */
export const HISTORY_TABLE = '_ninefold_history';
/** The counters that number records (point 3's numbering). */
export const COUNTERS_TABLE = '_ninefold_counters';
/** The rows imports made, by their content's hash (import-table.ts). */
export const IMPORTED_TABLE = '_ninefold_imported';
/** Values every node of one database shares, such as the generated token secret. */
export const SETTINGS_TABLE = '_ninefold_settings';
/** Session tokens signed out before they expire, so that every node refuses them. */
export const REVOKED_TABLE = '_ninefold_revoked';
/** Failed sign-ins per account and address, so that the throttle holds on every node. */
export const SIGN_IN_FAILURES_TABLE = '_ninefold_sign_in_failures';
/** Recent changes to records, for live updates and their resumption after a dropped stream. */
export const EVENTS_TABLE = '_ninefold_events';
/** Every write made through the API: who, when, through which call, the record before and after. */
export const AUDIT_TABLE = '_ninefold_audit';
/** One-use links of invitations and password resets, by the SHA-256 of their token. */
export const USER_LINKS_TABLE = '_ninefold_user_links';
/** The tables the store keeps for itself: no entity may be named like one. */
const RESERVED_TABLES: readonly string[] = [
  SCHEMA_TABLE,
  FILES_TABLE,
  USERS_TABLE,
  IDEMPOTENCY_TABLE,
  HISTORY_TABLE,
  COUNTERS_TABLE,
  IMPORTED_TABLE,
  SETTINGS_TABLE,
  REVOKED_TABLE,
  SIGN_IN_FAILURES_TABLE,
  EVENTS_TABLE,
  AUDIT_TABLE,
  USER_LINKS_TABLE,
];
/** The column of the key the store adds to an entity that names none. */
export const HIDDEN_KEY = 'id';
/** PostgreSQL truncates longer identifiers, which would make two names collide silently. */
const MAX_IDENTIFIER = 63;

/**
 * Turns a model into tables, columns and indexes. Pure: the same model always gives the same plan, with
 * the same (deterministic) index and constraint names, so that a stored plan can be compared with a
 * new one and database errors can be mapped back to fields.
 *
 * Every non-embedded entity is a table. Indexes: a UNIQUE index per `unique` constraint of point 5; an
 * index per field that a list screen or list call filters or sorts on, and per reference; a composite
 * index per (filter, sort) pair named together by one screen or call. Every non-unique index ends with
 * the key, which is the tie-breaker of every sort, so "filter on X, sort by Y, one page" is one index
 * range read in key order, and keyset cursors seek instead of scanning.
 */
export function planTables(model: Model): TablePlan {
  const entities = model.entities.shown ? model.entities.items : [];
  const stored = entities.filter((entity) => !entity.embedded);
  const byName = new Map(stored.map((entity) => [entity.name, entity]));
  // SQLite's table names are not case-sensitive: two entities named alike but for case are one table.
  const folded = new Map<string, string>();
  for (const entity of stored) {
    const other = folded.get(entity.name.toLowerCase());
    if (other !== undefined) {
      throw new Error(`Entities "${other}" and "${entity.name}" differ only by case, and would be one table`);
    }
    folded.set(entity.name.toLowerCase(), entity.name);
  }
  const tables = stored.map((entity) =>
    entity.table === undefined ? planTable(entity, byName) : planExistingTable(entity, byName),
  );
  const tableByName = new Map(tables.map((table) => [table.name, table]));

  const wanted = new Map<string, Array<{ columns: string[]; unique: boolean }>>();
  const want = (table: string, columns: string[], unique: boolean) => {
    const list = wanted.get(table) ?? [];
    list.push({ columns, unique });
    wanted.set(table, list);
  };
  // Only columns an index can order: the key already has the primary key index and JSON has no order.
  const indexable = (table: PlannedTable | undefined, field: string): boolean => {
    const column = table?.columns.find((candidate) => candidate.name === field);
    return column !== undefined && column.type !== 'json' && field !== table?.key.column;
  };

  if (model.validation.shown) {
    for (const constraint of model.validation.fields) {
      const table = tableByName.get(constraint.entity);
      const [field, ...below] = constraint.field;
      const together = constraint.uniqueWith ?? [];
      if (!(constraint.unique || together.length > 0) || !table || field === undefined || below.length > 0)
        continue;
      if (field === table.key.column || !table.columns.some((column) => column.name === field)) continue;
      const columns = [
        field,
        ...together.filter((name) => table.columns.some((column) => column.name === name)),
      ];
      // A plain unique field is unique on its own; "unique with" adds a second index over the set.
      if (constraint.unique) want(table.name, [field], true);
      if (together.length > 0) want(table.name, [...new Set(columns)], true);
    }
  }
  for (const table of tables) {
    for (const column of table.columns) {
      if (column.references && column.name !== table.key.column) want(table.name, [column.name], false);
    }
  }
  for (const { entity, filters, sorts } of listUses(model)) {
    const table = tableByName.get(entity);
    if (!table) continue;
    const filterable = unique(filters.filter((field) => indexable(table, field)));
    const sortable = unique(sorts.filter((field) => indexable(table, field)));
    for (const field of [...filterable, ...sortable]) want(table.name, [field], false);
    for (const filter of filterable) {
      for (const sort of sortable) if (sort !== filter) want(table.name, [filter, sort], false);
    }
  }

  // A dashboard figure reads its condition's fields, the field it groups by and the one it adds up: an
  // index of them all, in that order, answers it from the index alone (a million orders summed per month
  // took 1.7 s on SQLite without one).
  for (const { entity, columns } of figureUses(model)) {
    const table = tableByName.get(entity);
    const usable = unique(columns.filter((field) => indexable(table, field)));
    if (table && usable.length > 0) want(table.name, usable, false);
  }

  for (const table of tables) {
    // The team's table keeps the indexes it has: adding one would change it.
    if (!table.existing) table.indexes = nameIndexes(table, wanted.get(table.name) ?? []);
  }
  for (const [name, fields] of searchedFields(model)) {
    const table = tableByName.get(name);
    if (!table) continue;
    const columns = table.columns
      .filter((column) => column.type === 'text' && fields.has(column.name))
      .map((column) => column.name);
    if (columns.length > 0) table.search = columns;
  }
  return { format: 1, tables };
}

function planTable(entity: Entity, entities: Map<string, Entity>): PlannedTable {
  for (const field of entity.fields) {
    if (RESERVED_FIELDS.includes(field.name)) {
      throw new Error(`Entity "${entity.name}": the field name "${field.name}" is reserved by the store`);
    }
  }
  if (RESERVED_TABLES.includes(entity.name)) {
    throw new Error(`The entity name "${entity.name}" is reserved by the store`);
  }
  const keyName =
    entity.key ?? (entity.fields.some((field) => field.name === HIDDEN_KEY) ? HIDDEN_KEY : undefined);
  if (entity.fields.some((field) => field.keyOf && field.name === keyName)) {
    throw new Error(
      `Entity "${entity.name}": a key made of several fields is served on a team's own table (Table:) only, for now`,
    );
  }
  const columns: PlannedColumn[] = entity.fields.map((field) => planColumn(entity, field, entities));
  let key: PlannedKey;
  if (keyName === undefined) {
    columns.unshift({ name: HIDDEN_KEY, type: 'integer', kind: 'id' });
    key = { column: HIDDEN_KEY, generate: 'identity', hidden: true, constraint: '' };
  } else {
    const field = entity.fields.find((candidate) => candidate.name === keyName);
    const column = columns.find((candidate) => candidate.name === keyName);
    if (!field || !column) {
      throw new Error(`Entity "${entity.name}": its key "${keyName}" is not one of its fields`);
    }
    if (column.type === 'json') {
      throw new Error(
        `Entity "${entity.name}": its key "${keyName}" is a ${field.kind}, which cannot be a key`,
      );
    }
    const generate = field.kind === 'integer' ? 'identity' : field.kind === 'text' ? 'uuid' : 'none';
    key = { column: keyName, generate, hidden: false, constraint: '' };
  }
  key.constraint = identifier(`pk_${entity.name}`, entity.name);
  return { name: entity.name, key, columns, indexes: [] };
}

/**
 * An entity that lives in the team's own table: the same columns under the names the table gives them,
 * and no index or constraint of the store's (the table has its own, read from the database when the
 * store starts: `existing-tables.ts`).
 */
function planExistingTable(entity: Entity, entities: Map<string, Entity>): PlannedTable {
  const keyName =
    entity.key ?? (entity.fields.some((field) => field.name === HIDDEN_KEY) ? HIDDEN_KEY : undefined);
  if (keyName === undefined || !entity.fields.some((field) => field.name === keyName)) {
    throw new Error(
      `Entity "${entity.name}" lives in the existing table "${entity.table}" and names no key field: name the field whose column identifies a row (Key:)`,
    );
  }
  const columns = entity.fields.map((field) => {
    const column = planColumn(entity, field, entities);
    if (column.references) column.references.constraint = '';
    if (field.column !== undefined && field.column !== field.name) column.sql = field.column;
    if (field.keyOf && field.name === keyName) column.composite = [...field.keyOf];
    if (field.through !== undefined && field.kind === 'list' && field.of.kind === 'reference') {
      column.through = { table: existingTable(field.through), target: field.of.entity };
    }
    return column;
  });
  const parts = columns.find((column) => column.name === keyName)?.composite;
  return {
    name: entity.name,
    existing: existingTable(entity.table ?? ''),
    key: {
      column: keyName,
      generate: 'database',
      hidden: false,
      constraint: '',
      ...(parts ? { parts } : {}),
    },
    columns,
    indexes: [],
  };
}

function planColumn(entity: Entity, field: Field, entities: Map<string, Entity>): PlannedColumn {
  const type = columnType(field, entities, new Set([entity.name]));
  const column: PlannedColumn = { name: field.name, type, kind: field.kind };
  if (field.kind === 'reference') {
    const target = entities.get(field.entity);
    if (target) {
      const targetKey = target.key ?? HIDDEN_KEY;
      column.references = {
        table: target.name,
        column: targetKey,
        constraint: identifier(`fk_${entity.name}_${field.name}`, `${entity.name}.${field.name}`),
      };
    }
  }
  return column;
}

/** `schema.table` or `table`, as a specification names a team's table. */
function existingTable(name: string): ExistingTable {
  const [first, second] = name.split('.');
  return second === undefined ? { name: first ?? name } : { schema: first ?? '', name: second };
}

/** The column's name in the database. */
export function columnName(column: PlannedColumn): string {
  return column.sql ?? column.name;
}

/** The column type of a field; a reference takes its target key's type (following chains of references). */
function columnType(type: FieldType, entities: Map<string, Entity>, seen: Set<string>): ColumnType {
  switch (type.kind) {
    case 'text':
    case 'markdown':
    case 'enum':
    case 'date':
    case 'datetime':
      return 'text';
    case 'number':
    case 'money':
      return 'real';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'object':
    case 'list':
    case 'file':
      return 'json';
    case 'reference': {
      const target = entities.get(type.entity);
      if (!target || seen.has(target.name)) return 'text';
      const keyName = target.key;
      if (keyName === undefined) return 'integer';
      const keyField = target.fields.find((field) => field.name === keyName);
      if (!keyField) return 'text';
      return columnType(keyField, entities, new Set([...seen, target.name]));
    }
    default:
      return exhaustiveSwitchError(type);
  }
}

interface ListUse {
  entity: string;
  filters: string[];
  sorts: string[];
}

/** Every list screen (point 2) and call (point 7) with the fields it filters and sorts on. */
function listUses(model: Model): ListUse[] {
  const uses: ListUse[] = [];
  if (model.screens.shown) {
    for (const screen of model.screens.items) {
      if (screen.kind !== 'list') continue;
      uses.push({
        entity: screen.entity,
        filters: screen.filters,
        sorts: screen.sort.map((key) => key.field),
      });
    }
  }
  if (model.calls.shown) {
    for (const call of model.calls.items) {
      const entity = call.entity ?? call.response?.entity;
      if (entity === undefined) continue;
      const filters = call.filters.map((filter) => filter.field);
      const sorts = call.sort?.fields ?? [];
      if (filters.length > 0 || sorts.length > 0) uses.push({ entity, filters, sorts });
    }
  }
  return uses;
}

/** The fields each entity's list calls search, over all its calls. */
function searchedFields(model: Model): Map<string, Set<string>> {
  const searched = new Map<string, Set<string>>();
  if (!model.calls.shown || !model.entities.shown) return searched;
  for (const call of model.calls.items) {
    const entity = model.entities.items.find((item) => item.name === (call.entity ?? call.response?.entity));
    if (!call.search || !entity) continue;
    const fields = searched.get(entity.name) ?? new Set<string>();
    for (const field of searchFields(entity, call.search)) fields.add(field);
    searched.set(entity.name, fields);
  }
  return searched;
}

/** What each dashboard figure reads, condition first (see `planTables`). */
function figureUses(model: Model): Array<{ entity: string; columns: string[] }> {
  if (!model.screens.shown) return [];
  return model.screens.items.flatMap((screen) =>
    screen.kind !== 'dashboard'
      ? []
      : screen.figures.flatMap((figure) => {
          const entity = findEntity(model, figure.entity);
          const condition = entity ? figureCondition(model, entity, figure) : undefined;
          if (!entity || !condition) return [];
          const columns = [...conditionFields(condition), figure.by, figure.field].filter(
            (field): field is string => field !== undefined,
          );
          return [{ entity: entity.name, columns }];
        }),
  );
}

function nameIndexes(
  table: PlannedTable,
  wanted: Array<{ columns: string[]; unique: boolean }>,
): PlannedIndex[] {
  const seen = new Set<string>();
  const indexes: PlannedIndex[] = [];
  for (const { columns, unique: isUnique } of wanted) {
    const full = isUnique ? columns : [...columns, table.key.column];
    const signature = `${isUnique ? 'u' : 'i'}:${full.join(',')}`;
    if (seen.has(signature)) continue;
    seen.add(signature);
    const prefix = isUnique ? 'ux' : 'ix';
    indexes.push({
      name: identifier(`${prefix}_${table.name}_${columns.join('_')}`, `${table.name}:${signature}`),
      columns: full,
      unique: isUnique,
    });
  }
  // Underscores in names can make two different indexes share a readable name: disambiguate both.
  const counts = new Map<string, number>();
  for (const index of indexes) counts.set(index.name, (counts.get(index.name) ?? 0) + 1);
  for (const index of indexes) {
    if ((counts.get(index.name) ?? 0) > 1) {
      index.name = withHash(index.name, `${table.name}:${index.unique}:${index.columns.join(',')}`);
    }
  }
  return indexes.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A readable name, shortened with a hash of what it names when PostgreSQL would truncate it. */
function identifier(readable: string, identity: string): string {
  return readable.length <= MAX_IDENTIFIER ? readable : withHash(readable, identity);
}

function withHash(readable: string, identity: string): string {
  const hash = fnv1a(identity).toString(16).padStart(8, '0');
  return `${readable.slice(0, MAX_IDENTIFIER - hash.length - 1)}_${hash}`;
}

/** FNV-1a, 32 bits: a small deterministic hash for names (not for security). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
