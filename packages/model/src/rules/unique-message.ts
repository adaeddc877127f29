import { entityLabel, fieldLabel } from '../lookup';
import type { Entity, Model } from '../model';

/**
 * "Another Contact of this Customer already has this Email.", as the prototype API and the playground's
 * API in the tab word a value another record has. The constraint's message is not used: it speaks for
 * the field's other checks (its pattern, its range), not for a value someone else has.
 *
 * @example
 * ```ts
 * uniqueMessage(model, contact, 'email'); // 'Another Contact of this Customer already has this Email.'
 * ```
 */
export function uniqueMessage(model: Model, entity: Entity, field: string): string {
  const constraint = model.validation.shown
    ? model.validation.fields.find(
        (candidate) => candidate.entity === entity.name && candidate.field.join('.') === field,
      )
    : undefined;
  const label = (name: string) =>
    fieldLabel({ name, label: entity.fields.find((candidate) => candidate.name === name)?.label });
  const per = (constraint?.uniqueWith ?? []).map((name) => `this ${label(name)}`).join(' and ');
  return `Another ${entityLabel(entity)}${per ? ` of ${per}` : ''} already has this ${label(field)}.`;
}
