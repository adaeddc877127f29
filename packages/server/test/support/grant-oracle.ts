import {
  type CrudAction,
  evaluateExpression,
  expressionEnvironment,
  grantFor,
  type JsonValue,
  type Model,
} from '@ninefold/model';
import type { StoredRecord } from '../../src/store/store';

// The oracle of the permission variants, written from point 6's words (a role's grant names its actions,
// and its condition must hold for the record), not from the rules under test (checkAction).

/** Whether the role's grant names the action and its condition holds for the record and user. */
export function grantHolds(
  model: Model,
  principal: { role: string; user: Record<string, JsonValue> },
  entity: string,
  action: CrudAction,
  record: Record<string, JsonValue>,
): boolean {
  const grant = grantFor(model, principal.role, entity);
  if (!grant?.actions.includes(action)) return false;
  if (grant.where === undefined) return true;
  const env = expressionEnvironment(model, { entity, variables: ['record', 'user'] });
  const result = evaluateExpression(grant.where, env, { record, user: principal.user });
  return result.ok && result.value === true;
}

/** `user.<name>` compared with a reference in this role's conditions: linked to the n-th record it names. */
export function linkedAttributes(
  model: Model,
  role: string,
  seeded: Map<string, StoredRecord[]>,
  which: number,
): Record<string, JsonValue> {
  const attributes: Record<string, JsonValue> = {};
  if (!model.roles.shown || !model.entities.shown) return attributes;
  for (const grant of model.roles.grants) {
    if (grant.role !== role || grant.where === undefined) continue;
    const entity = model.entities.items.find((e) => e.name === grant.entity);
    for (const [, field, name] of grant.where.matchAll(/record\.(\w+)\s*==\s*user\.(\w+)/g)) {
      const reference = entity?.fields.find((f) => f.name === field);
      if (!name || name === 'id' || reference?.kind !== 'reference') continue;
      const target = model.entities.items.find((e) => e.name === reference.entity);
      const record = seeded.get(reference.entity)?.[which];
      if (target && record) attributes[name] = record[target.key ?? 'id'] as JsonValue;
    }
  }
  return attributes;
}
