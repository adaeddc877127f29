import { useEffect } from 'react';

/** The path `ninefold dev` sends change events on (server-sent events). */
export const LIVE_RELOAD_PATH = '/_ninefold/events';

/** In `ninefold dev`, reloads the page when the specification file changes. */
export function useLiveReload(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const events = new EventSource(LIVE_RELOAD_PATH);
    events.addEventListener('reload', () => window.location.reload());
    return () => events.close();
  }, [enabled]);
}
