import type { Field, Model } from '@ninefold/model';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { FormValues } from '../form/form-values';
import type { Draft, DraftAddress, DraftStore, WriteOutcome } from './draft-store';
import { keptValues } from './draft-values';

/** How long typing may pause before the values are written: often enough, without a write per key. */
export const DRAFT_DELAY_MS = 400;

export interface DraftKeeperOptions {
  model: Model;
  store: DraftStore;
  address: DraftAddress;
  methods: UseFormReturn<FormValues>;
  /** The fields the form writes. */
  fields: readonly Field[];
  /** The values the form started from: a draft that equals them holds nothing worth offering back. */
  baseline: () => FormValues;
  /** What else the draft carries (the record it is based on, the idempotency key, who typed it). */
  extra: () => Pick<Draft, 'base' | 'basedOn' | 'idempotencyKey' | 'owner'>;
  delayMs?: number;
}

export interface DraftKeeper {
  /**
   * Writes the values now. `force` keeps a draft even if it equals the starting values: a create about
   * to be sent must leave its idempotency key behind in case the tab dies before the answer comes.
   */
  flush(options?: { force?: boolean }): void;
  /** Forgets the draft (after a save, or a Cancel) and writes nothing more. */
  clear(): void;
  /** How the last write went: a draft too large to keep, or a storage that is unavailable, is told. */
  outcome: WriteOutcome | undefined;
}

/**
 * Keeps a form's values in the browser as the person types (after a pause), when the tab is hidden or
 * closed, and when the form goes away, so that a reload, a crash, or leaving for a sign-in loses nothing.
 */
export function useDraftKeeper(options: DraftKeeperOptions): DraftKeeper {
  const latest = useRef(options);
  latest.current = options;
  const [outcome, setOutcome] = useState<WriteOutcome | undefined>();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopped = useRef(false);
  const dirty = useRef(false);

  const flush = useCallback((flags: { force?: boolean } = {}) => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
    if (stopped.current || !(dirty.current || flags.force)) return;
    dirty.current = false;
    const { model, store, address, methods, fields, baseline, extra } = latest.current;
    const kept = keptValues(model, fields, methods.getValues());
    const start = keptValues(model, fields, baseline());
    const unchanged = kept.files.length === 0 && JSON.stringify(kept.values) === JSON.stringify(start.values);
    if (unchanged && !flags.force) {
      store.remove(address);
      setOutcome(undefined);
      return;
    }
    const written = store.write(address, { savedAt: Date.now(), ...kept, ...extra() });
    setOutcome(written === 'kept' ? undefined : written);
  }, []);

  const clear = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
    stopped.current = true;
    latest.current.store.remove(latest.current.address);
  }, []);

  useEffect(() => {
    const subscription = options.methods.watch(() => {
      dirty.current = true;
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = setTimeout(() => flush(), latest.current.delayMs ?? DRAFT_DELAY_MS);
    });
    // A tab that is hidden may be discarded or closed without another chance to write.
    const onHide = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    const onPageHide = () => flush();
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      subscription.unsubscribe();
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onPageHide);
      flush();
    };
  }, [options.methods, flush]);

  return { flush, clear, outcome };
}
