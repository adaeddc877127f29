// Values cross between plain JSON records and what cel-js computes with (BigInt ints, Dates, typed
// messages); both directions live here so that every evaluator converts the same way.

/** A CEL type name (`double`, `list<string>`, `map`, ...) or the fields of a nested object. */
export type CelType = string | CelSchema;

/** The fields of an object and their CEL types; cel-js turns it into a message type. */
export interface CelSchema {
  [field: string]: CelType;
}

/** The CEL type of timestamps (`date`, `datetime`, `now`); cel-js names it by its protobuf name. */
export const CEL_TIMESTAMP = 'google.protobuf.Timestamp';

const MAX_VALUE_DEPTH = 64;

export function toCel(value: unknown, type: CelType, depth: number): unknown {
  if (depth > MAX_VALUE_DEPTH) return value;
  if (typeof type !== 'string') {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
      return value;
    }
    const converted: Record<string, unknown> = Object.create(null);
    for (const [key, item] of Object.entries(value)) {
      const fieldType = Object.hasOwn(type, key) ? type[key] : undefined;
      if (fieldType === undefined || item === null || item === undefined) continue;
      converted[key] = toCel(item, fieldType, depth + 1);
    }
    return converted;
  }
  if (type === 'int') {
    return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (type === 'double') return typeof value === 'bigint' ? Number(value) : value;
  if (type === CEL_TIMESTAMP) {
    if (typeof value !== 'string') return value;
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date;
  }
  const list = /^list<(.*)>$/.exec(type);
  if (list?.[1] !== undefined && Array.isArray(value)) {
    const inner = list[1];
    return value.map((item) => toCel(item, inner, depth + 1));
  }
  return value;
}

export function toPlain(value: unknown, depth: number): unknown {
  if (depth > MAX_VALUE_DEPTH) return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => toPlain(item, depth + 1));
  if (value instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of value) object[String(key)] = toPlain(item, depth + 1);
    return object;
  }
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) object[key] = toPlain(item, depth + 1);
    return object;
  }
  return value;
}
