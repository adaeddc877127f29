import { demoLinks, type JsonValue, type Model, mostReferenced, signInRoles } from '@ninefold/model';
import type { Store, StoredUser } from '../store/store';
import { USERS_TABLE } from '../store/table-plan';
import { type DemoPasswordFile, readDemoPassword, writeDemoPassword } from './demo-password';
import { hashPassword, verifyPassword } from './passwords';
import { addUser, apiKeyHash, generateSecret, type UserRequest } from './users';

export interface ProvisionOptions {
  /** Users named with `--user`: created when missing, kept as they are when they exist. */
  users: UserRequest[];
  /** With `--seed`: one demo user per role, made when missing and never changed after. */
  demo: boolean;
  /** The demo users' password when they are made (`NINEFOLD_DEMO_PASSWORD`); a new one otherwise. */
  demoPassword?: string;
  /** Where a new demo password is kept for later starts, readable by its owner only. */
  demoPasswordFile?: string;
}

/** What the person starting the server needs to know to sign in: shown once, on the terminal. */
export interface ProvisionedUser {
  email: string;
  role: string;
  /**
   * The password or API key: a new user's, or a demo user's that this start could confirm (from
   * `demoPassword` or the file); absent for a user who existed already otherwise (it is unchanged).
   */
  secret?: string;
  demo: boolean;
  /** For demo users: whether they were made now, and where their secret was learnt. */
  made?: boolean;
  secretFrom?: 'new' | 'environment' | 'file';
}

export type ProvisionResult =
  | {
      ok: true;
      secretKind: 'password' | 'api-key' | 'token';
      users: ProvisionedUser[];
      /** Where the demo password is kept, when it is. */
      demoPasswordFile?: string;
      /** A `demoPassword` given that the existing demo users do not have (they were left unchanged). */
      demoPasswordIgnored?: boolean;
    }
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
  if (!options.demo || !model.roles.shown) return { ok: true, secretKind, users: made };
  // The users table is made (and watched by the write listener) outside the transaction, where it lasts.
  await store.countUsers();
  // Two nodes starting together take turns, so that they agree on one password.
  return store.transaction(async (tx) => {
    await tx.lockForRules([USERS_TABLE]);
    const demo = await provisionDemo(tx, model, secretKind, options);
    return { ok: true as const, secretKind, ...demo, users: [...made, ...demo.users] };
  });

  function secretOf(added: { password: string; apiKey: string }): string {
    return secretKind === 'password' ? added.password : added.apiKey;
  }
}

/**
 * One demo user per role, made when missing with one password for all (an API key per role built from
 * it), and never changed afterwards: a second node, or a restart, must not sign anybody out. The
 * password is shown when it is known: new, given in the environment, or read from the owner's file.
 */
async function provisionDemo(
  store: Store,
  model: Model,
  secretKind: 'password' | 'api-key' | 'token',
  options: ProvisionOptions,
): Promise<{ users: ProvisionedUser[]; demoPasswordFile?: string; demoPasswordIgnored?: boolean }> {
  if (!model.roles.shown) return { users: [] };
  const roles = signInRoles(model);
  const existing = new Map<string, StoredUser>();
  for (const role of roles) {
    const found = await store.findUser({ email: `${role}@${DEMO_DOMAIN}` });
    if (found) existing.set(role, found);
  }
  const first = [...existing.values()][0];
  const holds = async (secret: string | undefined) =>
    secret !== undefined && (first === undefined || (await demoSecretHolds(first, secret, secretKind)));
  const fromFile = options.demoPasswordFile ? await readDemoPassword(options.demoPasswordFile) : undefined;
  let secret: string | undefined;
  let from: ProvisionedUser['secretFrom'];
  if (await holds(options.demoPassword)) [secret, from] = [options.demoPassword, 'environment'];
  else if (await holds(fromFile)) [secret, from] = [fromFile, 'file'];
  else if (first === undefined) [secret, from] = [generateSecret(), 'new'];
  const file: DemoPasswordFile | undefined =
    secret !== undefined && from === 'new' && options.demoPasswordFile
      ? await writeDemoPassword(options.demoPasswordFile, secret)
      : undefined;
  // The demo users share one password, so one hash serves them all: a salt per user would protect
  // nothing here (knowing one password is knowing them all), and scrypt is most of a seeded start's work.
  let sharedHash: string | undefined;
  const users: ProvisionedUser[] = [];
  for (const role of roles) {
    const email = `${role}@${DEMO_DOMAIN}`;
    const apiKey = (value: string) => `${role}.${value}`;
    let made = false;
    if (!existing.has(role)) {
      // A role added to the specification since the others were made: it gets their password if known.
      const password = secret ?? generateSecret();
      const attributes = await demoAttributes(store, model, role);
      if (secret !== undefined) sharedHash ??= await hashPassword(secret);
      const added = await addUser(
        store,
        { email, role, attributes },
        sharedHash === undefined
          ? { password, apiKey: apiKey(password) }
          : { password, passwordHash: sharedHash, apiKey: apiKey(password) },
      );
      if (!added.ok) continue;
      made = true;
      if (secret === undefined) {
        users.push({
          email,
          role,
          secret: secretKind === 'password' ? password : apiKey(password),
          demo: true,
          made,
          secretFrom: 'new',
        });
        continue;
      }
    }
    users.push({
      email,
      role,
      demo: true,
      made,
      ...(secret === undefined ? {} : { secret: secretKind === 'password' ? secret : apiKey(secret) }),
      ...(from === undefined ? {} : { secretFrom: from }),
    });
  }
  return {
    users,
    ...(file?.ok ? { demoPasswordFile: file.path } : {}),
    ...(from !== 'environment' && options.demoPassword !== undefined && first !== undefined
      ? { demoPasswordIgnored: true }
      : {}),
  };
}

/** Whether an existing demo user's password (or API key) is this one. */
async function demoSecretHolds(
  user: StoredUser,
  secret: string,
  kind: 'password' | 'api-key' | 'token',
): Promise<boolean> {
  if (kind === 'password')
    return user.passwordHash !== undefined && verifyPassword(secret, user.passwordHash);
  return user.apiKeyHash === apiKeyHash(`${user.role}.${secret}`);
}

/**
 * `user.<name>` attributes a role's conditions compare with a reference field, set to the record the
 * most records refer to (the customer with the most orders), else the first of the referenced entity:
 * the demo user then has data of their own to see.
 */
async function demoAttributes(store: Store, model: Model, role: string): Promise<Record<string, JsonValue>> {
  const attributes: Record<string, JsonValue> = {};
  for (const link of demoLinks(model, role)) {
    // The first thousand records decide: enough to find who holds the most.
    const page = await store.list(link.entity, { filters: [], sort: [], limit: 1000, withTotal: false });
    const key =
      mostReferenced(page.items, link.field) ??
      (await store.list(link.target, { filters: [], sort: [], limit: 1, withTotal: false })).items[0]?.[
        link.targetKey
      ];
    if (key !== undefined) attributes[link.attribute] = key;
  }
  return attributes;
}
