import {
  entityLabel,
  findEntity,
  type JsonValue,
  type Model,
  missingUpdateTarget,
  parseUpdate,
  type RecordReader,
  type StateMachine,
  updatedRecordRefusal,
  updateEnvironment,
  updateSteps,
} from '@ninefold/model';
import { refusal } from './tab-refusals';

// What the tab's API works out for its writes, apart from the calls themselves (tab-api.ts): the same
// steps as packages/server's record-helpers.ts and record-rules.ts, over records held in memory.

export interface OtherChange {
  entity: string;
  key: string;
  values: Record<string, JsonValue>;
}

/**
 * Point 4's updates of a transition, as the values each changed record will hold, or the server's 409
 * when one would name a record that does not exist or leave it invalid (stock below 0).
 */
export function otherChanges(
  model: Model,
  machine: StateMachine,
  step: StateMachine['transitions'][number],
  record: Record<string, JsonValue>,
  context: { now: Date; user?: Record<string, JsonValue> },
  reader: RecordReader,
): OtherChange[] {
  const env = updateEnvironment(model, machine.entity);
  const pending = new Map<string, Record<string, JsonValue>>();
  const out: OtherChange[] = [];
  for (const statement of step.updates ?? []) {
    const parsed = parseUpdate(statement);
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
      throw refusal(
        500,
        'EFFECT_FAILED',
        `A change of ${entityLabel(target)} could not be computed: ${steps.message}`,
      );
    }
    for (const { key, value } of steps.steps) {
      const id = `${target.name}/${String(key)}`;
      const before =
        pending.get(id) ?? (reader.lookup(target.name, key) as Record<string, JsonValue> | undefined);
      if (!before) throw refusal(409, 'UPDATE_REFUSED', missingUpdateTarget(step, target, key));
      const next = applied(update.op, before[update.field], value);
      const after = { ...before, [update.field]: next };
      const refused = updatedRecordRefusal(model, step, target, key, after, context.now);
      if (refused) throw refusal(409, 'UPDATE_REFUSED', refused);
      pending.set(id, after);
      const existing = out.find((change) => change.entity === target.name && change.key === String(key));
      if (existing) existing.values[update.field] = next;
      else out.push({ entity: target.name, key: String(key), values: { [update.field]: next } });
    }
  }
  return out;
}

/** `=`, `+=` or `-=`, as the store's `change` does in SQL (an empty number counts as 0). */
function applied(op: '=' | '+=' | '-=', old: JsonValue | undefined, value: JsonValue): JsonValue {
  if (op === '=') return value;
  const base = typeof old === 'number' ? old : 0;
  const by = typeof value === 'number' ? value : 0;
  return op === '-=' ? base - by : base + by;
}

/** The values a form sends, as JSON: a file chosen in the tab is kept by its name and size only. */
export function plain(values: Record<string, unknown>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (typeof Blob !== 'undefined' && value instanceof Blob) {
      out[name] = { name: 'name' in value ? String(value.name) : 'file', type: value.type, size: value.size };
    } else out[name] = value as JsonValue;
  }
  return out;
}
