/**
 * What the client says after a write ("Changes saved", "Order placed", a delete that can still be
 * undone), kept outside React so that any code may say it and the shell shows it. Each notice leaves by
 * itself after its time; one with an action (Undo) stays as long as the action can be taken.
 */
export interface Notice {
  id: number;
  message: string;
  tone: 'done' | 'failed';
  action?: { label: string; run(): void };
  /** How long it stays, in milliseconds. */
  timeoutMs: number;
}

/** A notice stays this long unless it says otherwise: time to read two lines. */
export const NOTICE_MS = 6_000;
/** No more than this many at once: the oldest leave first. */
const MOST = 4;

let notices: readonly Notice[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function publish(next: readonly Notice[]): void {
  notices = next;
  for (const listener of listeners) listener();
}

/** Shows a notice; answers its id, to take it away early. */
export function notify(notice: Omit<Notice, 'id' | 'timeoutMs'> & { timeoutMs?: number }): number {
  const id = nextId++;
  const shown: Notice = { ...notice, id, timeoutMs: notice.timeoutMs ?? NOTICE_MS };
  const kept = [...notices, shown];
  for (const old of kept.slice(0, Math.max(0, kept.length - MOST))) clearTimeout(timers.get(old.id));
  publish(kept.slice(-MOST));
  timers.set(
    id,
    setTimeout(() => dismiss(id), shown.timeoutMs),
  );
  return id;
}

export function dismiss(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  if (notices.some((notice) => notice.id === id)) publish(notices.filter((notice) => notice.id !== id));
}

export function subscribeNotices(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentNotices(): readonly Notice[] {
  return notices;
}

/** Takes every notice away at once (a test's end; nothing a person does). */
export function dismissAll(): void {
  for (const notice of notices) clearTimeout(timers.get(notice.id));
  timers.clear();
  publish([]);
}
