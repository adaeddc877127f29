import { fnv1a } from './table-plan';

/** A cursor value: what a sort column held in the last row of a page (`null` when it was empty). */
export type CursorValue = string | number | boolean | null;

/**
 * A `cursor` that this store did not write, or wrote for another sort order. It is the caller's mistake
 * (the HTTP layer answers 400), not a failure of the store.
 */
export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
  constructor(reason: string) {
    super(`Invalid cursor: ${reason}`);
  }
}

/**
 * Writes the position after a row: its values of the order's columns (the key last), plus a hash of the
 * order so that a cursor used with another sort is refused instead of skipping rows. Opaque base64url.
 */
export function encodeCursor(order: string, values: CursorValue[]): string {
  return Buffer.from(JSON.stringify({ o: fnv1a(order), v: values }), 'utf8').toString('base64url');
}

/** Reads a cursor written by `encodeCursor` for the same order; throws `InvalidCursorError` otherwise. */
export function decodeCursor(cursor: string, order: string, length: number): CursorValue[] {
  if (cursor.length === 0 || cursor.length > 8192 || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new InvalidCursorError('not a cursor from this API');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('not a cursor from this API');
  }
  if (typeof parsed !== 'object' || parsed === null || !('o' in parsed) || !('v' in parsed)) {
    throw new InvalidCursorError('not a cursor from this API');
  }
  const { o, v } = parsed;
  if (o !== fnv1a(order)) throw new InvalidCursorError('it was made for another sort order');
  if (!Array.isArray(v) || v.length !== length || !v.every(isCursorValue)) {
    throw new InvalidCursorError('not a cursor from this API');
  }
  return v;
}

function isCursorValue(value: unknown): value is CursorValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}
