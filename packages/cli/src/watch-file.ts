import { type FSWatcher, watchFile as pollFile, unwatchFile, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface FileWatcher {
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last event before `onChange` runs: one save is often several events. */
  debounceMs?: number;
  /** The polling interval of the fallback for file systems that send no events (network, some VMs). */
  pollMs?: number;
}

/**
 * Calls `onChange` after a file changes. It watches the directory rather than the file, because many
 * editors save by writing a new file and renaming it over the old one, which ends a watch on the file
 * itself; and it polls slowly as well, for file systems that send no events. `onChange` may run for a
 * save that changed nothing, or twice for one change: compare the content.
 */
export function watchFile(file: string, onChange: () => void, options: WatchOptions = {}): FileWatcher {
  const debounceMs = options.debounceMs ?? 100;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  };
  const name = basename(file);
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed === null || changed === name) schedule();
    });
    // A watch can fail later (the directory removed); the polling below still notices the file.
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  const poll = () => schedule();
  pollFile(file, { interval: options.pollMs ?? 1000, persistent: false }, poll);
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
      unwatchFile(file, poll);
    },
  };
}
