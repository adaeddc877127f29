import type { ImportMessage, ImportRequest } from './protocol';
import { runImport } from './run-import';

/** The worker's own global, typed narrowly so that the page's DOM types need no webworker library. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ImportRequest>) => void) | null;
  postMessage(message: ImportMessage): void;
};

// One import per worker: the page starts a new worker for the next document and terminates this one
// to cancel, which is the only way to stop a synchronous import midway.
scope.onmessage = (event) => {
  void runImport(event.data, (message) => scope.postMessage(message));
};
