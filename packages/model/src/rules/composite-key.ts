import type { Entity, Field, JsonValue } from '../model';

// A composite key (a key field with `keyOf`) as one text, so that a route, a reference and a selection
// name the record as they name any other: the parts in order, joined by commas, each with its own commas
// and percent signs escaped as in a URL. `1,SP-100` is the part with job 1 and sku SP-100.

const ESCAPES: Record<string, string> = { '%': '%25', ',': '%2C' };
const UNESCAPES: Record<string, string> = { '%25': '%', '%2C': ',', '%2c': ',' };

/**
 * The key text of a record's part values, or undefined when one is missing.
 *
 * @example
 * ```ts
 * compositeKeyText([1, 'SP-100']); // '1,SP-100'
 * compositeKeyText(['a,b', '50%']); // 'a%2Cb,50%25'
 * ```
 */
export function compositeKeyText(values: readonly (JsonValue | undefined)[]): string | undefined {
  const parts: string[] = [];
  for (const value of values) {
    if (value === undefined || value === null || typeof value === 'object') return undefined;
    parts.push(String(value).replace(/[%,]/g, (char) => ESCAPES[char] ?? char));
  }
  return parts.join(',');
}

/** The part texts of a key text, or undefined when it does not have `count` of them. */
export function compositeKeyParts(text: string, count: number): string[] | undefined {
  const parts = text
    .split(',')
    .map((part) => part.replace(/%(25|2C)/gi, (escaped) => UNESCAPES[escaped] ?? escaped));
  return parts.length === count ? parts : undefined;
}

/** The entity's key field when its key is made of several fields. */
export function compositeKeyField(entity: Entity): (Field & { keyOf: string[] }) | undefined {
  const field = entity.fields.find((candidate) => candidate.name === entity.key);
  return field?.keyOf && field.keyOf.length > 1 ? (field as Field & { keyOf: string[] }) : undefined;
}

/** The key text of a record whose entity has a composite key, from its parts' values. */
export function compositeKeyOf(
  entity: Entity,
  record: Readonly<Record<string, JsonValue>>,
): string | undefined {
  const field = compositeKeyField(entity);
  return field ? compositeKeyText(field.keyOf.map((name) => record[name])) : undefined;
}
