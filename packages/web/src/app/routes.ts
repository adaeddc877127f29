import type { Model, Screen } from '@ninefold/model';

/** Where the page about the specification (coverage and what it leaves out) lives. */
export const ABOUT_PATH = '/_/about';
/** Where any client offers to preview an OpenAPI document imported in the page. */
export const IMPORT_PATH = '/_/import';
/** The sign-in page when point 6 names a sign-in but point 2 has no sign-in screen of its own. */
export const SIGN_IN_PATH = '/_/sign-in';
/** Every change the person may see across records, where the API keeps an audit trail. */
export const CHANGES_PATH = '/_/changes';
/** The people who sign in, for a role of point 6 that manages them (`api.accounts`). */
export const PEOPLE_PAGE_PATH = '/_/people';
/** Where a person asks for a link to reset their password. */
export const FORGOT_PASSWORD_PATH = '/_/forgot-password';
/** Where an OpenID Connect or OAuth2 provider sends the person back with the authorization code. */
export const OIDC_CALLBACK_PATH = '/_/oidc-callback';

/** The screens of point 2, or none when it is not shown. */
export function screensOf(model: Model): Screen[] {
  return model.screens.shown ? model.screens.items : [];
}

/** Screens offered in the navigation: shown, not hidden, and with no parameter to fill in. */
export function navigationScreens(model: Model): Screen[] {
  return screensOf(model).filter((screen) => !screen.hidden && !screen.route.includes(':'));
}

export { homeScreen } from '@ninefold/model';

/** Fills `:param` segments of a route, e.g. `routeTo('/orders/:id', { id: 7 })` is `/orders/7`. */
export function routeTo(route: string, params: Record<string, string | number>): string {
  return route.replace(/:([A-Za-z_][\w]*)/g, (whole, name: string) =>
    params[name] === undefined ? whole : encodeURIComponent(String(params[name])),
  );
}

/** The screen of a kind for an entity, e.g. the detail screen of `Order`, if the specification has one. */
export function screenFor(model: Model, kind: Screen['kind'], entity: string): Screen | undefined {
  return screensOf(model).find(
    (screen) => screen.kind === kind && 'entity' in screen && screen.entity === entity,
  );
}

/**
 * The screen of a kind for an entity that sits right below a route, else the entity's first of that kind:
 * a list's own create form (`/accounts/:sid/addresses/new`) and record (`/accounts/:sid/addresses/:id`),
 * where an entity listed in several places has one of each per place.
 *
 * @example
 * screenBelow(model, 'create', 'Address', '/accounts/:sid/addresses')?.route; // '/accounts/:sid/addresses/new'
 */
export function screenBelow(
  model: Model,
  kind: Screen['kind'],
  entity: string,
  route: string,
): Screen | undefined {
  const depth = route.split('/').length + 1;
  const own = screensOf(model).filter(
    (screen) => screen.kind === kind && 'entity' in screen && screen.entity === entity,
  );
  return (
    own.find((screen) => screen.route.startsWith(`${route}/`) && screen.route.split('/').length === depth) ??
    own[0]
  );
}

/**
 * The record a list's row opens: its entity's detail screen (as `screenBelow` finds it), else the detail
 * screen right below the list, of whatever entity (Jira lists property keys at `/issue/:id/properties`
 * and reads each property at `/issue/:id/properties/:propertyKey`).
 */
export function rowDetail(model: Model, entity: string, route: string): Screen | undefined {
  const depth = route.split('/').length + 1;
  return (
    screenBelow(model, 'detail', entity, route) ??
    screensOf(model).find(
      (screen) =>
        screen.kind === 'detail' &&
        screen.route.startsWith(`${route}/:`) &&
        screen.route.split('/').length === depth,
    )
  );
}

/**
 * The lists nested under a detail screen's route, its sub-resources: `/stores/:storeId/employees` under
 * `/stores/:id` (parameters match by position, whatever their names). Only lists the navigation may
 * offer (not hidden) whose extra segments are all static.
 */
export function nestedLists(model: Model, detailRoute: string): Array<Extract<Screen, { kind: 'list' }>> {
  return screensOf(model).filter(
    (screen): screen is Extract<Screen, { kind: 'list' }> =>
      screen.kind === 'list' && !screen.hidden && extendsRoute(screen.route, detailRoute),
  );
}

/**
 * The detail screen a nested list belongs to: the longest detail route ending with a parameter that the
 * list's route extends (`/stores/:id` for `/stores/:storeId/employees`).
 */
export function parentDetail(model: Model, listRoute: string): Screen | undefined {
  let best: Screen | undefined;
  for (const screen of screensOf(model)) {
    if (screen.kind !== 'detail' || !/\/:[A-Za-z_]\w*$/.test(screen.route)) continue;
    if (!extendsRoute(listRoute, screen.route)) continue;
    if (!best || screen.route.length > best.route.length) best = screen;
  }
  return best;
}

/**
 * Fills a related route's parameters by position from another route's values: the parent's `:id` is
 * the nested list's `:storeId`.
 *
 * @example
 * ```ts
 * routeByPosition('/stores/:storeId/employees', '/stores/:id', { id: '7' }); // '/stores/7/employees'
 * ```
 */
export function routeByPosition(
  target: string,
  source: string,
  params: Readonly<Record<string, string>>,
): string {
  const values = segmentsOf(source)
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => params[segment.slice(1)]);
  const names = segmentsOf(target).filter((segment) => segment.startsWith(':'));
  const filled: Record<string, string> = {};
  names.forEach((name, index) => {
    const value = values[index];
    if (value !== undefined) filled[name.slice(1)] = value;
  });
  return routeTo(target, filled);
}

/** Whether `route` goes below `base` by static segments only, parameters matching by position. */
function extendsRoute(route: string, base: string): boolean {
  const inner = segmentsOf(route);
  const outer = segmentsOf(base);
  if (inner.length <= outer.length) return false;
  const same = outer.every((segment, index) => {
    const other = inner[index] ?? '';
    return segment.startsWith(':') ? other.startsWith(':') : segment.toLowerCase() === other.toLowerCase();
  });
  return same && inner.slice(outer.length).every((segment) => !segment.startsWith(':'));
}

function segmentsOf(route: string): string[] {
  return route.split('/').filter((segment) => segment !== '');
}
