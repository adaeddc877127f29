import type { Entity, Field } from '@ninefold/model';

/**
 * The record's totals of each list: its derived fields (point 3) whose expression reads the list, such
 * as an order's total of its lines. They are shown under the list's table rather than apart from it;
 * nothing is summed that the specification does not sum.
 *
 * @example
 * ```ts
 * listTotals(order); // Map { 'lines' => [total] }
 * ```
 */
export function listTotals(entity: Entity | undefined, shown: readonly Field[]): Map<string, Field[]> {
  const totals = new Map<string, Field[]>();
  if (!entity) return totals;
  const lists = shown.filter((field) => field.kind === 'list');
  for (const derived of shown) {
    if (derived.derived === undefined || !NUMERIC.has(derived.kind)) continue;
    // The expression names the list as `record.lines`; a name is an identifier, so this cannot match
    // inside another name (`record.linesCount`).
    const list = lists.find((candidate) =>
      new RegExp(`\\brecord\\.${candidate.name}\\b`).test(derived.derived ?? ''),
    );
    if (!list) continue;
    totals.set(list.name, [...(totals.get(list.name) ?? []), derived]);
  }
  return totals;
}

const NUMERIC = new Set<Field['kind']>(['number', 'integer', 'money']);
