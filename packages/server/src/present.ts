import {
  derivedValues,
  type Entity,
  type Field,
  fieldAccess,
  type Model,
  type Principal,
} from '@ninefold/model';
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
  return presenterOf(model, principalOf(request), entity);
}

/** The same for a principal rather than a request: a live update is shown to each stream's person. */
export function presenterOf(model: Model, principal: Principal, entity: Entity): Presenter {
  const { fields, hidden, storeId } = fieldsShownTo(model, principal, entity);
  const stored = fields.filter((field) => field.derived === undefined).map((field) => field.name);
  const derived = entity.fields.some((field) => field.derived !== undefined);
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

/**
 * The fields of an entity one request sees: all but the write-only ones and those the role may not
 * read, derived ones included; and whether the store's `id` is shown (an entity without a key field of
 * its own is keyed by it).
 */
export function shownFields(
  model: Model,
  request: FastifyRequest,
  entity: Entity,
): { fields: Field[]; hidden: ReadonlySet<string>; storeId: boolean } {
  return fieldsShownTo(model, principalOf(request), entity);
}

function fieldsShownTo(
  model: Model,
  principal: Principal,
  entity: Entity,
): { fields: Field[]; hidden: ReadonlySet<string>; storeId: boolean } {
  const { hidden } = fieldAccess(model, principal, entity.name);
  return {
    fields: entity.fields.filter((field) => !field.writeOnly && !hidden.has(field.name)),
    hidden,
    storeId: !entity.key && !hidden.has('id'),
  };
}
