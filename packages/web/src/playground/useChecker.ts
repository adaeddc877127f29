import type { Coverage, Issue, Model, SpecFormat } from '@ninefold/model';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { ApiRecord } from '../data/data-provider';
import type { CheckAnswer, CheckRequest } from './check-protocol';

/** Where the checking of the text stands, and the last model without errors. */
export interface CheckState {
  /** Issues of the latest text checked. */
  issues: Issue[];
  ok: boolean;
  coverage?: Coverage;
  /** The model of the last text that had no errors: the preview keeps running on it while the text is broken. */
  model?: Model;
  /** Seeded records for `model`'s entities. */
  records?: Record<string, ApiRecord[]>;
  /** How long the latest check took in the worker. */
  millis?: number;
  /** A check is running or waiting. */
  busy: boolean;
  /** The worker itself failed (it could not start, or stopped on a bug). */
  failure?: string;
}

/** A model this large (as JSON) is swapped into the preview as a transition. */
const LARGE_MODEL_JSON = 1_000_000;

export type ImportAnswer = Extract<CheckAnswer, { kind: 'imported' }>;
export type ConvertAnswer = Extract<CheckAnswer, { kind: 'converted' }>;

/**
 * Checks the text in a worker as it changes: one check at a time, and while one runs only the newest
 * text waits, so that a fast typist never queues stale work. Answers to an older text are dropped.
 */
export function useChecker(text: string, format: SpecFormat) {
  const [state, setState] = useState<CheckState>({ issues: [], ok: true, busy: true });
  const worker = useRef<Worker | null>(null);
  const next = useRef(0);
  const running = useRef<number | undefined>(undefined);
  const waiting = useRef<CheckRequest | undefined>(undefined);
  /** Requests other than checks (an import, a conversion), answered by id. */
  const asked = useRef(new Map<number, (answer: CheckAnswer) => void>());
  const latest = useRef(0);
  const held = useRef<string[]>([]);

  const send = useCallback((request: CheckRequest) => {
    const current = worker.current;
    if (!current) return;
    if (request.kind === 'check') {
      if (running.current !== undefined) {
        waiting.current = request;
        return;
      }
      running.current = request.id;
    }
    current.postMessage(request);
  }, []);

  useEffect(() => {
    let created: Worker;
    try {
      created = new Worker(new URL('./check.worker.ts', import.meta.url), {
        type: 'module',
        name: 'spec-check',
      });
    } catch (error) {
      setState((old) => ({ ...old, busy: false, failure: `The checker could not start: ${String(error)}` }));
      return;
    }
    worker.current = created;
    created.onmessage = (event: MessageEvent<CheckAnswer>) => {
      const answer = event.data;
      const waiter = asked.current.get(answer.id);
      if (waiter) {
        asked.current.delete(answer.id);
        waiter(answer);
        return;
      }
      running.current = undefined;
      const queued = waiting.current;
      waiting.current = undefined;
      if (queued) send(queued);
      if (answer.id !== latest.current) return;
      if (answer.kind !== 'checked') {
        setState((old) => ({ ...old, busy: false, failure: answerMessage(answer) }));
        return;
      }
      // The worker's own time rides along, so that a measurement can tell it from the way back and the render.
      performance.mark('ninefold:playground-checked', { detail: { workerMs: answer.millis } });
      // A large model's client is rendered as a transition, in slices, as main.tsx renders one: GitHub's
      // 631 screens in one task held the page for 100 to 200 ms.
      const large = (answer.modelJson?.length ?? 0) > LARGE_MODEL_JSON;
      const update = large ? startTransition : (apply: () => void) => apply();
      update(() =>
        setState((old) => {
          const good = answer.ok && answer.modelJson !== undefined;
          const model = good ? (JSON.parse(answer.modelJson as string) as Model) : old.model;
          // Records come only for entities the page had none for: added to those it has.
          const records =
            good && answer.recordsJson !== undefined
              ? { ...old.records, ...(JSON.parse(answer.recordsJson) as Record<string, ApiRecord[]>) }
              : old.records;
          if (records) held.current = Object.keys(records);
          return {
            issues: answer.issues,
            ok: answer.ok,
            ...(answer.coverage ? { coverage: answer.coverage } : {}),
            ...(model ? { model } : {}),
            ...(records ? { records } : {}),
            millis: answer.millis,
            busy: queued !== undefined,
          };
        }),
      );
    };
    created.onerror = (event) => {
      event.preventDefault();
      running.current = undefined;
      setState((old) => ({
        ...old,
        busy: false,
        failure: `The checker stopped: ${event.message || 'unknown error'}`,
      }));
    };
    return () => {
      created.terminate();
      worker.current = null;
    };
  }, [send]);

  /** The text last sent to be checked: the page's state catching up with a text already sent sends nothing. */
  const sentText = useRef<{ text: string; format: SpecFormat } | undefined>(undefined);
  /**
   * Asks for a check of this text now. The editor calls it on each key, before the page's own state has
   * the text (that follows as a transition), so that the preview does not wait on the page's render.
   */
  const check = useCallback(
    (text: string, format: SpecFormat) => {
      if (sentText.current?.text === text && sentText.current.format === format) return;
      sentText.current = { text, format };
      next.current += 1;
      latest.current = next.current;
      startTransition(() => setState((old) => (old.busy ? old : { ...old, busy: true })));
      send({ kind: 'check', id: next.current, text, format, held: held.current });
    },
    [send],
  );

  useEffect(() => {
    check(text, format);
  }, [text, format, check]);

  /** The text in the other format, written in the worker from its model. */
  const convert = useCallback(
    (source: string, from: SpecFormat, to: 'markdown' | 'yaml') =>
      new Promise<ConvertAnswer | { kind: 'failed'; message: string }>((resolve) => {
        next.current += 1;
        asked.current.set(next.current, (answer) =>
          resolve(answer.kind === 'converted' ? answer : { kind: 'failed', message: answerMessage(answer) }),
        );
        send({ kind: 'convert', id: next.current, text: source, format: from, to });
      }),
    [send],
  );

  /** Imports an OpenAPI document in the worker: its nine-point YAML and report. */
  const importOpenApi = useCallback(
    (file: Blob, name: string) =>
      new Promise<ImportAnswer | { kind: 'failed'; message: string }>((resolve) => {
        next.current += 1;
        asked.current.set(next.current, (answer) =>
          resolve(answer.kind === 'imported' ? answer : { kind: 'failed', message: answerMessage(answer) }),
        );
        send({ kind: 'import', id: next.current, file, name });
      }),
    [send],
  );

  return { ...state, check, importOpenApi, convert };
}

function answerMessage(answer: CheckAnswer): string {
  return answer.kind === 'failed' ? answer.message : 'The checker answered something unexpected.';
}
