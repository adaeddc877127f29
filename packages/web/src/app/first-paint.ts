import { useEffect, useSyncExternalStore } from 'react';

let painted = false;
const listeners = new Set<() => void>();

/** The longest the page waits for an idle moment after its first frame. */
const IDLE_WAIT_MS = 200;
const FALLBACK_WAIT_MS = 16;

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
 * False until the page's first screen has been drawn and the page is idle, then true for good. Work that
 * can wait, such as reading the names behind a list's references, waits for it, so that it holds up
 * neither the rows (a page of 50 orders asked for 34 customers in the middle of its first render) nor
 * whatever the page does right after its first frame.
 */
export function useAfterFirstPaint(): boolean {
  const value = useSyncExternalStore(
    subscribe,
    () => painted,
    () => true,
  );
  useEffect(() => (painted ? undefined : afterNextPaint(markPainted)), []);
  return value;
}

/**
 * Runs `work` after the next frame is drawn (a task queued from requestAnimationFrame runs after the
 * paint), once the tasks already waiting have run; returns a function that cancels it. Safari has no
 * requestIdleCallback: a short timer stands in.
 */
export function afterNextPaint(work: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idle: number | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function')
        idle = requestIdleCallback(work, { timeout: IDLE_WAIT_MS });
      else timer = setTimeout(work, FALLBACK_WAIT_MS);
    }, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    if (idle !== undefined) cancelIdleCallback(idle);
  };
}
