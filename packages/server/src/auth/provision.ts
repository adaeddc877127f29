import { findEntity, type JsonValue, type Model } from '@ninefold/spec';
import type { Store } from '../store/store';
import { hashPassword } from './passwords';
import { addUser, apiKeyHash, generateSecret, type UserRequest } from './users';

export interface ProvisionOptions {
  /** Users named with `--user`: created when missing, kept as they are when they exist. */
  users: UserRequest[];
  /** With `--seed`: one demo user per role, given a new password at every start. */
  demo: boolean;
}

/** What the person starting the server needs to know to sign in: shown once, on the terminal. */
export interface ProvisionedUser {
  email: string;
  role: string;
  /** The new password or API key; absent for a user who existed already (its secret is unchanged). */
  secret?: string;
  demo: boolean;
}

export type ProvisionResult =
  | { ok: true; secretKind: 'password' | 'api-key' | 'token'; users: ProvisionedUser[] }
  | { ok: false; message: string };

/** The domain of demo users: reserved for documentation (RFC 2606), so never somebody's real address. */
export const DEMO_DOMAIN = 'demo.test';

/**
 * Creates the users `--user` names, and with `--seed` a demo user for each role of point 6
 * (`owner@demo.test`, …), for the sign-in kinds whose users the prototype API keeps itself: password,
 * basic and API key. A demo user whose condition reads `user.<name>` compared with a reference
 * (`record.customer == user.customerId`) is linked to the first record of that entity, so that the demo
 * shows their part of the data.
 *
 * @example
 * ```ts
 * const result = await provisionUsers(store, model, { users: [], demo: true });
 * // { ok: true, secretKind: 'password', users: [{ email: 'owner@demo.test', role: 'owner', secret: '…', demo: true }, …] }
 * ```
 */
export async function provisionUsers(
  store: Store,
  model: Model,
  options: ProvisionOptions,
): Promise<ProvisionResult> {
  const kind = model.roles.shown ? model.roles.signIn.kind : 'none';
  if (kind !== 'password' && kind !== 'basic' && kind !== 'api-key' && kind !== 'token') {
    if (options.users.length === 0) return { ok: true, secretKind: 'password', users: [] };
    return {
      ok: false,
      message:
        kind === 'none'
          ? 'Point 6 names no sign-in, so the prototype API keeps no users: --user has nothing to do.'
          : `Point 6 signs in with ${kind}: users come from that provider, not from --user.`,
    };
  }
  const secretKind = kind === 'api-key' || kind === 'token' ? kind : ('password' as const);
  const made: ProvisionedUser[] = [];
  for (const request of options.users) {
    const added = await addUser(store, request);
    made.push(
      added.ok
        ? { email: added.user.email, role: added.user.role, secret: secretOf(added), demo: false }
        : { email: request.email.toLowerCase(), role: request.role, demo: false },
    );
  }
  if (options.demo && model.roles.shown) {
    // One secret for every demo user of this start: there is one thing to remember.
    const secret = generateSecret();
    const passwordHash = await hashPassword(secret);
    for (const role of model.roles.roles) {
      const email = `${role.name}@${DEMO_DOMAIN}`;
      // API keys are unique per user: each demo user's key is the start's secret with its role.
      const apiKey = `${role.name}.${secret}`;
      const existing = await store.findUser({ email });
      if (existing) {
        await store.setUserSecrets(existing.id, { passwordHash, apiKeyHash: apiKeyHash(apiKey) });
      } else {
        const attributes = await demoAttributes(store, model, role.name);
        const added = await addUser(
          store,
          { email, role: role.name, attributes },
          { password: secret, apiKey },
        );
        if (!added.ok) continue;
      }
      made.push({ email, role: role.name, secret: secretKind === 'password' ? secret : apiKey, demo: true });
    }
  }
  return { ok: true, secretKind, users: made };

  function secretOf(added: { password: string; apiKey: string }): string {
    return secretKind === 'password' ? added.password : added.apiKey;
  }
}

/**
 * `user.<name>` attributes a role's conditions compare with a reference field, set to the record the
 * most records refer to (the customer with the most orders), else the first of the referenced entity:
 * the demo user then has data of their own to see.
 */
async function demoAttributes(store: Store, model: Model, role: string): Promise<Record<string, JsonValue>> {
  const attributes: Record<string, JsonValue> = {};
  if (!model.roles.shown) return attributes;
  for (const grant of model.roles.grants) {
    if (grant.role !== role || grant.where === undefined) continue;
    const entity = findEntity(model, grant.entity);
    for (const [, field, name] of grant.where.matchAll(/record\.(\w+)\s*==\s*user\.(\w+)/g)) {
      const reference = entity?.fields.find((candidate) => candidate.name === field);
      if (!name || reference?.kind !== 'reference' || name in attributes) continue;
      const target = findEntity(model, reference.entity);
      if (!target || !entity) continue;
      const key =
        (await mostReferenced(store, entity.name, field as string)) ??
        (await store.list(target.name, { filters: [], sort: [], limit: 1, withTotal: false })).items[0]?.[
          target.key ?? 'id'
        ];
      if (key !== undefined) attributes[name] = key;
    }
  }
  return attributes;
}

/** The value of a reference field that the most of the first thousand records hold. */
async function mostReferenced(store: Store, entity: string, field: string): Promise<JsonValue | undefined> {
  const page = await store.list(entity, { filters: [], sort: [], limit: 1000, withTotal: false });
  const counts = new Map<string | number, number>();
  for (const record of page.items) {
    const value = record[field];
    if (typeof value === 'string' || typeof value === 'number')
      counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  let best: string | number | undefined;
  for (const [value, count] of counts)
    if (best === undefined || count > (counts.get(best) ?? 0)) best = value;
  return best;
}
