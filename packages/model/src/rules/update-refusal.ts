import { entityLabel } from '../lookup';
import type { Entity, JsonValue, Model, Transition } from '../model';
import { validateRecord } from './validate';

// Why point 4's changes to other records refuse a transition, worded once for the prototype API
// (record-rules.ts, in SQL) and the playground's API in the tab (in memory). Both answer 409
// UPDATE_REFUSED with these messages.

/**
 * The message for a change that names a record which does not exist.
 *
 * @example
 * ```ts
 * missingUpdateTarget(place, product, 9); // '"Place order" changes Product 9, which does not exist.'
 * ```
 */
export function missingUpdateTarget(transition: Transition, target: Entity, key: JsonValue): string {
  return `"${transition.label ?? transition.name}" changes ${entityLabel(target)} ${String(key)}, which does not exist.`;
}

/**
 * The message when a changed record breaks its own constraints (stock below its minimum of 0), or
 * undefined when it is valid as it will be.
 *
 * @example
 * ```ts
 * updatedRecordRefusal(model, place, product, 3, { ...product3, stock: -1 }, now);
 * // '"Place order" would leave Product "Mooring line" invalid: Stock is at least 0.'
 * ```
 */
export function updatedRecordRefusal(
  model: Model,
  transition: Transition,
  target: Entity,
  key: JsonValue,
  after: Record<string, JsonValue>,
  now: Date,
): string | undefined {
  const checked = validateRecord(model, target.name, {}, { mode: 'update', old: after, now });
  if (checked.ok) return undefined;
  const display = target.display ? after[target.display] : undefined;
  const which =
    typeof display === 'string' || typeof display === 'number' ? ` "${display}"` : ` ${String(key)}`;
  const reason = checked.errors.map((error) => error.message).join(' ');
  return `"${transition.label ?? transition.name}" would leave ${entityLabel(target)}${which} invalid: ${reason}`;
}
