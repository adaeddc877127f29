import { demoLinks, type JsonValue, type Model, mostReferenced, type Principal } from '@ninefold/model';
import type { ApiRecord } from '../data/data-provider';

/** The domain of demo users, as the prototype API's (RFC 2606: never somebody's real address). */
const DEMO_DOMAIN = 'demo.test';

/**
 * The demo person of a role, as `ninefold serve --seed` makes them: `owner@demo.test`, with each
 * `user.<name>` a condition of the role compares with a reference set to the record the most records
 * refer to (the customer with the most orders), so that the role has data of its own to see. Nobody
 * (`{}`) for no role, a role point 6 does not name, or its role for people not signed in.
 *
 * @example
 * ```ts
 * demoPrincipal(model, 'customer', records);
 * // { role: 'customer', user: { id: 'demo-customer', email: 'customer@demo.test', role: 'customer', customerId: 3 } }
 * ```
 */
export function demoPrincipal(
  model: Model,
  role: string | undefined,
  records: Readonly<Record<string, readonly ApiRecord[]>>,
): Principal {
  const named = model.roles.shown ? model.roles.roles.find((item) => item.name === role) : undefined;
  if (named === undefined || named.signedOut) return {};
  const { name } = named;
  const user: Record<string, JsonValue> = {
    ...demoAttributes(model, name, records),
    id: `demo-${name}`,
    email: `${name}@${DEMO_DOMAIN}`,
    role: name,
  };
  return { role: name, user };
}

function demoAttributes(
  model: Model,
  role: string,
  records: Readonly<Record<string, readonly ApiRecord[]>>,
): Record<string, JsonValue> {
  const attributes: Record<string, JsonValue> = {};
  for (const link of demoLinks(model, role)) {
    const key =
      mostReferenced((records[link.entity] ?? []).slice(0, 1000), link.field) ??
      records[link.target]?.[0]?.[link.targetKey];
    if (key !== undefined) attributes[link.attribute] = key;
  }
  return attributes;
}
