import type { Model } from '@ninefold/spec';
import { type Query, useQueryClient } from '@tanstack/react-query';
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
/** Changes are gathered this long before the screens read again: an import's burst is one refresh. */
const GATHER_MS = 150;
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
    if (!data.follow || follower === undefined) return;
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const entities = new Set(pending);
      pending.clear();
      void client.invalidateQueries({ predicate: (query) => readsEntity(model, query, entities) });
    };
    const stop = data.follow({
      onChange(change) {
        records.tell(change);
        pending.add(change.entity);
        timer ??= setTimeout(flush, GATHER_MS);
      },
      onReset() {
        void client.invalidateQueries();
      },
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
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

/**
 * Whether a query reads records of these entities: a record and its names (`[entity, …]`), a list or a
 * dashboard count (`['list', entity, …]`), or a figure over the entity (`['figure', screen, name]`).
 */
function readsEntity(model: Model, query: Query, entities: ReadonlySet<string>): boolean {
  const [first, second, third] = query.queryKey;
  if (typeof first === 'string' && entities.has(first)) return true;
  if (first === 'list' && typeof second === 'string') return entities.has(second);
  if (first === 'figure' && model.screens.shown) {
    const screen = model.screens.items.find((item) => item.name === second);
    const figure =
      screen?.kind === 'dashboard' ? screen.figures.find((item) => item.name === third) : undefined;
    return figure !== undefined && entities.has(figure.entity);
  }
  return false;
}
