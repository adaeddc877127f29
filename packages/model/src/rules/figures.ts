import { exhaustiveSwitchError } from '../exhaustive';
import { FIGURE_PERIODS, type Figure, type FigurePeriod, type JsonValue } from '../model';
import { matchesCondition, type RecordCondition } from './records';

// A dashboard figure's aggregate (point 2), the same wherever it is computed: the prototype API asks the
// database for its groups and shapes them here, and an in-memory store computes them here from records.

/** One group of a figure: the value grouped by (an enum value, an id, the first day of a period). */
export interface FigureGroup {
  key: JsonValue;
  /** The count, sum or average; null for the average of nothing. */
  value: number | null;
}

/** What the figures call answers: one value, or its groups in the order they are drawn. */
export type FigureAnswer =
  | { value: number | null }
  | {
      groups: FigureGroup[];
      /** How many groups are left out: the smallest categories, or the earliest periods. */
      more: number;
      /** For a figure over time, the period its groups are: asked for, or chosen by `fittingPeriod`. */
      per?: FigurePeriod;
    };

/** The most categories drawn; more would not be read on a bar or a donut. */
export const FIGURE_MAX_GROUPS = 12;
/** The most periods drawn, counted back from the latest one that has records. */
export const FIGURE_MAX_PERIODS: Record<FigurePeriod, number> = { day: 31, week: 26, month: 24 };

/**
 * The first day of the period a date or datetime falls in, as `YYYY-MM-DD` (UTC; weeks start on
 * Monday, as ISO 8601 has them), or null for no date. The prototype API's SQL computes the same.
 *
 * @example
 * ```ts
 * periodStart('2026-11-26T18:00:00.000Z', 'week'); // '2026-11-23'
 * ```
 */
export function periodStart(value: JsonValue, per: FigurePeriod): string | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const day = value.slice(0, 10);
  switch (per) {
    case 'day':
      return day;
    case 'month':
      return `${day.slice(0, 7)}-01`;
    case 'week': {
      const date = new Date(`${day}T00:00:00Z`);
      if (Number.isNaN(date.getTime())) return null;
      date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
      return date.toISOString().slice(0, 10);
    }
    default:
      return exhaustiveSwitchError(per);
  }
}

/** The groups of a figure over records already read, each counted once: what SQL's GROUP BY gives. */
export function groupRecords(
  records: Iterable<Record<string, JsonValue>>,
  figure: Figure,
  where: RecordCondition,
): FigureGroup[] {
  const sums = new Map<string, { key: JsonValue; count: number; sum: number; values: number }>();
  for (const record of records) {
    if (!matchesCondition(record, where)) continue;
    const raw = figure.by === undefined ? null : (record[figure.by] ?? null);
    const key = figure.per && raw !== null ? periodStart(raw, figure.per) : raw;
    const id = JSON.stringify(key);
    const entry = sums.get(id) ?? { key, count: 0, sum: 0, values: 0 };
    entry.count += 1;
    const value = figure.field === undefined ? undefined : record[figure.field];
    if (typeof value === 'number') {
      entry.sum += value;
      entry.values += 1;
    }
    sums.set(id, entry);
  }
  return [...sums.values()].map((entry) => ({
    key: entry.key,
    value: measured(figure, entry.count, entry.sum, entry.values),
  }));
}

function measured(figure: Figure, count: number, sum: number, values: number): number | null {
  switch (figure.measure) {
    case 'count':
      return count;
    case 'sum':
      return sum;
    case 'average':
      return values === 0 ? null : sum / values;
    default:
      return exhaustiveSwitchError(figure.measure);
  }
}

/**
 * A figure's answer from its groups: the one value of an ungrouped figure; the largest categories,
 * largest first; or the latest periods in order, with a period that has no records shown as 0 (for a
 * count or a sum) or as nothing (for an average), so that a line never skips a month.
 */
