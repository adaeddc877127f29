// Running one action over many records: each record is checked first and refused here when its own
// screen would refuse it, then written one call at a time (a few at once), each transition under an
// idempotency key made from the run and the record, so that running the same selection again after a
// lost answer changes nothing twice.
import { exhaustiveSwitchError, type Model } from '@ninefold/model';
import {
  ApiError,
  type ApiRecord,
  type DataProvider,
  NetworkError,
  type PathValues,
} from '../data/data-provider';
import { errorMessage } from '../errors/ErrorNotice';
import { errorView } from '../errors/error-view';
import type { I18n } from '../i18n/I18nProvider';
import type { BulkAction } from './bulk-plan';

/** A selected record: its key (as the address writes it), its name in reports, and the record as listed. */
export interface BulkItem {
  id: string;
  name: string;
  record: ApiRecord;
}

export interface BulkRefusal {
  id: string;
  name: string;
  reason: string;
  /** The API was not reached or failed: running the same records again may succeed. */
  retry: boolean;
}

export interface BulkReport {
  done: string[];
  refused: BulkRefusal[];
}

/** How many calls are in flight at once: quick on a real API, gentle on a busy one. */
const AT_ONCE = 4;

export interface BulkRunOptions {
  model: Model;
  data: DataProvider;
  i18n: Pick<I18n, 't' | 'tn' | 'locale'>;
  entity: string;
  path?: PathValues;
  action: BulkAction;
  items: BulkItem[];
  /** Names this run: the same run key and record give the same idempotency key. */
  runKey: string;
  /** Why the record refuses the action before anything is sent, or undefined when it allows it. */
  refusal(record: ApiRecord): string | undefined;
  onProgress(finished: number): void;
}

/**
 * Takes the action on every item and says, for each, whether it was done or refused and why.
 *
 * @example
 * await runBulk({ ..., action: { kind: 'transition', machine, transition: cancel }, items, runKey: 'b-1' });
 * // { done: ['7', '9'], refused: [{ id: '8', name: 'ORD-000008', reason: 'Only an order in Draft …', retry: false }] }
 */
export async function runBulk(options: BulkRunOptions): Promise<BulkReport> {
  const report: BulkReport = { done: [], refused: [] };
  let finished = 0;
  let next = 0;
  const worker = async () => {
    while (next < options.items.length) {
      const item = options.items[next++] as BulkItem;
      const outcome = await runOne(options, item);
      if (outcome === undefined) report.done.push(item.id);
      else report.refused.push(outcome);
      finished++;
      options.onProgress(finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, options.items.length) }, worker));
  // In the selection's order, whatever order the calls came back in.
  const order = new Map(options.items.map((item, index) => [item.id, index]));
  report.done.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  report.refused.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return report;
}

async function runOne(options: BulkRunOptions, item: BulkItem): Promise<BulkRefusal | undefined> {
  const { data, entity, action } = options;
  const refused = options.refusal(item.record);
  if (refused !== undefined) return { id: item.id, name: item.name, reason: refused, retry: false };
  const path = options.path ? { path: options.path } : {};
  try {
    switch (action.kind) {
      case 'delete':
        await data.delete({ entity, id: item.id, ...path });
        return undefined;
      case 'transition':
        await data.transition({
          entity,
          id: item.id,
          transition: action.transition.name,
          idempotencyKey: `${options.runKey}-${item.id}`,
          ...path,
        });
        return undefined;
      default:
        return exhaustiveSwitchError(action);
    }
  } catch (error) {
    // A record deleted already, by this run's lost answer or by someone else, is what was asked for.
    if (action.kind === 'delete' && error instanceof ApiError && error.status === 404) return undefined;
    const view = errorView(options.model, error, entity);
    const retry =
      error instanceof NetworkError ||
      (error instanceof ApiError && (error.status >= 500 || error.status === 429));
    if (!(error instanceof ApiError || error instanceof NetworkError)) console.error(error);
    return { id: item.id, name: item.name, reason: errorMessage(view, options.i18n), retry };
  }
}
