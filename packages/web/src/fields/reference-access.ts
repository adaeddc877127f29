import { checkGrant, checkScreen, findEntity, type Model } from '@ninefold/spec';
import { screenFor } from '../app/routes';
import type { DataProvider } from '../data/data-provider';
import { settle } from '../screens/access-policy';
import type { SessionValue } from '../session/SessionContext';

/**
 * The field that names the records of `entity` in a reference, when they can be read for it: the entity
 * has a display field, point 7 a get call, and the role may read it. Otherwise a reference shows its id
 * alone, and nothing is asked that the API would refuse.
 */
export function nameField(
  model: Model,
  data: DataProvider,
  session: SessionValue,
  entity: string,
): string | undefined {
  const display = findEntity(model, entity)?.display;
  if (display === undefined || data.calls(entity).get === undefined) return undefined;
  return settle(checkGrant(model, session.principal, entity, 'read'), session).allowed ? display : undefined;
}

/** The route of `entity`'s detail screen when the role may open it: where a reference links to. */
export function openableDetailRoute(model: Model, session: SessionValue, entity: string): string | undefined {
  const detail = screenFor(model, 'detail', entity);
  return detail && settle(checkScreen(model, session.principal, detail), session).allowed
    ? detail.route
    : undefined;
}
