/** Plain JSON as a document gives it, and the two reads every look into a document needs. */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows local `$ref`s (at most 16 hops, so a cycle ends) to what they point at. */
export function resolveRef(document: Json, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 16 && isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    let at: unknown = document;
    for (const part of current.$ref.replace(/^#\//, '').split('/'))
      at = isObject(at) ? at[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    current = at;
  }
  return current;
}
