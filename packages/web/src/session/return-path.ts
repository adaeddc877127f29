import {
  checkGrant,
  checkScreen,
  type Model,
  type Principal,
  type Screen,
  type SignIn,
} from '@ninefold/model';
import { OIDC_CALLBACK_PATH, SIGN_IN_PATH, screensOf } from '../app/routes';
import type { SessionState } from './SessionContext';

/** Resolves candidate return paths without a page address (tests, workers); never fetched. */
const PROBE_ORIGIN = 'http://return.invalid';

/** The sign-in of point 6, or none when it is not shown. */
export function signInOf(model: Model): SignIn {
  return model.roles.shown ? model.roles.signIn : { kind: 'none' };
}

/**
 * The sign-in page: the sign-in screen of point 2 when it has one (with no parameter to fill), else the
 * built-in page.
 */
export function signInPath(model: Model): string {
  const own = screensOf(model).find((screen) => screen.kind === 'sign-in' && !screen.route.includes(':'));
  return own?.route ?? SIGN_IN_PATH;
}

/** Whether an address is a page of signing in, where asking to sign in again makes no sense. */
export function isSignInAddress(model: Model, pathname: string): boolean {
  const path = trimSlash(pathname).toLowerCase();
  return (
    path === trimSlash(signInPath(model)).toLowerCase() ||
    path === SIGN_IN_PATH ||
    path === OIDC_CALLBACK_PATH
  );
}

/** The sign-in page with the address to come back to, e.g. `/_/sign-in?next=%2Forders%3Fpage%3D2`. */
export function signInAddress(model: Model, returnTo: string | undefined): string {
  const page = signInPath(model);
  const next = returnTo === undefined ? undefined : safeReturnPath(returnTo);
  if (next === undefined || next === '/' || isSignInAddress(model, next.split(/[?#]/)[0] ?? '')) return page;
  return `${page}?${new URLSearchParams({ next }).toString()}`;
}

/**
 * Where to send someone who opened a screen that needs signing in while nobody is signed in: the
 * sign-in page, with this address to come back to. Undefined when the screen may be shown, or when a
 * session just ended here (signing in again then happens over the page, which keeps what was typed).
 */
export function signInRedirect(
  model: Model,
  state: SessionState,
  principal: Principal,
  screen: Screen | undefined,
  here: string,
): string | undefined {
  if (state.status !== 'signed-out' || state.expired || screen === undefined) return undefined;
  const verdict = checkScreen(model, principal, screen);
  if (!verdict.allowed) return verdict.reason === 'not-signed-in' ? signInAddress(model, here) : undefined;
  // A dashboard anyone may open, whose every tile needs a sign-in, would be an empty page: the person is
  // asked to sign in instead, and comes back to it.
  if (screen.kind !== 'dashboard') return undefined;
  const tiles = screen.tiles.flatMap((name) =>
    screensOf(model).filter((candidate) => candidate.name === name),
  );
  const closedTiles = tiles.every((tile) => {
    const seen = checkScreen(model, principal, tile);
    return !seen.allowed && seen.reason === 'not-signed-in';
  });
  const closedFigures = screen.figures.every((figure) => {
    // Signed out, a figure is refused exactly when reading its entity is (its fields matter to roles).
    const seen = checkGrant(model, principal, figure.entity, 'read');
    return !seen.allowed && seen.reason === 'not-signed-in';
  });
  const parts = tiles.length + screen.figures.length;
  return parts > 0 && closedTiles && closedFigures ? signInAddress(model, here) : undefined;
}

/**
 * A return address kept only when it is a path of this client: it starts with one `/`, resolves to the
 * same origin, and carries no scheme, host or backslash tricks (`//evil.example`, `/\evil.example`,
 * `javascript:`). Anything else is dropped, so a crafted sign-in link cannot send anyone elsewhere.
 *
 * @example
 * ```ts
 * safeReturnPath('/orders/7?tab=lines'); // '/orders/7?tab=lines'
 * safeReturnPath('//evil.example/'); // undefined
 * ```
 */
export function safeReturnPath(candidate: string | null | undefined): string | undefined {
  if (typeof candidate !== 'string' || candidate === '' || candidate.length > 2000) return undefined;
  if (!candidate.startsWith('/') || candidate.startsWith('//') || /[\\\s]/.test(candidate)) return undefined;
  // Control characters are refused outright: browsers drop some of them while parsing an address.
  for (const char of candidate)
    if (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f) return undefined;
  let url: URL;
  try {
    url = new URL(candidate, PROBE_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PROBE_ORIGIN) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

function trimSlash(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
