import type { JsonValue, Principal } from '@ninefold/model';
import { createContext, useContext } from 'react';

/** The signed-in person as the client knows them: from the sign-in answer or the API's session call. */
export interface SessionUser {
  id?: string;
  email?: string;
  /** The role of point 6, when the API tells it. */
  role?: string;
  /** Every other attribute the API gives (e.g. `customerId`), for permission conditions (`user.…`). */
  attributes: Record<string, JsonValue>;
}

/**
 * Where this client's session stands:
 * - `none`: point 6 is not shown or names no sign-in; there is nothing to sign in to.
 * - `signed-out`: sign-in is needed; `expired` when a session ended in the middle of work (a 401).
 * - `signed-in`: credentials are held (in memory, or session storage where the specification allows).
 */
export type SessionState =
  | { status: 'none' }
  | { status: 'signed-out'; expired: boolean }
  | {
      status: 'signed-in';
      user: SessionUser;
      /** When the credentials end, in milliseconds since the epoch, when the API tells. */
      expiresAt?: number;
    };

export interface SessionValue {
  state: SessionState;
  /**
   * Who is asking, for the permission rules of `packages/model` (`checkAction`, `checkScreen`, …). After a
   * session ends in the middle of work (`signed-out` with `expired`), it stays that of the person whose
   * session it was until someone signs in, so that the page they work in does not change under them.
   */
  principal: Principal;
}

const NO_SESSION: SessionValue = { state: { status: 'none' }, principal: {} };

export const SessionContext = createContext<SessionValue>(NO_SESSION);

export function useSession(): SessionValue {
  return useContext(SessionContext);
}

/** The principal the permission rules are asked about; `{}` when nobody is signed in. */
export function usePrincipal(): Principal {
  return useContext(SessionContext).principal;
}
