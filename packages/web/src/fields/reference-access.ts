import { checkGrant, checkScreen, findEntity, type Model, personName } from '@ninefold/model';
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

/**
 * How the records of `entity` get their names in a reference:
 * - `record`: the role may read them, so each is read (`nameField`), with a link where it may open it;
 * - `names`: it may not, but the API names the ids the role sees (the prototype API's names call);
 * - none: the entity has no display field, or nothing names its records for this role; the id is shown.
 */
export type NameSource = { kind: 'record'; display: string } | { kind: 'names'; display: string };

export function nameSource(
  model: Model,
  data: DataProvider,
  session: SessionValue,
  entity: string,
): NameSource | undefined {
  const readable = nameField(model, data, session, entity);
  if (readable !== undefined) return { kind: 'record', display: readable };
  const display = findEntity(model, entity)?.display;
  return display !== undefined && data.names ? { kind: 'names', display } : undefined;
}

/** The signed-in person's own name (else email) for their own id, which needs no call to tell. */
export function ownName(session: SessionValue, id: string): string | undefined {
  if (session.state.status !== 'signed-in') return undefined;
  const { user } = session.state;
  if (user.id === undefined || user.id !== id) return undefined;
  return personName({ ...user.attributes, email: user.email });
}
