import { useEffect, useSyncExternalStore } from 'react';

let painted = false;
const listeners = new Set<() => void>();

function markPainted(): void {
  if (painted) return;
  painted = true;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * False until the page's first screen has been drawn, then true for good. Work that can wait, such as
 * reading the names behind a list's references, waits for it, so that it does not hold up the rows
 * (a page of 50 orders asked for 34 customers in the middle of its first render).
 */
export function useAfterFirstPaint(): boolean {
  const value = useSyncExternalStore(
    subscribe,
    () => painted,
    () => true,
  );
  useEffect(() => {
    if (painted) return;
    // After the next frame is drawn: a task queued from requestAnimationFrame runs after the paint.
    const frame = requestAnimationFrame(() => setTimeout(markPainted, 0));
    return () => cancelAnimationFrame(frame);
  }, []);
  return value;
}
