import { exhaustiveSwitchError } from '../exhaustive';
import type { JsonValue } from '../model';

// What an expression asks of records other than the one being written: an aggregate over an entity's
// records that meet a condition, or one record by its key. The condition is data, not CEL, so that the
// prototype API can turn it into SQL and an in-memory store can apply it, with the same meaning.

export type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

/**
 * A condition on the fields of one entity's records, with every value already computed. `null` compares
 * as SQL does: a comparison with an empty field is unknown, which a condition does not meet.
 */
export type RecordCondition =
  | { kind: 'all'; of: RecordCondition[] }
  | { kind: 'any'; of: RecordCondition[] }
  | { kind: 'not'; of: RecordCondition }
  | { kind: 'compare'; field: string; op: Comparison; value: JsonValue }
  | { kind: 'in'; field: string; values: JsonValue[] }
  | { kind: 'has'; field: string }
  | { kind: 'constant'; value: boolean };

export type AggregateFunction = 'count' | 'exists' | 'sum' | 'min' | 'max';
export const AGGREGATE_FUNCTIONS: readonly AggregateFunction[] = ['count', 'exists', 'sum', 'min', 'max'];

export interface AggregateQuery {
  entity: string;
  fn: AggregateFunction;
  /** The field summed or compared (`sum`, `min`, `max`). */
  field?: string;
  where: RecordCondition;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * Reads other records for an expression. The prototype API reads them with SQL inside the write's own
 * transaction; an in-memory store reads its arrays. Without a reader, an expression that needs other
 * records cannot be evaluated (the client leaves such rules to the API).
 */
export interface RecordReader {
  /** `count` and `sum` of nothing are 0, `exists` false, `min` and `max` null. */
  aggregate(query: AggregateQuery): MaybePromise<JsonValue>;
  /** The record of `entity` whose key is `key`, or undefined. */
  lookup(entity: string, key: JsonValue): MaybePromise<Record<string, JsonValue> | undefined>;
  /** Which of these keys of `entity` name a record, as strings: one query where `lookup` would take many. */
  existing?(entity: string, keys: ReadonlyArray<string | number>): MaybePromise<Set<string>>;
}

/** Three-valued, as SQL: `undefined` is unknown (a comparison with an empty field). */
type Truth = boolean | undefined;

/**
 * Whether a record meets a condition, with SQL's meaning, so that an in-memory store answers exactly
 * what the prototype API would.
 *
 * @example
 * ```ts
 * matchesCondition({ status: 'open' }, { kind: 'in', field: 'status', values: ['open', 'held'] }); // true
 * matchesCondition({}, { kind: 'not', of: { kind: 'compare', field: 'x', op: '==', value: 1 } }); // false
 * ```
 */
export function matchesCondition(record: Record<string, JsonValue>, condition: RecordCondition): boolean {
  return truth(record, condition) === true;
}

function truth(record: Record<string, JsonValue>, condition: RecordCondition): Truth {
  switch (condition.kind) {
    case 'all': {
      let result: Truth = true;
      for (const part of condition.of) {
        const value = truth(record, part);
        if (value === false) return false;
        if (value === undefined) result = undefined;
      }
      return result;
    }
    case 'any': {
      let result: Truth = false;
      for (const part of condition.of) {
        const value = truth(record, part);
        if (value === true) return true;
        if (value === undefined) result = undefined;
      }
      return result;
    }
    case 'not': {
      const value = truth(record, condition.of);
      return value === undefined ? undefined : !value;
    }
    case 'compare':
      return compare(record[condition.field], condition.op, condition.value);
    case 'in': {
      const value = record[condition.field];
      if (value === undefined || value === null) return condition.values.includes(null) ? true : undefined;
      return condition.values.some((candidate) => compare(value, '==', candidate) === true);
    }
    case 'has': {
      const value = record[condition.field];
      return value !== undefined && value !== null;
    }
    case 'constant':
      return condition.value;
    default:
      return exhaustiveSwitchError(condition);
  }
}

function compare(left: JsonValue | undefined, op: Comparison, right: JsonValue): Truth {
  // `x == null` is how a condition asks for an empty field; SQL says IS NULL.
  if (right === null) {
    const empty = left === undefined || left === null;
    if (op === '==') return empty;
    if (op === '!=') return !empty;
    return undefined;
  }
  if (left === undefined || left === null) return undefined;
  const order = ordered(left, right);
  if (order === undefined) return op === '!=' ? true : op === '==' ? false : undefined;
  switch (op) {
    case '==':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    default:
      return exhaustiveSwitchError(op);
  }
}

/** -1, 0 or 1; dates compare as their ISO text, ids as numbers when both are numeric. */
function ordered(left: JsonValue, right: JsonValue): number | undefined {
  if (typeof left === 'number' && typeof right === 'number') return Math.sign(left - right);
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  if (typeof left === 'string' && typeof right === 'string') {
    const a = dayOrTime(left);
    const b = dayOrTime(right);
    if (a !== undefined && b !== undefined) return Math.sign(a - b);
    return left < right ? -1 : left > right ? 1 : 0;
  }
  // A reference kept as a number on one side and text on the other (keys from a URL).
  if (
    (typeof left === 'number' || typeof left === 'string') &&
    (typeof right === 'number' || typeof right === 'string')
  ) {
    return String(left) === String(right) ? 0 : undefined;
  }
  return undefined;
}

const ISO_DAY_OR_TIME = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

function dayOrTime(text: string): number | undefined {
  if (!ISO_DAY_OR_TIME.test(text)) return undefined;
  const time = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * An aggregate over records held in memory, with the meaning the prototype API gives it in SQL.
 *
 * @example
 * ```ts
 * aggregateRecords(tickets, { entity: 'Ticket', fn: 'count', where: { kind: 'constant', value: true } });
 * ```
 */
export function aggregateRecords(
  records: Iterable<Record<string, JsonValue>>,
  query: AggregateQuery,
): JsonValue {
  const matching = [...records].filter((record) => matchesCondition(record, query.where));
  switch (query.fn) {
    case 'count':
      return matching.length;
    case 'exists':
      return matching.length > 0;
    case 'sum': {
      let total = 0;
      for (const record of matching) {
        const value = record[query.field ?? ''];
        if (typeof value === 'number') total += value;
      }
      return total;
    }
    case 'min':
    case 'max': {
      let best: JsonValue = null;
      for (const record of matching) {
        const value = record[query.field ?? ''];
        if (value === undefined || value === null) continue;
        const order = best === null ? 0 : ordered(value, best);
        if (best === null || (order !== undefined && (query.fn === 'min' ? order < 0 : order > 0))) {
          best = value;
        }
      }
      return best;
    }
    default:
      return exhaustiveSwitchError(query.fn);
  }
}
