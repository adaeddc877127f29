import { derivedValues, type Entity, fieldAccess, type Model } from '@ninefold/spec';
import type { FastifyRequest } from 'fastify';
import { principalOf } from './access';
import type { StoredRecord } from './store/store';

/** Turns a stored record into what one request may see of it. */
export type Presenter = (record: StoredRecord) => StoredRecord;

/**
 * What the client sees of an entity's records, for the person making the request: stored values, derived
 * fields computed, write-only fields and the fields the role may not read left out. Which fields those
 * are is worked out once per request, not once per record: a page of 50 asked it 50 times.
 *
 * @example
 * ```ts
 * const show = presenterFor(model, request, entity);
 * return result.items.map(show);
 * ```
 */
export function presenterFor(model: Model, request: FastifyRequest, entity: Entity): Presenter {
  const { hidden } = fieldAccess(model, principalOf(request), entity.name);
  const stored = entity.fields
    .filter((field) => !field.writeOnly && field.derived === undefined && !hidden.has(field.name))
    .map((field) => field.name);
  const derived = entity.fields.some((field) => field.derived !== undefined);
  // An entity without a key field of its own is keyed by the store's `id`.
  const storeId = !entity.key && !hidden.has('id');
  return (record) => {
    const out: StoredRecord = {};
    for (const name of stored) {
      const value = record[name];
      if (value !== undefined) out[name] = value;
    }
    // Computed again on the way out, so an answer is right even for rows stored before a formula changed.
    if (derived) {
      for (const [name, value] of Object.entries(derivedValues(model, entity.name, record)))
        if (!hidden.has(name)) out[name] = value;
    }
    if (storeId && record.id !== undefined) out.id = record.id;
    return out;
  };
}
