import { exhaustiveSwitchError } from '@ninefold/model';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ImportedDocument, ImportMessage, ImportRequest, ImportStage } from './protocol';

export type ImportState =
  | { kind: 'idle' }
  | { kind: 'working'; stage: ImportStage; loaded?: number; total?: number; started: number }
  | { kind: 'done'; result: ImportedDocument }
  /** `worker`: the background worker itself failed, not the document. */
  | { kind: 'failed'; message: string; cause: 'document' | 'worker' }
  | { kind: 'cancelled' };

/** Starts the worker that imports a document; tests replace it with one that runs in the page. */
export type WorkerFactory = () => Worker;

const defaultWorker: WorkerFactory = () =>
  new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'openapi-import' });

/**
 * Runs one import at a time in a Web Worker, so that a 13 MB document never freezes the page, and
 * follows its progress. Starting another import or leaving the page ends the running one.
 */
export function useImport(createWorker: WorkerFactory = defaultWorker) {
  const [state, setState] = useState<ImportState>({ kind: 'idle' });
  const worker = useRef<Worker | null>(null);

  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
  }, []);
  useEffect(() => stop, [stop]);

  const start = useCallback(
    (request: ImportRequest) => {
      stop();
      const started = performance.now();
      setState({ kind: 'working', stage: 'download', started });
      let current: Worker;
      try {
        current = createWorker();
      } catch (error) {
        setState({ kind: 'failed', message: reasonOf(error), cause: 'worker' });
        return;
      }
      worker.current = current;
      current.onmessage = (event: MessageEvent<ImportMessage>) => {
        if (worker.current !== current) return;
        const message = event.data;
        switch (message.kind) {
          case 'progress': {
            const { stage, loaded, total } = message;
            setState({
              kind: 'working',
              stage,
              started,
              ...(loaded === undefined ? {} : { loaded }),
              ...(total === undefined ? {} : { total }),
            });
            return;
          }
          case 'done':
            stop();
            setState({ kind: 'done', result: message.result });
            return;
          case 'failed':
            stop();
            setState({ kind: 'failed', message: message.message, cause: 'document' });
            return;
          default:
            return exhaustiveSwitchError(message);
        }
      };
      current.onerror = (event: ErrorEvent) => {
        if (worker.current !== current) return;
        event.preventDefault();
        stop();
        setState({ kind: 'failed', message: event.message || 'the worker stopped', cause: 'worker' });
      };
      current.postMessage(request);
    },
    [createWorker, stop],
  );

  const cancel = useCallback(() => {
    stop();
    setState({ kind: 'cancelled' });
  }, [stop]);

  return { state, start, cancel };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
