import type { Field } from '@ninefold/model';

/** Fields of one section (point 3's `group`), or the fields of none (`name` undefined). */
export interface FieldGroup<T> {
  name: string | undefined;
  items: T[];
}

/**
 * Items (fields, or form entries holding one) gathered by their field's group, in the order each group
 * first appears; the fields of no group are one more group, where the first of them appears.
 *
 * @example
 * ```ts
 * fieldGroups([name, email, credit], (field) => field).map((group) => group.name);
 * // [undefined, 'Contact', 'Account']
 * ```
 */
export function fieldGroups<T>(items: readonly T[], fieldOf: (item: T) => Field): Array<FieldGroup<T>> {
  const groups = new Map<string | undefined, FieldGroup<T>>();
  for (const item of items) {
    const name = fieldOf(item).group?.trim() || undefined;
    let group = groups.get(name);
    if (!group) {
      group = { name, items: [] };
      groups.set(name, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}
