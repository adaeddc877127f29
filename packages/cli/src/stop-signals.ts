/** The signals that stop a long-running command (serve, dev). */
export interface StopSignals {
  /** The first signal received so far, if any. */
  readonly received: string | undefined;
  /** Resolves with the first signal, at once if one came already. */
  wait(): Promise<string>;
  /** Stops listening; call it when the command ends. */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM. Commands install this before they start anything: a Ctrl-C that arrives
 * while the runtime builds or the server starts, or just as the URL is printed, must still close the
 * database instead of killing the process.
 */
export function listenForStop(signals: NodeJS.EventEmitter): StopSignals {
  let received: string | undefined;
  const waiting: Array<(signal: string) => void> = [];
  const handlers = ['SIGINT', 'SIGTERM'].map((name) => {
    const handler = () => {
      received ??= name;
      for (const wake of waiting.splice(0)) wake(received);
    };
    signals.on(name, handler);
    return { name, handler };
  });
  return {
    get received() {
      return received;
    },
    wait: () =>
      new Promise((resolve) => {
        if (received !== undefined) resolve(received);
        else waiting.push(resolve);
      }),
    dispose: () => {
      for (const { name, handler } of handlers) signals.off(name, handler);
    },
  };
}
