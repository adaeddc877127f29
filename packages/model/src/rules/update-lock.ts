import { findEntity } from '../lookup';
import type { JsonValue, Model, Rule } from '../model';
import { fieldAccess, type Principal } from './grants';
import { brokenRules, type FieldError, ruleRecordFields } from './validate';
import { machineOf } from './write-plan';

/** A rule of point 5 that refuses every edit of a record, with the refusal the API would give. */
export interface UpdateLock {
  rule: Rule;
  error: FieldError;
}

/**
 * The rule that locks a record against edits by this principal, if one does: a rule on update that the
 * record as it is breaks, and that reads of the record only fields no edit by this role can change (its
 * state, read-only and derived fields, and those the role's grant makes read-only). Every save would be
 * refused with its message, so a screen offers Edit disabled with that message rather than a form that
 * cannot be saved. A rule that reads other records, or the record whole, locks nothing here: only the API
 * can decide it.
 *
 * @example
 * ```ts
 * // Rule on update: record.status == "draft", "Only a draft can be changed."
 * updateLock(shop, clerk, 'Order', { status: 'paid', … })?.error.message; // 'Only a draft can be changed.'
 * ```
 */
export function updateLock(
  model: Model,
  principal: Principal,
  entityName: string,
  record: Record<string, JsonValue>,
  now: Date = new Date(),
): UpdateLock | undefined {
  const entity = findEntity(model, entityName);
  if (!entity || !model.validation.shown) return undefined;
  const fixed = new Set(fieldAccess(model, principal, entityName).readOnly);
  for (const field of entity.fields) if (field.readOnly || field.derived !== undefined) fixed.add(field.name);
  const stateField = machineOf(model, entity)?.field;
  if (stateField !== undefined) fixed.add(stateField);
  const options = {
    mode: 'update' as const,
    old: record,
    now,
    ...(principal.user ? { user: principal.user } : {}),
  };
  return brokenRules(model, entity, record, options).find(({ rule }) => {
    const read = ruleRecordFields(model, rule);
    return read !== undefined && read.size > 0 && [...read].every((name) => fixed.has(name));
  });
}
