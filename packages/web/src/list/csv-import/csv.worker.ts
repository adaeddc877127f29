import { type ReadChoices, readCsv } from './read-csv';

/** The worker's own global, typed narrowly so that the page's DOM types need no webworker library. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ file: File | Blob; choices: ReadChoices }>) => void) | null;
  postMessage(message: unknown): void;
};

// Parsing a file of 100,000 rows takes seconds: here, the page stays responsive meanwhile.
scope.onmessage = async (event) => {
  try {
    scope.postMessage(readCsv(new Uint8Array(await event.data.file.arrayBuffer()), event.data.choices));
  } catch (error) {
    scope.postMessage({ ok: false, message: `The file could not be read: ${String(error)}` });
  }
};