export function shapeFigure(figure: Figure, groups: readonly FigureGroup[]): FigureAnswer {
  if (figure.by === undefined) {
    const value = groups[0]?.value ?? null;
    return { value: value === null && figure.measure !== 'average' ? 0 : value };
  }
  if (figure.per === undefined) {
    const sorted = [...groups].sort(
      (a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity) || String(a.key).localeCompare(String(b.key)),
    );
    return {
      groups: sorted.slice(0, FIGURE_MAX_GROUPS),
      more: Math.max(0, sorted.length - FIGURE_MAX_GROUPS),
    };
  }
  const per = figure.per;
  const dated = new Map<string, number | null>();
  for (const group of groups) if (typeof group.key === 'string') dated.set(group.key, group.value);
  const keys = [...dated.keys()].sort();
  const last = keys.at(-1);
  if (last === undefined) return { groups: [], more: 0 };
  const first = keys[0] ?? last;
  const wanted = FIGURE_MAX_PERIODS[per];
  const periods: string[] = [last];
  while (periods.length < wanted) {
    const previous = stepBack(periods[0] ?? last, per);
    if (previous < first) break;
    periods.unshift(previous);
  }
  const empty = figure.measure === 'average' ? null : 0;
  return {
    groups: periods.map((key) => ({ key, value: dated.get(key) ?? empty })),
    more: keys.filter((key) => key < (periods[0] ?? last)).length,
    per,
  };
}

/**
 * The period a figure over time is drawn by when the person has not chosen one: its own, unless its
 * records span more of them than a chart draws, then the first coarser one that holds the whole span (a
 * gym's two years of visits by month, not their last 31 days with "8 more not shown"). `groups` are the
 * figure's groups by its own period. The API, the memory provider and the playground's tab all ask this.
 *
 * @example
 * ```ts
 * fittingPeriod('day', [{ key: '2025-01-01', value: 3 }, { key: '2026-01-01', value: 1 }]); // 'month'
 * ```
 */
export function fittingPeriod(per: FigurePeriod, groups: readonly FigureGroup[]): FigurePeriod {
  const keys = groups.map((group) => group.key).filter((key): key is string => typeof key === 'string');
  if (keys.length === 0) return per;
  keys.sort();
  const first = Date.parse(`${keys[0]}T00:00:00Z`);
  const last = Date.parse(`${keys.at(-1)}T00:00:00Z`);
  if (!Number.isFinite(first) || !Number.isFinite(last)) return per;
  const days = Math.round((last - first) / 86_400_000) + 1;
  const spans: Record<FigurePeriod, number> = {
    day: days,
    week: Math.ceil(days / 7) + 1,
    month: Math.ceil(days / 30.44) + 1,
  };
  const coarser = FIGURE_PERIODS.slice(FIGURE_PERIODS.indexOf(per));
  return (
    coarser.find((candidate) => spans[candidate] <= FIGURE_MAX_PERIODS[candidate]) ?? coarser.at(-1) ?? per
  );
}

function stepBack(start: string, per: FigurePeriod): string {
  const date = new Date(`${start}T00:00:00Z`);
  switch (per) {
    case 'day':
      date.setUTCDate(date.getUTCDate() - 1);
      break;
    case 'week':
      date.setUTCDate(date.getUTCDate() - 7);
      break;
    case 'month':
      date.setUTCMonth(date.getUTCMonth() - 1);
      break;
    default:
      return exhaustiveSwitchError(per);
  }
  return date.toISOString().slice(0, 10);
}

/**
 * A figure's answer as every caller computes it: at the period the person asked for, else at the one
 * that fits its records (`fittingPeriod`), its groups read by `groupsFor` (SQL, or records in memory).
 */
export async function answerFigure(
  figure: Figure,
  asked: FigurePeriod | undefined,
  groupsFor: (figure: Figure) => readonly FigureGroup[] | Promise<readonly FigureGroup[]>,
): Promise<FigureAnswer> {
  if (figure.by === undefined || figure.per === undefined)
    return shapeFigure(figure, await groupsFor(figure));
  const first = { ...figure, per: asked ?? figure.per };
  const groups = await groupsFor(first);
  if (asked !== undefined) return shapeFigure(first, groups);
  const fit = fittingPeriod(figure.per, groups);
  if (fit === figure.per) return shapeFigure(first, groups);
  const fitted = { ...figure, per: fit };
  return shapeFigure(fitted, await groupsFor(fitted));
}
