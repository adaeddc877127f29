import { type Entity, findEntity, type Model } from '@ninefold/model';
import type { ApiRecord } from './data-provider';

/**
 * A record as its entity's fields mean it, read tolerantly: many real servers send a boolean as `1` or
 * `"0"` (SQLite has no boolean type) and a number as a string (PostgreSQL's numeric and bigint through
 * JSON). Such values of a boolean, integer or number field are read as what the field says; any other
 * value is kept exactly as sent, so nothing unreadable is hidden. Nested objects are read by their own
 * entity. The record is copied only when a value changes.
 *
 * @example
 * ```ts
 * readTolerantly(model, 'Event', { id: '7', published: 1 }); // { id: 7, published: true } when id is an integer
 * ```
 */
export function readTolerantly(model: Model, entityName: string | undefined, record: ApiRecord): ApiRecord {
  const entity = entityName === undefined ? undefined : findEntity(model, entityName);
  return entity === undefined ? record : readRecord(model, entity, record, 0);
}

/** Objects nest at most this deep here; deeper ones are kept as sent. */
const MAX_DEPTH = 8;

function readRecord(model: Model, entity: Entity, record: ApiRecord, depth: number): ApiRecord {
  let out: ApiRecord | undefined;
  for (const field of entity.fields) {
    if (!Object.hasOwn(record, field.name)) continue;
    const value = record[field.name];
    let read: unknown = value;
    switch (field.kind) {
      case 'boolean':
        read = booleanOf(value);
        break;
      case 'integer':
      case 'number':
        read = numberOf(value, field.kind);
        break;
      case 'object': {
        const inner = findEntity(model, field.entity);
        if (inner && depth < MAX_DEPTH && isRecord(value)) read = readRecord(model, inner, value, depth + 1);
        break;
      }
      default:
        break;
    }
    if (read !== value) {
      out ??= { ...record };
      out[field.name] = read as ApiRecord[string];
    }
  }
  return out ?? record;
}

function booleanOf(value: unknown): unknown {
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return value;
}

function numberOf(value: unknown, kind: 'integer' | 'number'): unknown {
  if (typeof value !== 'string' || !/^-?\d{1,15}(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(value.trim()))
    return value;
  const number = Number(value);
  if (!Number.isFinite(number) || (kind === 'integer' && !Number.isSafeInteger(number))) return value;
  return number;
}

function isRecord(value: unknown): value is ApiRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
