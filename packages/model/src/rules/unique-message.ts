import { entityLabel, fieldLabel } from '../lookup';
import type { Entity, JsonValue, Model } from '../model';
import type { RecordCondition, RecordReader } from './records';
import type { FieldError } from './validate';

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

/**
 * The unique values of point 5 that `record` would share with another record of its entity (`key`: the
 * record's own key on an update, which is not "another"), one field error each. The database's unique
 * index stays the last guard against a race; this finds the clash with the other refusals of a write.
 */
export async function uniqueErrors(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  reader: RecordReader,
  key?: JsonValue,
): Promise<FieldError[]> {
  if (!model.validation.shown) return [];
  const errors: FieldError[] = [];
  for (const constraint of model.validation.fields) {
    if (constraint.entity !== entity.name || !constraint.unique || constraint.field.length !== 1) continue;
    const field = constraint.field[0] as string;
    if (record[field] === undefined || record[field] === null) continue;
    const same = [field, ...(constraint.uniqueWith ?? [])].map(
      (name): RecordCondition =>
        record[name] === undefined || record[name] === null
          ? { kind: 'not', of: { kind: 'has', field: name } }
          : { kind: 'compare', field: name, op: '==', value: record[name] as JsonValue },
    );
    const other: RecordCondition[] =
      key === undefined || key === null
        ? []
        : [{ kind: 'compare', field: entity.key ?? 'id', op: '!=', value: key }];
    const clash = await reader.aggregate({
      entity: entity.name,
      fn: 'exists',
      where: { kind: 'all', of: [...same, ...other] },
    });
    if (clash === true)
      errors.push({ pointer: `/${field}`, code: 'rule', message: uniqueMessage(model, entity, field) });
  }
  return errors;
}
