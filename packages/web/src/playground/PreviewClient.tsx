import type { ApiDescription, Model } from '@ninefold/model';
import { describeApi, visitorRole } from '@ninefold/model';
import { memo, useEffect, useMemo, useRef } from 'react';
import { App, createQueryClient } from '../app/App';
import type { ApiRecord } from '../data/data-provider';
import { createSessionStore, noSessionStore } from '../session/session-store';
import { createTabApi, newTabState, type TabState } from './tab-api';
import { demoPrincipal } from './tab-people';
import { recordsOf } from './tab-seed';

export interface PreviewClientProps {
  model: Model;
  /** The role the client is seen as; undefined for nobody signed in. */
  role: string | undefined;
  /** Seeded records for the model's entities, for those the last version of the text did not have. */
  seeded: Readonly<Record<string, ApiRecord[]>>;
}

/**
 * The client the text describes, running on the prototype API in the tab, as the chosen role. A new
 * version of the text swaps the model in place (the screen at hand stays, with what was typed in it),
 * and the records carry over to the next version's API, so nothing entered in the preview is lost.
 */
export const PreviewClient = memo(function PreviewClient({ model, role, seeded }: PreviewClientProps) {
  const api: ApiDescription = useMemo(() => ({ ...describeApi(model), base: '/api' }), [model]);
  // One set of records for every version of the text: a version's API adds only entities it is new to.
  const state = useRef<TabState>(newTabState());
  const { data, principal } = useMemo(() => {
    const principal = demoPrincipal(model, role, recordsOf(model, state.current, seeded));
    const data = createTabApi(model, api, seeded, { principal: () => principal, state: state.current });
    return { data, principal };
  }, [model, api, role, seeded]);
  const session = useMemo(() => {
    // The role for people not signed in is previewed signed out: its own screens, and a sign-in for the rest.
    if (role !== undefined && visitorRole(model)?.name === role)
      return createSessionStore(model, api, { storage: null });
    if (!principal.user || !model.roles.shown) return noSessionStore(model, api);
    return createSessionStore(model, api, {
      storage: null,
      signedIn: { credentials: { scheme: 'bearer', token: 'playground' }, user: principal.user },
    });
  }, [model, api, principal, role]);
  const queryClient = useMemo(() => createQueryClient(), []);
  // A new version of the model or another role: what was read before is read again from the new API.
  const readFrom = useRef(data);
  useEffect(() => {
    if (readFrom.current === data) return;
    readFrom.current = data;
    void queryClient.invalidateQueries();
  }, [queryClient, data]);
  return (
    <App
      spec={{ model, api, data, embedded: true }}
      queryClient={queryClient}
      session={session}
      initialPath="/"
    />
  );
});
