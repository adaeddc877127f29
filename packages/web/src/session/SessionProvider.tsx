import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from 'react';
import { useNavigate } from '../app/router';
import { useSpec } from '../app/SpecContext';
import { signInPath } from './return-path';
import { SessionContext, type SessionValue } from './SessionContext';
import { noSessionStore, type SessionSnapshot, type SessionStore } from './session-store';

const StoreContext = createContext<SessionStore | null>(null);

/**
 * Gives the tree the session: `useSession()` and `usePrincipal()` read it, `useSessionStore()` acts on
 * it. Without a store the client has nothing to sign in to (state `none`): a preview, or tests of other
 * screens. After someone signs in again, the reads that failed are fetched again; after someone else
 * signs in, every read is.
 */
export function SessionProvider({ session, children }: { session?: SessionStore; children: ReactNode }) {
  const { model, api } = useSpec();
  const store = useMemo(() => session ?? noSessionStore(model, api), [session, model, api]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const queryClient = useQueryClient();

  useEffect(
    () =>
      store.onSignedIn(({ samePerson }) => {
        if (samePerson)
          void queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' });
        else void queryClient.invalidateQueries();
      }),
    [store, queryClient],
  );

  const { state, principal } = snapshot;
  const value = useMemo<SessionValue>(() => ({ state, principal }), [state, principal]);
  return (
    <StoreContext.Provider value={store}>
      <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
    </StoreContext.Provider>
  );
}

/** The session store, to sign in, sign out or read the credential headers. */
export function useSessionStore(): SessionStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useSessionStore must be used inside <SessionProvider>.');
  return store;
}

/** The whole snapshot, with whether the sign-in dialog is wanted. */
export function useSessionSnapshot(): SessionSnapshot {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/**
 * Signing out: the sign-out call, then the credentials forgotten, then the sign-in page. What was read
 * for the person who left is dropped from the cache.
 */
export function useSignOut(): () => Promise<void> {
  const store = useSessionStore();
  const { model } = useSpec();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await store.signOut();
    await navigate(signInPath(model), { replace: true });
    queryClient.clear();
  }, [store, model, navigate, queryClient]);
}
