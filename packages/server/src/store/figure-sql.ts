import { exhaustiveSwitchError, type FigureMeasure, type FigurePeriod } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { columnOf } from './record-condition-sql';
import { columnName, type PlannedTable } from './table-plan';

// A dashboard figure's GROUP BY (see `FigureQuery`), written once for both dialects. Dates and datetimes
// are ISO text in both (see table-plan), so a period is cut from the text: the day is its first ten
// characters, whatever the time and in UTC, as `periodStart` of @ninefold/model cuts it.

type Sql = RawBuilder<unknown>;

/** What the group's key is read as: the field itself, or the first day of its period. */
export function groupKeySql(
  dialect: 'sqlite' | 'postgres',
  table: PlannedTable,
  by: string | undefined,
  per: FigurePeriod | undefined,
): Sql {
  if (by === undefined) return sql`NULL`;
  const column = sql.id(columnName(columnOf(table, by)));
  if (per === undefined) return sql`${column}`;
  const day = sql`substr(${column}, 1, 10)`;
  switch (per) {
    case 'day':
      return day;
    case 'month':
      return sql`(substr(${column}, 1, 7) || '-01')`;
    case 'week':
      // Monday of the week: ISO 8601's weeks, in each dialect's own date arithmetic.
      return dialect === 'postgres'
        ? sql`to_char(date_trunc('week', CAST(${day} AS date)), 'YYYY-MM-DD')`
        : sql`date(${day}, '-' || ((CAST(strftime('%w', ${day}) AS INTEGER) + 6) % 7) || ' days')`;
    default:
      return exhaustiveSwitchError(per);
  }
}

/** The measure of each group; an average of nothing is NULL, a sum of nothing 0. */
export function measureSql(table: PlannedTable, measure: FigureMeasure, field: string | undefined): Sql {
  switch (measure) {
    case 'count':
      return sql`COUNT(*)`;
    case 'sum':
      return sql`COALESCE(SUM(${sql.id(columnName(columnOf(table, field ?? '')))}), 0)`;
    case 'average':
      return sql`AVG(${sql.id(columnName(columnOf(table, field ?? '')))})`;
    default:
      return exhaustiveSwitchError(measure);
  }
}
