import type { Field } from '@ninefold/model';
import type { Extension, FieldOverride } from './types';

/**
 * The override of one field's display or input, most specific first: by `Entity.field`, then by the
 * widget point 3 gives the field, then by its kind. The first that has the part asked for wins, so an
 * `Entity.field` override with only an input leaves the display to a widget or kind override.
 *
 * @example
 * fieldOverride(extension, 'Product', { name: 'rating', kind: 'integer', widget: 'stars' }, 'display');
 * // extension.fields.fields['Product.rating']?.display ?? extension.fields.widgets.stars?.display ?? …
 */
export function fieldOverride<P extends keyof FieldOverride>(
  extension: Extension,
  entity: string | undefined,
  field: Field,
  part: P,
): { override: NonNullable<FieldOverride[P]>; by: string } | undefined {
  const fields = extension.fields;
  if (!fields) return undefined;
  const candidates: Array<[string, FieldOverride | undefined]> = [];
  if (entity !== undefined) {
    const key = `${entity}.${field.name}`;
    candidates.push([key, own(fields.fields, key)]);
  }
  if (field.widget !== undefined)
    candidates.push([`widget “${field.widget}”`, own(fields.widgets, field.widget)]);
  candidates.push([`${field.kind} fields`, own(fields.kinds, field.kind)]);
  for (const [by, candidate] of candidates) {
    const override = candidate?.[part];
    if (override) return { override: override as NonNullable<FieldOverride[P]>, by };
  }
  return undefined;
}

/** Own properties only: an entity or widget called `constructor` must not find Object's. */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
