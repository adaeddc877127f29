import { routeTo } from '../app/routes';

/** The `:param` names of a route, in order. */
function routeParams(route: string): string[] {
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
  const params = routeParams(route);
  const [only] = params;
  if (params.length !== 1 || only === undefined) return undefined;
  return routeTo(route, { [only]: id });
}

/** The record id in the current address: the route's last parameter (`/orders/:id/edit` -> `id`). */
export function recordIdFrom(
  route: string,
  params: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const name = routeParams(route).at(-1);
  return name === undefined ? undefined : params[name];
}
