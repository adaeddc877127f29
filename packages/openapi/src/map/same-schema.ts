import { isRecord } from './document';

/** Deeper than any real schema; equality gives up (answers "not the same") rather than recurse forever. */
const MAX_DEPTH = 64;

/**
 * Whether two JSON values are equal: same keys (in any order), same values. Documents that are fully
 * dereferenced (Netlify's) repeat a named schema verbatim wherever it is used; this finds the copies.
 */
export function sameJson(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (depth > MAX_DEPTH || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key], depth + 1)) return false;
  }
  return true;
}

/**
 * Cheap and order-insensitive: schemas with different fingerprints are never equal. Counts and sums of
 * name lengths rather than sorted names, so that nothing is sorted or joined for each schema.
 */
function fingerprint(schema: Record<string, unknown>): string {
  let keys = 0;
  let keyLengths = 0;
  for (const key in schema) {
    keys += 1;
    keyLengths += key.length;
  }
  let properties = 0;
  let propertyLengths = 0;
  let initials = 0;
  if (isRecord(schema.properties)) {
    for (const name in schema.properties) {
      properties += 1;
      propertyLengths += name.length;
      initials += name.charCodeAt(0);
    }
  }
  const type = typeof schema.type === 'string' ? schema.type : '';
  return `${keys}.${keyLengths}.${properties}.${propertyLengths}.${initials}.${type}`;
}

export interface SameSchemaIndex<T> {
  add(schema: Record<string, unknown>, value: T): void;
  /** The value of a schema equal to this one (the same object, or a deep-equal copy), if one was added. */
  find(schema: Record<string, unknown>): T | undefined;
}

/**
 * Schemas seen so far, found again by deep equality. Candidates are narrowed by a fingerprint (keys and
 * property names) so that only likely copies are compared in full.
 *
 * @example
 * ```ts
 * const index = createSameSchemaIndex<string>();
 * index.add({ type: 'object', properties: { id: { type: 'string' } } }, 'Thing');
 * index.find({ properties: { id: { type: 'string' } }, type: 'object' }); // 'Thing'
 * ```
 */
export function createSameSchemaIndex<T>(): SameSchemaIndex<T> {
  const byObject = new WeakMap<object, T>();
  const byPrint = new Map<string, Array<{ schema: Record<string, unknown>; value: T }>>();
  const prints = new WeakMap<object, string>();
  const printOf = (schema: Record<string, unknown>): string => {
    let print = prints.get(schema);
    if (print === undefined) {
      print = fingerprint(schema);
      prints.set(schema, print);
    }
    return print;
  };
  return {
    add(schema, value) {
      if (byObject.has(schema)) return;
      byObject.set(schema, value);
      const print = printOf(schema);
      const bucket = byPrint.get(print);
      if (bucket === undefined) byPrint.set(print, [{ schema, value }]);
      else bucket.push({ schema, value });
    },
    find(schema) {
      const known = byObject.get(schema);
      if (known !== undefined) return known;
      const bucket = byPrint.get(printOf(schema));
      if (bucket === undefined) return undefined;
      for (const candidate of bucket) {
        if (sameJson(candidate.schema, schema)) {
          byObject.set(schema, candidate.value);
          return candidate.value;
        }
      }
      return undefined;
    },
  };
}
