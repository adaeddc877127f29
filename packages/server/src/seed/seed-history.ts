import { type Model, type Transition, transitionAccess } from '@ninefold/model';
import type { HistoryEntry, Store, StoredRecord, StoredUser } from '../store/store';
import { DemoTurns, storedRecords } from './demo-turns';
import { statePlans } from './state-plan';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Gives each seeded record in a later state the history that leads there: each step taken by a demo user
 * whose role may take it (the clerk places an order, the warehouse ships it), and at a time that fits the
 * record's own dates (a step that sets `placedOn: now` was taken on the record's `placedOn`). Run after
 * the demo users are made, which are made after the records. Without demo users (point 6 not shown) a
 * step was taken without sign-in, which is then the truth.
 */
export async function seedHistories(
  store: Store,
  model: Model,
  users: StoredUser[],
  now: number = Date.now(),
): Promise<void> {
  if (!model.entities.shown) return;
  for (const entity of model.entities.items) {
    const plans = entity.embedded ? [] : statePlans(model, entity);
    if (plans.length === 0) continue;
    const key = entity.key ?? 'id';
    const turns = new DemoTurns(users);
    for await (const record of storedRecords(store, entity.name)) {
      const id = record[key];
      if (typeof id !== 'string' && typeof id !== 'number') continue;
      for (const { machine, paths } of plans) {
        const path = paths.get(String(record[machine.field])) ?? [];
        if (path.length === 0) continue;
        const times = stepTimes(path, record, now);
        const entries: HistoryEntry[] = path.map((step, index) => {
          const from = index === 0 ? machine.initial : (path[index - 1]?.to ?? machine.initial);
          // Who may take the step on the record as it was then, in the state it left.
          const then = { ...record, [machine.field]: from };
          const user = turns.next(
            (principal) => transitionAccess(model, principal, machine, step, then).allowed,
          );
          return {
            transition: step.name,
            from,
            to: step.to,
            by: user ? { id: user.id, email: user.email } : null,
            at: new Date(times[index] ?? now).toISOString(),
          };
        });
        await store.addHistory(entity.name, id, entries);
      }
    }
  }
}

/**
 * When each step was taken: on the date the record holds for a step that set it to `now` or `today`, the
 * steps between a day apart, and the first steps the days before; all in the past, in order. A record
 * with no such date gets steps a day apart, the last one yesterday.
 */
export function stepTimes(path: Transition[], record: StoredRecord, now: number): number[] {
  const anchors = path.map((step) => anchorOf(step, record, now));
  const first = anchors.findIndex((anchor) => anchor !== undefined);
  if (first === -1) return path.map((_, index) => now - (path.length - index) * DAY_MS);
  const times: number[] = [];
  times[first] = anchors[first] as number;
  for (let index = first - 1; index >= 0; index -= 1) times[index] = (times[index + 1] as number) - DAY_MS;
  for (let index = first + 1; index < path.length; index += 1) {
    const previous = times[index - 1] as number;
    const anchor = anchors[index];
    times[index] = anchor !== undefined && anchor > previous ? anchor : Math.min(previous + DAY_MS, now);
    if ((times[index] as number) <= previous) times[index] = previous + 1;
  }
  return times;
}

/** The time a record's own date says a step was taken, when the step set that date to the clock. */
function anchorOf(step: Transition, record: StoredRecord, now: number): number | undefined {
  for (const assignment of step.set) {
    const expression = assignment.expression.trim();
    if (expression !== 'now' && expression !== 'today') continue;
    const value = record[assignment.field];
    if (typeof value !== 'string') continue;
    // A date alone reads as that day's morning, not its midnight.
    const time = Date.parse(value) + (/^\d{4}-\d{2}-\d{2}$/.test(value) ? 9 * HOUR_MS : 0);
    if (Number.isFinite(time) && time <= now) return time;
  }
  return undefined;
}
