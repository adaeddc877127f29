import type { Model } from '@ninefold/model';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import type { LiveChange } from '../data/live-events';
import { useSession } from '../session/SessionContext';
import { useSpec } from './SpecContext';

/** Changes to records seen on the events stream, latest per record, for the screens that show them. */
interface LiveRecords {
  latest(entity: string, key: string): LiveChange | undefined;
  subscribe(listener: () => void): () => void;
  tell(change: LiveChange): void;
}

const LiveContext = createContext<LiveRecords | undefined>(undefined);
/** Records whose last change is remembered; an edit form asks only about its own. */
const REMEMBERED = 500;

/**
 * Follows the API's events stream while someone may read (signed in, or nobody needs to be), and keeps
 * every open screen current: a list, a record, a dashboard figure of an entity that changed is read
 * again in place, through the same calls and permissions as before, so a stream never shows more than a
 * screen would. A change the stream may have missed (a long drop) reads everything again. Against an API
 * without a stream (`DataProvider.follow` absent), nothing happens.
 */
export function LiveUpdates({ children }: { children: ReactNode }) {
  const { data, model } = useSpec();
  const { state } = useSession();
  const client = useQueryClient();
  const [records] = useState(createLiveRecords);
  const follower =
    state.status === 'signed-in'
      ? `user:${state.user.id ?? state.user.email ?? ''}`
      : state.status === 'none'
        ? 'anyone'
        : undefined;

  useEffect(() => {
    if (!data.follow || follower === undefined || !storesRecords(model)) return;
    // What to read again on a change loads with the stream's own code once the first screen has read
    // its data: at boot its requests would take turns with that screen's own code and records.
    let stop: (() => void) | undefined;
    let stopped = false;
    const cancel = afterFirstReads(client, () => {
      void import('./live-queries').then(({ followQueries }) => {
        if (!stopped) stop = followQueries(data, model, client, records.tell);
      });
    });
    return () => {
      stopped = true;
      cancel();
      stop?.();
    };
  }, [data, model, client, records, follower]);

  return <LiveContext.Provider value={records}>{children}</LiveContext.Provider>;
}

/** The last change the stream told of a record, from when this hook's screen opened; undefined before. */
export function useLiveChange(entity: string, key: string | undefined): LiveChange | undefined {
  const records = useContext(LiveContext);
  const [since] = useState(() => (key === undefined ? undefined : records?.latest(entity, key)));
  const latest = useSyncExternalStore(
    records?.subscribe ?? noSubscription,
    () => (key === undefined ? undefined : records?.latest(entity, key)),
    () => undefined,
  );
  return latest === since ? undefined : latest;
}

const noSubscription = () => () => {};

/** Most a page waits for its first reads before it follows changes. */
const FIRST_READS_MS = 3000;

/**
 * Runs `then` once the page's first reads are done (the queries went from fetching to none), or after
 * `FIRST_READS_MS` for a page that reads nothing. Answers the function that cancels it.
 */
function afterFirstReads(client: QueryClient, then: () => void): () => void {
  // The first reads may be over already (this starts once the session is known, which can be after
  // the screen read its records): then it follows now, not after the fallback wait, in which changes
  // would go unseen.
  const read = client
    .getQueryCache()
    .getAll()
    .some((query) => query.state.dataUpdatedAt > 0);
  if (read && client.isFetching() === 0) {
    then();
    return () => {};
  }
  // A read already under way counts: its end may be the first event the cache tells of.
  let fetched = client.isFetching() > 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(timer);
    then();
  };
  const unsubscribe = client.getQueryCache().subscribe(() => {
    const fetching = client.isFetching() > 0;
    if (fetching) fetched = true;
    else if (fetched) queueMicrotask(() => client.isFetching() === 0 && finish());
  });
  const timer = setTimeout(finish, FIRST_READS_MS);
  return () => {
    done = true;
    unsubscribe();
    clearTimeout(timer);
  };
}

/** A model without stored records has nothing to follow (the empty shell). */
function storesRecords(model: Model): boolean {
  return model.entities.shown && model.entities.items.some((entity) => !entity.embedded);
}

function createLiveRecords(): LiveRecords {
  const changes = new Map<string, LiveChange>();
  const listeners = new Set<() => void>();
  return {
    latest: (entity, key) => changes.get(`${entity}\u0000${key}`),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    tell(change) {
      if (change.key === undefined) return;
      const id = `${change.entity}\u0000${change.key}`;
      changes.delete(id);
      if (changes.size >= REMEMBERED) {
        const oldest = changes.keys().next().value;
        if (oldest !== undefined) changes.delete(oldest);
      }
      changes.set(id, change);
      for (const listener of [...listeners]) listener();
    },
  };
}
