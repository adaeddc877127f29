import type { Entity, Field, JsonValue, Model } from '../model';
import { derivedValues } from './derived';
import { fieldAccess, type Principal } from './grants';
import { conditionallyShown } from './permissions';

/** What one person sees of an entity's records, worked out once for many records. */
export interface Presentation {
  /**
   * The fields a record may show the person, in order: all but the write-only ones and those the role
   * may not read; a field hidden only under a condition is one of them (each record shows it or not).
   */
  fields: Field[];
  /** Whether the store's `id` is shown: an entity without a key field of its own is keyed by it. */
  storeId: boolean;
  /** The record as the person sees it: hidden values left out, derived fields computed afresh. */
  present(record: Record<string, JsonValue>): Record<string, JsonValue>;
}

/**
 * How records of an entity are shown to a principal, by the prototype API and the tab's API alike: the
 * fields the role may not read are in no answer, those hidden under a condition only where a record meets
 * it, write-only fields never, and derived fields computed on the way out (so an answer is right even for
 * rows stored before a formula changed).
 *
 * @example
 * ```ts
 * const { present } = presentation(model, { role: 'reviewer', user }, paper);
 * present({ id: 4, title: 'On tides', author: 'Ada', status: 'review' }); // { id: 4, title: 'On tides', status: 'review' }
 * ```
 */
export function presentation(model: Model, principal: Principal, entity: Entity): Presentation {
  const { hidden, hiddenWhile } = fieldAccess(model, principal, entity.name);
  const fields = entity.fields.filter(
    (field) => !field.writeOnly && (!hidden.has(field.name) || hiddenWhile?.fields.has(field.name) === true),
  );
  const stored = fields.filter((field) => field.derived === undefined).map((field) => field.name);
  const derived = entity.fields.some((field) => field.derived !== undefined);
  const storeId = !entity.key && !hidden.has('id');
  return {
    fields,
    storeId,
    present(record) {
      const shown = hiddenWhile ? conditionallyShown(model, principal, entity.name, record) : undefined;
      // No closure for "sees": an export presents a million records, and each would make one.
      const out: Record<string, JsonValue> = {};
      for (const name of stored) {
        const value = record[name];
        if (value !== undefined && (!hidden.has(name) || shown?.has(name) === true)) out[name] = value;
      }
      if (derived) {
        for (const [name, value] of Object.entries(derivedValues(model, entity.name, record)))
          if (!hidden.has(name) || shown?.has(name) === true) out[name] = value;
      }
      if (storeId && record.id !== undefined) out.id = record.id;
      return out;
    },
  };
}
