import { checkGrant, type Entity, grantFor, type Model, permissionsApply } from '@ninefold/model';
import type { ApiRecord, DataProvider } from '../data/data-provider';
import { settle } from '../screens/access-policy';
import type { SessionValue } from '../session/SessionContext';
import type { ActionPlan, ActionRun } from './action-plan';
import { actionsOn } from './actions-on';
import type { ActionDefinition, ActionPermission } from './types';

/**
 * The extension's actions on a record decided without the rules' expression engine, where that is
 * possible: every action is an update, a delete or the extension's own code, and the role's grant of
 * its permission has no condition. Then the grant alone decides, as `planActions` would, and a list's
 * rows get their buttons without loading the engine. Undefined where an action needs it (a transition's
 * guard, a grant's condition): `planActions` decides those.
 *
 * @example
 * planActionsLight(shop, data, warehouse, { restock }, product, record, 'row');
 * // [{ name: 'restock', run: { kind: 'update', … }, offer: { kind: 'enabled' } }]
 */
export function planActionsLight(
  model: Model,
  data: DataProvider,
  session: SessionValue,
  actions: Readonly<Record<string, ActionDefinition>>,
  entity: Entity,
  record: ApiRecord,
  place: 'row' | 'detail',
): ActionPlan[] | undefined {
  const plans: ActionPlan[] = [];
  for (const [name, definition] of actionsOn(actions, entity.name, record, place)) {
    const decided = lightOne(data, definition, entity);
    if (decided === undefined) return undefined;
    if (decided === 'none') continue;
    const { permission, run } = decided;
    if (!settle(checkGrant(model, session.principal, entity.name, permission), session).allowed) continue;
    const role = session.principal.role;
    const grant = role === undefined ? undefined : grantFor(model, role, entity.name);
    if (permissionsApply(model) && grant?.where !== undefined) return undefined;
    plans.push({ name, definition, run, offer: { kind: 'enabled' } });
  }
  return plans;
}

/** What an action needs checked and does, or undefined when only the full planner can tell. */
function lightOne(
  data: DataProvider,
  definition: ActionDefinition,
  entity: Entity,
): { permission: ActionPermission; run: ActionRun } | 'none' | undefined {
  if (definition.run && definition.call === undefined) {
    return { permission: definition.permission ?? 'read', run: { kind: 'code', code: definition.run } };
  }
  if (definition.call === undefined) return 'none';
  const call = data.calls(entity.name).all.find((candidate) => candidate.name === definition.call);
  if (!call) return 'none';
  if (call.purpose === 'update') {
    return definition.body
      ? { permission: 'update', run: { kind: 'update', body: definition.body } }
      : 'none';
  }
  if (call.purpose === 'delete') return { permission: 'delete', run: { kind: 'delete' } };
  // A transition's state, guard and roles: the full planner's.
  return call.purpose === 'transition' ? undefined : 'none';
}
