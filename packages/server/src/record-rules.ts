import {
  createdValuesReadRecords,
  type Entity,
  entityLabel,
  findEntity,
  formatNumber,
  hasRecordRules,
  type JsonValue,
  type Model,
  missingUpdateTarget,
  numberedFields,
  parseUpdate,
  planAcrossRecords,
  type RecordReader,
  type StateMachine,
  type Transition,
  updatedRecordRefusal,
  updateEnvironment,
  updateSteps,
} from '@ninefold/model';
import { applied, ProblemError, problem } from './problem';
import type { RecordKey, Store, StoredRecord } from './store/store';

// What a write does inside its own transaction before the row is written: the rules of point 5 that
// read other records (a limit of open tickets, a credit limit, stock), and the numbers of point 3. Both
// must see the database as the write will leave it, so they run in the transaction and never in Node
// over loaded records.

export interface WriteScope {
  mode: 'create' | 'update';
  /** The record as it will be stored (defaults and derived values included). */
  record: StoredRecord;
  old?: StoredRecord;
  user?: Record<string, unknown>;
  now: Date;
}

/** Whether a write to this entity needs its own transaction for rules across records or numbering. */
export function needsTransaction(model: Model, entity: Entity, mode: 'create' | 'update'): boolean {
  return (
    hasRecordRules(model, entity.name, mode) ||
    (mode === 'create' && (numberedFields(entity).length > 0 || createdValuesReadRecords(model, entity.name)))
  );
}

/**
 * The core's `planAcrossRecords` where the write is made (refusing as any refused plan) and, on create,
 * a number for each numbered field. `tx` must be a transaction: the rules' locks and the numbers are
 * held and given back with it.
 */
export async function beforeWrite(
  model: Model,
  tx: Store,
  entity: Entity,
  scope: WriteScope,
): Promise<StoredRecord> {
  const reads = hasRecordRules(model, entity.name, scope.mode);
  const sets = scope.mode === 'create' && createdValuesReadRecords(model, entity.name);
  // Writers of this entity take turns from here to the commit: two creates cannot both count 2 of 3.
  if (reads || sets) await tx.lockForRules([entity.name]);
  const { record } = applied(
    await planAcrossRecords(
      model,
      entity,
      { mode: scope.mode, record: scope.record, ...(scope.old ? { old: scope.old } : {}) },
      {
        principal: scope.user ? { user: scope.user as Record<string, JsonValue> } : {},
        now: scope.now,
        reader: readerOf(tx),
      },
    ),
  );
  return scope.mode === 'create' ? withNumbers(tx, entity, record) : record;
}

/** The record with a number in each numbered field, taken in `tx` (the seed numbers its records too). */
export async function withNumbers(tx: Store, entity: Entity, record: StoredRecord): Promise<StoredRecord> {
  const fields = numberedFields(entity);
  if (fields.length === 0) return record;
  const out = { ...record };
  for (const { field, pattern } of fields) {
    out[field] = formatNumber(pattern, await tx.nextNumber(entity.name, field));
  }
  return out;
}

/** Reads for rules through the transaction's store: SQL aggregates and reads by key. */
export function readerOf(store: Store): RecordReader {
  return {
    aggregate: (query) => store.aggregate(query),
    lookup: async (entity, key) => (isKey(key) ? store.get(entity, key) : undefined),
    existing: (entity, keys) => store.existing(entity, [...keys]),
  };
}

function isKey(key: JsonValue): key is RecordKey {
  return typeof key === 'string' || (typeof key === 'number' && Number.isFinite(key));
}

/**
 * The changes a transition makes to other records (point 4's updates), in `tx`, from the record as it
 * was before the transition. A change that leaves a record breaking its own constraints (stock below
 * its minimum of 0) refuses the whole transition, with the record and the constraint named.
 */
/** The entity a statement of point 4's updates changes, if it reads as one. */
export function updatedEntity(statement: string): string | undefined {
  const parsed = parseUpdate(statement);
  return parsed.ok ? parsed.update.entity : undefined;
}

export async function applyUpdates(
  model: Model,
  tx: Store,
  machine: StateMachine,
  step: Transition,
  record: StoredRecord,
  context: { now: Date; user?: Record<string, unknown> },
): Promise<void> {
  const env = updateEnvironment(model, machine.entity);
  for (const statement of step.updates ?? []) {
    const parsed = parseUpdate(statement);
    // `check` refuses a statement that does not read; a model that skipped it changes nothing here.
    if (!parsed.ok) continue;
    const { update } = parsed;
    const target = findEntity(model, update.entity);
    if (!target) continue;
    const steps = updateSteps(update, env, {
      record,
      now: context.now,
      ...(context.user ? { user: context.user } : {}),
    });
    if (!steps.ok) {
      throw new ProblemError(
        problem(
          500,
          'EFFECT_FAILED',
          `A change of ${entityLabel(target)} could not be computed: ${steps.message}`,
        ),
      );
    }
    for (const { key, value } of steps.steps) {
      const after = isKey(key)
        ? await tx.change(target.name, key, update.field, update.op, value)
        : undefined;
      if (!after) {
        throw new ProblemError(problem(409, 'UPDATE_REFUSED', missingUpdateTarget(step, target, key)));
      }
      const refused = updatedRecordRefusal(model, step, target, key, after, context.now);
      if (refused) throw new ProblemError(problem(409, 'UPDATE_REFUSED', refused));
    }
  }
}
