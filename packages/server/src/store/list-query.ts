import { exhaustiveSwitchError, type JsonValue } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { type CursorValue, decodeCursor, encodeCursor, InvalidCursorError } from './cursor';
import type { DialectSql } from './dialect-sql';
import { conditionSql } from './record-condition-sql';
import { searchCondition } from './search-index';
import type { Filter, ListQuery, StoredRecord } from './store';
import { columnName, type PlannedColumn, type PlannedTable } from './table-plan';
import type { ValueCodec } from './value-codec';

type Condition = RawBuilder<unknown>;

export interface OrderColumn {
  column: PlannedColumn;
  direction: 'asc' | 'desc';
}

/** A list query turned into SQL pieces; every value in them is a bound parameter. */
export interface ListPlan {
  /** The filters' conditions (also used for the total). */
  filters: Condition[];
  /** The sort with the key as the last tie-breaker. */
  order: OrderColumn[];
  orderBy: RawBuilder<unknown>;
  /**
   * Extra conditions per query to run, in order, until the page is full: one query without a cursor;
   * with a cursor, one or two (see `cursorPhases`).
   */
  phases: Condition[][];
  limit: number;
  offset: number;
  /** The cursor of the position after `record` in this order. */
  cursorAfter(record: StoredRecord): string;
}

/**
 * Builds the SQL of a list: filters, order (NULL sorts as the smallest value in both dialects), limit,
 * offset or keyset cursor. Unknown fields, filters on JSON fields and malformed queries are programmer
 * errors and throw; a malformed cursor throws `InvalidCursorError` (the client's mistake).
 */
export function planList(
  dialect: DialectSql,
  codec: ValueCodec,
  table: PlannedTable,
  query: ListQuery,
): ListPlan {
  if (!Number.isSafeInteger(query.limit) || query.limit < 0) {
    throw new Error(`List of "${table.name}": limit must be a whole number >= 0, not ${query.limit}`);
  }
  const offset = query.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new Error(`List of "${table.name}": offset must be a whole number >= 0, not ${query.offset}`);
  }
  if (query.cursor !== undefined && offset > 0) {
    throw new Error(`List of "${table.name}": give an offset or a cursor, not both`);
  }

  const filters = query.filters.map((filter) => filterCondition(dialect, codec, table, filter));
  if (query.where) filters.push(conditionSql(codec, table, query.where));
  const search = query.search && searchCondition(dialect, table, query.search.text, query.search.fields);
  if (search) filters.push(search);
  const order = orderColumns(table, query);
  const signature = `${table.name}:${order.map((item) => `${item.column.name} ${item.direction}`).join(',')}`;
  // The key alone is never NULL and its primary key index (PostgreSQL's default NULLS order) serves it
  // only without a NULLS clause; with one, every page of a list in key order sorted the whole table.
  const keys = keyColumns(table);
  const keyAlone = order.length === keys.length && order.every((item, index) => item.column === keys[index]);
  const orderBy = sql.join(
    order.map(
      (item) =>
        sql`${sql.id(columnName(item.column))} ${sql.raw(item.direction.toUpperCase() + (keyAlone ? '' : dialect.nulls(item.direction)))}`,
    ),
  );
  const phases =
    query.cursor === undefined
      ? [[]]
      : cursorPhases(codec, order, decodeCursor(query.cursor, signature, order.length));
  return {
    filters,
    order,
    orderBy,
    phases,
    limit: query.limit,
    offset,
    cursorAfter: (record) =>
      encodeCursor(
        signature,
        order.map((item) => cursorValue(record[item.column.name])),
      ),
  };
}

function columnOf(table: PlannedTable, field: string, use: string): PlannedColumn {
  const column = table.columns.find((candidate) => candidate.name === field);
  if (!column) throw new Error(`Cannot ${use} "${table.name}" by "${field}": it has no such field`);
  if (column.type === 'json') {
    throw new Error(`Cannot ${use} "${table.name}" by "${field}": a ${column.kind} field has no order`);
  }
  if (column.composite) {
    throw new Error(`Cannot ${use} "${table.name}" by "${field}": a key of several fields has no column`);
  }
  return column;
}

/** The key's columns: its own, or a composite key's parts in order. */
function keyColumns(table: PlannedTable): PlannedColumn[] {
  return (table.key.parts ?? [table.key.column]).map((field) => columnOf(table, field, 'sort'));
}

