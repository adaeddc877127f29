import {
  type AggregateQuery,
  type Comparison,
  exhaustiveSwitchError,
  type JsonValue,
  type RecordCondition,
} from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { columnName, type PlannedColumn, type PlannedTable } from './table-plan';
import type { ValueCodec } from './value-codec';

// A rule's condition over other records (see `RecordCondition` in @ninefold/model) as SQL, so that a
// count or a sum runs in the database, inside the write's own transaction, with every value bound.

type Sql = RawBuilder<unknown>;

const TRUE = sql`1 = 1`;
const FALSE = sql`1 = 0`;
// SQL's unknown, typed so that both dialects accept it under NOT: what a comparison that cannot be
// decided gives, so that `!(x.hours < "ten")` does not turn into "every record".
const UNKNOWN = sql`(NULLIF(1, 1) = 1)`;

/** False where the column holds a value, unknown where it is empty: "equals nothing it could hold". */
const noValue = (name: Sql) => sql`(${name} <> ${name})`;

/** The WHERE condition of a `RecordCondition` on one table. */
export function conditionSql(codec: ValueCodec, table: PlannedTable, condition: RecordCondition): Sql {
  switch (condition.kind) {
    case 'all':
      if (condition.of.length === 0) return TRUE;
      return sql`(${sql.join(
        condition.of.map((part) => conditionSql(codec, table, part)),
        sql` AND `,
      )})`;
    case 'any':
      if (condition.of.length === 0) return FALSE;
      return sql`(${sql.join(
        condition.of.map((part) => conditionSql(codec, table, part)),
        sql` OR `,
      )})`;
    case 'not':
      return sql`NOT (${conditionSql(codec, table, condition.of)})`;
    case 'compare':
      return comparison(codec, table, columnOf(table, condition.field), condition.op, condition.value);
    case 'in': {
      const column = columnOf(table, condition.field);
      const values = condition.values
        .map((value) => bound(codec, table, column, value))
        .filter((value) => value !== undefined);
      const name = sql.id(columnName(column));
      const parts: Sql[] = [];
      if (values.length > 0) parts.push(sql`${name} IN (${sql.join(values)})`);
      if (condition.values.includes(null)) parts.push(sql`${name} IS NULL`);
      return parts.length === 0 ? noValue(name) : sql`(${sql.join(parts, sql` OR `)})`;
    }
    case 'has':
      return sql`${sql.id(columnName(columnOf(table, condition.field)))} IS NOT NULL`;
    case 'constant':
      return condition.value ? TRUE : FALSE;
    default:
      return exhaustiveSwitchError(condition);
  }
}

/** The SELECT list of an aggregate; its one value is read as `value`. */
export function aggregateSql(table: PlannedTable, query: AggregateQuery): Sql {
  switch (query.fn) {
    case 'count':
      return sql`COUNT(*) AS "value"`;
    case 'exists':
      // Read as "is there one" with LIMIT 1 by the caller; the value is the row itself.
      return sql`1 AS "value"`;
    case 'sum':
      return sql`COALESCE(SUM(${sql.id(columnName(columnOf(table, query.field ?? '')))}), 0) AS "value"`;
    case 'min':
      return sql`MIN(${sql.id(columnName(columnOf(table, query.field ?? '')))}) AS "value"`;
    case 'max':
      return sql`MAX(${sql.id(columnName(columnOf(table, query.field ?? '')))}) AS "value"`;
    default:
      return exhaustiveSwitchError(query.fn);
  }
}

/** The column a condition or an aggregate names; `check` keeps them to columns, so anything else is a bug. */
export function columnOf(table: PlannedTable, field: string): PlannedColumn {
  const column = table.columns.find((candidate) => candidate.name === field);
  if (!column || column.type === 'json') {
    throw new Error(`A condition on "${table.name}" cannot compare "${field}": it is not a column`);
  }
  return column;
}

function comparison(
  codec: ValueCodec,
  table: PlannedTable,
  column: PlannedColumn,
  op: Comparison,
  value: JsonValue,
): Sql {
  const name: Sql = sql.id(columnName(column)) as unknown as Sql;
  if (value === null) {
    if (op === '==') return sql`${name} IS NULL`;
    if (op === '!=') return sql`${name} IS NOT NULL`;
    return UNKNOWN;
  }
  const parameter = bound(codec, table, column, value);
  // A value the column can never hold (text against a number): equal to no value, unequal to every
  // value, and in no order with any; an empty field stays unknown, as in any comparison.
  if (parameter === undefined) {
    if (op === '==') return noValue(name);
    if (op === '!=') return sql`(${name} = ${name})`;
    return UNKNOWN;
  }
  return sql`${name} ${sql.raw(op === '==' ? '=' : op === '!=' ? '<>' : op)} ${parameter}`;
}

/** A bound value in the column's stored form, or undefined when the column cannot hold it. */
function bound(codec: ValueCodec, table: PlannedTable, column: PlannedColumn, value: JsonValue): unknown {
  if (value === null) return undefined;
  // Timestamps come from CEL as full ISO texts; a date column holds the day alone.
  const stored = column.kind === 'date' && typeof value === 'string' ? value.slice(0, 10) : value;
  try {
    return codec.filter(table, column, stored);
  } catch {
    return undefined;
  }
}
