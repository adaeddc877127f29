import { createContext, useContext, useMemo } from 'react';
import { parentPath } from '../form/record-path';

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

/** `parentPath` of the current screen's route: the parents its record's calls go under. */
export function useParentPath(route: string, keyed: boolean): Readonly<Record<string, string>> | undefined {
  const params = useScreenParams();
  return useMemo(() => parentPath(route, params, keyed), [route, params, keyed]);
}
