import { compositeKeyText, exhaustiveSwitchError, type JsonValue } from '@ninefold/model';
import { type CursorValue, InvalidCursorError } from './cursor';
import type { DialectName } from './dialect-sql';
import type { StoredRecord } from './store';
import type { PlannedColumn, PlannedTable } from './table-plan';

/**
 * Converts between the plain JSON of records and what each dialect binds and returns: booleans are 0/1
 * on SQLite, JSON is text on SQLite and JSONB on PostgreSQL (always sent as text, because `pg` would
 * turn a JS array into a PostgreSQL array), and NULL means "absent".
 */
export class ValueCodec {
  constructor(readonly dialect: DialectName) {}

  /**
   * A value to write. The shared validation runs before the store, so a value of the wrong type is a
   * programmer error: it throws rather than storing something that would not come back the same.
   */
  write(table: PlannedTable, column: PlannedColumn, value: JsonValue): unknown {
    if (value === null) return null;
    const fail = (): never => {
      throw new TypeError(
        `"${table.name}"."${column.name}" (${column.kind}) cannot hold ${JSON.stringify(value)}: validate before storing`,
      );
    };
    switch (column.type) {
      case 'json':
        return JSON.stringify(value);
      case 'text':
        return typeof value === 'string' ? value : fail();
      case 'real':
        return typeof value === 'number' && Number.isFinite(value) ? value : fail();
      case 'integer':
        return typeof value === 'number' && Number.isSafeInteger(value) ? value : fail();
      case 'boolean':
        if (typeof value !== 'boolean') return fail();
        return this.dialect === 'sqlite' ? (value ? 1 : 0) : value;
      default:
        return exhaustiveSwitchError(column.type);
    }
  }

  /**
   * A filter value. Filters come from query strings, so a number or boolean written as text is accepted;
   * anything else that the column cannot hold is the caller's bug.
   */
  filter(table: PlannedTable, column: PlannedColumn, value: JsonValue): unknown {
    const coerced = coerce(column, value);
    if (coerced === undefined || coerced === null) {
      throw new TypeError(
        `Cannot filter "${table.name}"."${column.name}" (${column.kind}) by ${JSON.stringify(value)}`,
      );
    }
    return this.bindScalar(column, coerced);
  }

  /** A key from a URL or a body, or `undefined` when it cannot be one (so it matches no record). */
  key(column: PlannedColumn, key: string | number): unknown {
    const coerced = coerce(column, key);
    return coerced === undefined || coerced === null ? undefined : this.bindScalar(column, coerced);
  }

  /** A value read back from a cursor: its type must fit the column, or the cursor was tampered with. */
  cursor(column: PlannedColumn, value: CursorValue): unknown {
    if (value === null) return null;
    const fits =
      (column.type === 'text' && typeof value === 'string') ||
      (column.type === 'real' && typeof value === 'number') ||
      (column.type === 'integer' && typeof value === 'number' && Number.isSafeInteger(value)) ||
      (column.type === 'boolean' && typeof value === 'boolean');
    if (!fits) throw new InvalidCursorError('it does not fit this list');
    return this.bindScalar(column, value);
  }

  /** A row as a record: meta columns left out, NULL columns left out, booleans and JSON restored. */
  read(table: PlannedTable, row: Record<string, unknown>): StoredRecord {
    const record: StoredRecord = {};
    for (const column of table.columns) {
      const value = row[column.name];
      if (value === null || value === undefined) continue;
      record[column.name] = this.readValue(column, value);
    }
    for (const column of table.columns) {
      if (!column.composite) continue;
      const key = compositeKeyText(column.composite.map((part) => record[part]));
      if (key !== undefined) record[column.name] = key;
    }
    return record;
  }

  readValue(column: PlannedColumn, value: unknown): JsonValue {
    if (column.type === 'boolean')
      return this.dialect === 'sqlite' ? value === 1 || value === true : Boolean(value);
    if (column.type === 'json' && this.dialect === 'sqlite') return JSON.parse(String(value)) as JsonValue;
    // A team's table keeps numbers as NUMERIC (read as text, to keep their digits) and times as
    // PostgreSQL writes them (`2026-11-29 15:00:00+00`); the store's own tables hold them as the API
    // answers them already.
    if ((column.type === 'real' || column.type === 'integer') && typeof value === 'string') {
      const number = Number(value);
      return Number.isFinite(number) ? number : value;
    }
    if (column.kind === 'datetime') return instant(value);
    return value as JsonValue;
  }

  private bindScalar(column: PlannedColumn, value: string | number | boolean): unknown {
    if (column.type === 'boolean' && this.dialect === 'sqlite') return value ? 1 : 0;
    return value;
  }
}

/** An instant as ISO 8601 in UTC; a time without a zone is taken as UTC. Text already ISO stays as it is. */
function instant(value: unknown): JsonValue {
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'string' || value.includes('T')) return value as JsonValue;
  const zoned = /[+-]\d{2}(:?\d{2})?$|Z$/.test(value);
  const parsed = new Date(`${value.replace(' ', 'T')}${zoned ? '' : 'Z'}`);
  return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
}

const INTEGER_TEXT = /^-?\d{1,16}$/;
const NUMBER_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A scalar of the column's type, `null`, or `undefined` when the value cannot be one. */
function coerce(column: PlannedColumn, value: JsonValue): string | number | boolean | null | undefined {
  if (value === null) return null;
  switch (column.type) {
    case 'text':
      return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
    case 'real': {
      const number = typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
    }
    case 'integer': {
      const number = typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value;
      return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'json':
      return undefined;
    default:
      return exhaustiveSwitchError(column.type);
  }
}
