import type { ApiRecord } from '../data/data-provider';
import type { ActionDefinition } from './types';

/** Whether an action's button goes on its entity's records at a place (both, unless it says). */
export function placedAt(action: ActionDefinition, entity: string, place: 'row' | 'detail'): boolean {
  return action.entity === entity && (action.places ?? ['row', 'detail']).includes(place);
}

/**
 * The actions offered on one record at a place, before any permission: of its entity, placed there, and
 * whose own `when` agrees. A `when` that throws hides its own button only.
 */
export function actionsOn(
  actions: Readonly<Record<string, ActionDefinition>>,
  entity: string,
  record: ApiRecord,
  place: 'row' | 'detail',
): Array<[string, ActionDefinition]> {
  return Object.entries(actions).filter(([name, definition]) => {
    if (!placedAt(definition, entity, place)) return false;
    try {
      return definition.when === undefined || definition.when(record);
    } catch (error) {
      console.error(`[ninefold] the extension's action ${name} threw in when()`, error);
      return false;
    }
  });
}
