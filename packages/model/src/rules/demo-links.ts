import { findEntity } from '../lookup';
import type { JsonValue, Model } from '../model';

/** A `user.<attribute>` a role's condition compares with a reference field of an entity. */
export interface DemoLink {
  attribute: string;
  /** The entity whose records the condition reads, and its reference field. */
  entity: string;
  field: string;
  /** The entity the reference points at, and its key field. */
  target: string;
  targetKey: string;
}

/**
 * The attributes a demo person of a role needs to see data of their own: each `user.<name>` that one of
 * the role's conditions compares with a reference (`record.customer == user.customerId`). The prototype
 * API (`serve --seed`) and the playground set each to the record the most records refer to, else the
 * first of the referenced entity, from what each holds.
 *
 * @example
 * ```ts
 * demoLinks(shop, 'customer');
 * // [{ attribute: 'customerId', entity: 'Order', field: 'customer', target: 'Customer', targetKey: 'id' }]
 * ```
 */
export function demoLinks(model: Model, role: string): DemoLink[] {
  if (!model.roles.shown) return [];
  const links: DemoLink[] = [];
  for (const grant of model.roles.grants) {
    if (grant.role !== role || grant.where === undefined) continue;
    const entity = findEntity(model, grant.entity);
    for (const [, field, attribute] of grant.where.matchAll(/record\.(\w+)\s*==\s*user\.(\w+)/g)) {
      const reference = entity?.fields.find((candidate) => candidate.name === field);
      if (!attribute || !field || !entity || reference?.kind !== 'reference') continue;
      if (links.some((link) => link.attribute === attribute)) continue;
      const target = findEntity(model, reference.entity);
      if (!target) continue;
      links.push({
        attribute,
        entity: entity.name,
        field,
        target: target.name,
        targetKey: target.key ?? 'id',
      });
    }
  }
  return links;
}

/**
 * The value of a reference field that the most records hold (the customer with the most orders), for a
 * demo person's attribute; undefined when none holds one.
 *
 * @example
 * ```ts
 * mostReferenced([{ customer: 2 }, { customer: 3 }, { customer: 3 }], 'customer'); // 3
 * ```
 */
export function mostReferenced(
  records: ReadonlyArray<Record<string, JsonValue>>,
  field: string,
): string | number | undefined {
  const counts = new Map<string | number, number>();
  for (const record of records) {
    const value = record[field];
    if (typeof value === 'string' || typeof value === 'number')
      counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  let best: string | number | undefined;
  for (const [value, count] of counts)
    if (best === undefined || count > (counts.get(best) ?? 0)) best = value;
  return best;
}
