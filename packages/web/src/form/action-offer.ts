import { type AccessDenial, type CrudAction, checkAction, type JsonValue, type Model } from '@ninefold/model';
import { settle } from '../screens/access-policy';
import type { SessionValue } from '../session/SessionContext';

/**
 * How a record screen offers an action to a role: not at all when the role has no grant of it (nothing
 * to offer, ever), disabled with the reason when the grant's condition fails for this record (the role
 * may do it, only not here), else enabled.
 */
export type ActionOffer =
  | { kind: 'hidden' }
  | { kind: 'enabled' }
  | { kind: 'disabled'; reason: AccessDenial };

/**
 * @example
 * actionOffer(shop, clerkSession, 'Order', 'update', othersDraft)
 * // { kind: 'disabled', reason: 'condition' }
 */
export function actionOffer(
  model: Model,
  session: SessionValue,
  entity: string,
  action: CrudAction,
  record: Record<string, JsonValue>,
): ActionOffer {
  const { principal } = session;
  if (!settle(checkAction(model, principal, entity, action), session).allowed) return { kind: 'hidden' };
  const verdict = settle(checkAction(model, principal, entity, action, record), session);
  return verdict.allowed ? { kind: 'enabled' } : { kind: 'disabled', reason: verdict.reason };
}
