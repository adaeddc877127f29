import { entityLabel, fieldLabel } from '../lookup';
import type { Entity } from '../model';

// What a team's own table refused (`Table:`, docs/database.md), worded for the person who filled the form:
// a CHECK the specification did not say as a rule of point 5, or a NOT NULL column it left optional.

function labelOf(entity: Entity, field: string): string {
  return fieldLabel({
    name: field,
    label: entity.fields.find((candidate) => candidate.name === field)?.label,
  });
}

/**
 * "Price does not meet the table's condition price >= 0.", or of the whole record when the condition
 * names none of its fields.
 *
 * @example
 * ```ts
 * tableCheckMessage(part, 'price', 'price >= 0'); // "Price does not meet the table's condition price >= 0."
 * ```
 */
export function tableCheckMessage(entity: Entity, field: string | undefined, condition: string): string {
  const what = field === undefined ? `This ${entityLabel(entity)}` : labelOf(entity, field);
  return `${what} does not meet the table's condition ${condition}.`;
}

/** "Name is required.": the table's column takes no empty value. */
export function tableRequiredMessage(entity: Entity, field: string): string {
  return `${labelOf(entity, field)} is required.`;
}
