import { dismiss, notify } from './feedback-store';

/** How long a delete waits for Undo before it is sent. */
export const DELETE_DELAY_MS = 5_000;

export interface DeleteLater {
  /** Sends the delete; its failure is said by `failed`. */
  run(): Promise<void>;
  /** The notice while it waits, its Undo button, and what is said after each ending. */
  waiting: string;
  undo: string;
  kept: string;
  done: string;
  failed(error: unknown): string;
  /** After the delete went through (lists to read again). */
  onDeleted?(): void;
}

/**
 * A delete sent only after a delay that Undo cuts short. It lives in this page only: a tab closed or
 * reloaded meanwhile never sends it (nothing is queued anywhere else), so the record stays.
 */
export function deleteLater(request: DeleteLater, delayMs = DELETE_DELAY_MS): void {
  let undone = false;
  const timer = setTimeout(() => {
    dismiss(notice);
    if (undone) return;
    request.run().then(
      () => {
        request.onDeleted?.();
        notify({ message: request.done, tone: 'done' });
      },
      (error: unknown) => notify({ message: request.failed(error), tone: 'failed', timeoutMs: 12_000 }),
    );
  }, delayMs);
  const notice = notify({
    message: request.waiting,
    tone: 'done',
    timeoutMs: delayMs + 1_000,
    action: {
      label: request.undo,
      run: () => {
        undone = true;
        clearTimeout(timer);
        dismiss(notice);
        notify({ message: request.kept, tone: 'done' });
      },
    },
  });
}
