import { type CrudAction, checkAction, type JsonValue } from '@ninefold/model';
import { useSpec } from '../app/SpecContext';
import { settle } from '../screens/access-policy';
import { useSession } from '../session/SessionContext';

/**
 * Whether point 6 lets the person do an action on an entity, on a given record when one is given (a
 * grant's condition). It brings the rules' expression engine (about 28 kB) with the code that uses it:
 * load a screen that needs it lazily. What the client allows, the prototype API enforces, so a check
 * here is a courtesy to the person, never the only guard.
 */
export function useCan(): (
  action: CrudAction,
  entity: string,
  record?: Record<string, JsonValue>,
) => boolean {
  const { model } = useSpec();
  const session = useSession();
  return (action, entity, record) =>
    settle(checkAction(model, session.principal, entity, action, record), session).allowed;
}
