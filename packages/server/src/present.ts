import { type Entity, type Field, type Model, type Principal, presentation } from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import { principalOf } from './access';
import type { StoredRecord } from './store/store';

/** Turns a stored record into what one request may see of it. */
export type Presenter = (record: StoredRecord) => StoredRecord;

/**
 * What the client sees of an entity's records, for the person making the request: the core's
 * `presentation` (hidden fields left out, those hidden under a condition where a record meets it,
 * derived fields computed). Which fields those are is worked out once per request, not once per record:
 * a page of 50 asked it 50 times.
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
  return presentation(model, principal, entity).present as Presenter;
}

/**
 * The fields of an entity one request sees (the CSV export's columns): all but the write-only ones and
 * those the role may not read, derived ones included; and whether the store's `id` is shown.
 */
export function shownFields(
  model: Model,
  request: FastifyRequest,
  entity: Entity,
): { fields: Field[]; storeId: boolean } {
  const { fields, storeId } = presentation(model, principalOf(request), entity);
  return { fields, storeId };
}
