import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const online = () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

/** Whether the browser has a network connection, as `navigator.onLine` and its events tell. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, online, () => true);
}
