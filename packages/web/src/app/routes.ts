import type { Model, Screen } from '@ninefold/spec';

/** Where the page about the specification (coverage and what it leaves out) lives. */
export const ABOUT_PATH = '/_/about';
/** Where any client offers to preview an OpenAPI document imported in the page. */
export const IMPORT_PATH = '/_/import';

/** The screens of point 2, or none when it is not shown. */
export function screensOf(model: Model): Screen[] {
  return model.screens.shown ? model.screens.items : [];
}

/** Screens offered in the navigation: shown, not hidden, and with no parameter to fill in. */
export function navigationScreens(model: Model): Screen[] {
  return screensOf(model).filter((screen) => !screen.hidden && !screen.route.includes(':'));
}

/**
 * The screen at `/`: the one the product names as home, else one whose route is `/`. Without either,
 * the home page is the page about the specification rather than a guessed screen.
 */
export function homeScreen(model: Model): Screen | undefined {
  const screens = screensOf(model);
  const named = model.product.shown && model.product.home ? model.product.home : undefined;
  return (
    (named ? screens.find((screen) => screen.name === named) : undefined) ??
    screens.find((screen) => screen.route === '/')
  );
}

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