function filterCondition(
  dialect: DialectSql,
  codec: ValueCodec,
  table: PlannedTable,
  filter: Filter,
): Condition {
  const column = columnOf(table, filter.field, 'filter');
  const name = sql.id(columnName(column));
  const { op, value } = filter;
  switch (op) {
    case 'eq':
      return value === null ? sql`${name} IS NULL` : sql`${name} = ${codec.filter(table, column, value)}`;
    case 'contains': {
      if (column.type !== 'text' || typeof value !== 'string') {
        throw new Error(
          `Cannot search "${table.name}"."${column.name}" (${column.kind}) for ${JSON.stringify(value)}`,
        );
      }
      // The search text is literal: its LIKE wildcards and the escape character are escaped.
      const pattern = `%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const like = sql.raw(dialect.name === 'postgres' ? 'ILIKE' : 'LIKE');
      return sql`${name} ${like} ${pattern} ESCAPE '\\'`;
    }
    case 'gte':
    case 'lte': {
      if (value === null) throw new Error(`Cannot filter "${table.name}"."${column.name}" ${op} null`);
      const comparison = sql.raw(op === 'gte' ? '>=' : '<=');
      return sql`${name} ${comparison} ${codec.filter(table, column, value)}`;
    }
    case 'in': {
      if (!Array.isArray(value)) {
        throw new Error(`Filter "${table.name}"."${column.name}" in: the value must be an array`);
      }
      const values = value.filter((item) => item !== null).map((item) => codec.filter(table, column, item));
      const conditions: Condition[] = [];
      if (values.length > 0) conditions.push(sql`${name} IN (${sql.join(values)})`);
      if (values.length < value.length) conditions.push(sql`${name} IS NULL`);
      if (conditions.length === 0) return sql`1 = 0`;
      return conditions.length === 1
        ? (conditions[0] as Condition)
        : sql`(${sql.join(conditions, sql` OR `)})`;
    }
    default:
      return exhaustiveSwitchError(op);
  }
}

/** The requested sort, without repeats, then the key (in the last key's direction, so one index serves). */
function orderColumns(table: PlannedTable, query: ListQuery): OrderColumn[] {
  const order: OrderColumn[] = [];
  for (const key of query.sort) {
    if (key.direction !== 'asc' && key.direction !== 'desc') {
      throw new Error(`Sort of "${table.name}" by "${key.field}": direction must be asc or desc`);
    }
    // Sorting by a composite key is sorting by its parts.
    if (table.key.parts && key.field === table.key.column) break;
    const column = columnOf(table, key.field, 'sort');
    if (order.some((item) => item.column === column)) continue;
    order.push({ column, direction: key.direction });
    // The key is unique: nothing after it changes the order.
    if (column.name === table.key.column) return order;
  }
  const direction =
    query.sort.find((key) => key.field === table.key.column)?.direction ?? order.at(-1)?.direction ?? 'asc';
  for (const column of keyColumns(table)) {
    if (!order.some((item) => item.column === column)) order.push({ column, direction });
  }
  return order;
}

/**
 * The rows after a cursor position. NULL is the smallest value, and a plain comparison never matches
 * NULL, so the rows are read in up to two queries, each one an index range: first the rows of the
 * cursor's own NULL class (NULL or not) after the position, then, if the page is not full, the other
 * class when it comes later in this order (non-NULL values when ascending, NULLs when descending).
 */
function cursorPhases(codec: ValueCodec, order: OrderColumn[], values: CursorValue[]): Condition[][] {
  const params = order.map((item, index) => codec.cursor(item.column, values[index] ?? null));
  if (values.at(-1) === null || values.at(-1) === undefined) throw new InvalidCursorError('it has no key');

  const after = (level: number): Condition => {
    const item = order[level] as OrderColumn;
    const name = sql.id(columnName(item.column));
    const value = params[level];
    const last = level === order.length - 1;
    if (value === null) {
      const later = item.direction === 'asc' ? sql`${name} IS NOT NULL` : undefined;
      if (last) return later ?? sql`1 = 0`;
      const same = sql`(${name} IS NULL AND ${after(level + 1)})`;
      return later ? sql`(${later} OR ${same})` : same;
    }
    // The last column is the key, which is never NULL.
    if (last) return item.direction === 'asc' ? sql`${name} > ${value}` : sql`${name} < ${value}`;
    const later =
      item.direction === 'asc' ? sql`${name} > ${value}` : sql`(${name} < ${value} OR ${name} IS NULL)`;
    return sql`(${later} OR (${name} = ${value} AND ${after(level + 1)}))`;
  };

  const first = order[0] as OrderColumn;
  const name = sql.id(columnName(first.column));
  const value = params[0];
  if (order.length === 1) {
    return [[first.direction === 'asc' ? sql`${name} > ${value}` : sql`${name} < ${value}`]];
  }
  const rest = after(1);
  if (value === null) {
    const sameClass = [sql`${name} IS NULL`, rest];
    return first.direction === 'asc' ? [sameClass, [sql`${name} IS NOT NULL`]] : [sameClass];
  }
  if (first.direction === 'asc') {
    return [[sql`${name} >= ${value}`, sql`(${name} > ${value} OR (${name} = ${value} AND ${rest}))`]];
  }
  return [
    [sql`${name} <= ${value}`, sql`(${name} < ${value} OR (${name} = ${value} AND ${rest}))`],
    [sql`${name} IS NULL`],
  ];
}

function cursorValue(value: JsonValue | undefined): CursorValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') throw new Error('A sort column holds JSON');
  return value;
}
