import type { LiveState } from './live-events';

/** Whether the API has been reachable, as the requests found it. */
export interface NetworkSnapshot {
  /** False from a request that got no answer until one that gets any answer, success or not. */
  reachable: boolean;
  /** The events stream's state, when the API has one and it is followed (see `followEvents`). */
  live?: LiveState;
}

/**
 * What the data layer learnt about the network from its own requests, for the shell's offline banner:
 * `navigator.onLine` says only that a network is there, not that the API can be reached through it.
 */
export interface NetworkStatus {
  getSnapshot(): NetworkSnapshot;
  subscribe(listener: () => void): () => void;
  /** A request got an answer (any status): the API is reachable. */
  answered(): void;
  /** A request got no answer: offline, refused, timed out. */
  unanswered(): void;
  /** The events stream's state changed; undefined once it is no longer followed. */
  liveState(state: LiveState | undefined): void;
}

/**
 * A network status that starts reachable and changes only when a request says otherwise.
 *
 * @example
 * ```ts
 * const network = createNetworkStatus();
 * network.unanswered();
 * network.getSnapshot(); // { reachable: false }
 * ```
 */
export function createNetworkStatus(): NetworkStatus {
  let snapshot: NetworkSnapshot = { reachable: true };
  const listeners = new Set<() => void>();
  const publish = (next: NetworkSnapshot) => {
    if (snapshot.reachable === next.reachable && snapshot.live === next.live) return;
    snapshot = next;
    for (const listener of [...listeners]) listener();
  };
  const withLive = (reachable: boolean, live: LiveState | undefined): NetworkSnapshot =>
    live === undefined ? { reachable } : { reachable, live };
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    answered: () => publish(withLive(true, snapshot.live)),
    unanswered: () => publish(withLive(false, snapshot.live)),
    liveState: (live) => publish(withLive(snapshot.reachable, live)),
  };
}
