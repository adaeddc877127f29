// The same unique value twice in one file. Found over the whole file before anything is written, by the
// client over every row and by the API over the rows it is sent, so that a check and the import it
// precedes refuse the same rows however the file is cut into requests.
import type { JsonValue } from '../model';

export interface ReadRow {
  row: number;
  values: Record<string, JsonValue | undefined>;
}

/**
 * For each row that repeats a unique field's value of an earlier row, the field and the earlier row.
 *
 * @example
 * repeatedValues([{ row: 2, values: { sku: 'A' } }, { row: 7, values: { sku: 'A' } }], ['sku']); // [{ row: 7, field: 'sku', earlier: 2 }]
 */
export function repeatedValues(
  rows: Iterable<ReadRow>,
  unique: readonly string[],
): Array<{ row: number; field: string; earlier: number }> {
  const seen = new Map<string, Map<string, number>>(unique.map((field) => [field, new Map()]));
  const found: Array<{ row: number; field: string; earlier: number }> = [];
  for (const { row, values } of rows) {
    for (const field of unique) {
      const value = values[field];
      if (value === undefined || value === null) continue;
      const byValue = seen.get(field) as Map<string, number>;
      const key = typeof value === 'string' ? value : JSON.stringify(value);
      const earlier = byValue.get(key);
      if (earlier === undefined) byValue.set(key, row);
      else found.push({ row, field, earlier });
    }
  }
  return found;
}
