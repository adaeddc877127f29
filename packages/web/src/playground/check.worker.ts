import type { CheckAnswer, CheckRequest } from './check-protocol';
import { runCheck } from './run-check';

/** The worker's own global, typed narrowly so that the page's DOM types need no webworker library. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CheckRequest>) => void) | null;
  postMessage(message: CheckAnswer): void;
};

scope.onmessage = (event) => {
  void runCheck(event.data).then((answer) => scope.postMessage(answer));
};
