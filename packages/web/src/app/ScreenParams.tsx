import { createContext, useContext, useMemo } from 'react';

const ScreenParamsContext = createContext<Readonly<Record<string, string>>>({});

/** Gives a screen the parameters of its route (`/orders/:id` at `/orders/7`: `{ id: '7' }`). */
export const ScreenParamsProvider = ScreenParamsContext.Provider;

/**
 * The current screen's route parameters. Screens are found by the client's own matcher (see
 * `createScreenMatcher`), not by one React Router route each, so React Router's `useParams` does not
 * know them.
 */
export function useScreenParams(): Readonly<Record<string, string>> {
  return useContext(ScreenParamsContext);
}

/**
 * The parents of the screen's record, from its route: every parameter but the record's own key (the
 * last, on a detail or edit screen). Undefined when there are none, as on every top-level screen.
 *
 * @example
 * parentPath('/accounts/:sid/addresses/:id', { sid: 'AC1', id: 'AD1' }, true); // { sid: 'AC1' }
 */
export function parentPath(
  route: string,
  params: Readonly<Record<string, string>>,
  keyed: boolean,
): Readonly<Record<string, string>> | undefined {
  const names = [...route.matchAll(/:([A-Za-z_]\w*)/g)].map((match) => match[1] ?? '');
  const parents = keyed ? names.slice(0, -1) : names;
  const out: Record<string, string> = {};
  for (const name of parents) {
    const value = params[name];
    if (value !== undefined) out[name] = value;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** `parentPath` of the current screen's route. */
export function useParentPath(route: string, keyed: boolean): Readonly<Record<string, string>> | undefined {
  const params = useScreenParams();
  return useMemo(() => parentPath(route, params, keyed), [route, params, keyed]);
}
