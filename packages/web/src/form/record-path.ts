import { routeTo } from '../app/routes';

/** The `:param` names of a route, in order. */
export function routeParamNames(route: string): string[] {
  return [...route.matchAll(/:([A-Za-z_]\w*)/g)].map((match) => match[1] ?? '');
}

/**
 * The address of one record's screen (detail or edit), when the route needs only the record's id.
 * A nested route (`/stores/:storeId/employees/:id`) needs parents the client does not know from a record
 * alone, so it gets no link rather than a wrong one.
 *
 * @example
 * recordPath('/orders/:id/edit', 7) // '/orders/7/edit'
 */
export function recordPath(route: string, id: string | number): string | undefined {
  const params = routeParamNames(route);
  const [only] = params;
  if (params.length !== 1 || only === undefined) return undefined;
  return routeTo(route, { [only]: id });
}

/** The record id in the current address: the route's last parameter (`/orders/:id/edit` -> `id`). */
export function recordIdFrom(
  route: string,
  params: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const name = routeParamNames(route).at(-1);
  return name === undefined ? undefined : params[name];
}

/**
 * The parents of the record at an address: every route parameter but the record's own key (the last, as
 * `recordIdFrom` reads it) on a detail or edit screen. Undefined when there are none, as at the top level.
 *
 * @example
 * parentPath('/accounts/:sid/addresses/:id', { sid: 'AC1', id: 'AD1' }, true); // { sid: 'AC1' }
 */
export function parentPath(
  route: string,
  params: Readonly<Record<string, string | undefined>>,
  keyed: boolean,
): Readonly<Record<string, string>> | undefined {
  const names = routeParamNames(route);
  const parents: Record<string, string> = {};
  for (const name of keyed ? names.slice(0, -1) : names) {
    const value = params[name];
    if (value !== undefined) parents[name] = value;
  }
  return Object.keys(parents).length === 0 ? undefined : parents;
}
