// The demo users `--seed` makes, one per role: a role whose grant reads `record.customer ==
// user.customerId` gets the customer whose records there are most of, so that signing in as the demo
// customer shows orders (the README's first tour), not an empty list.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyPassword } from '../src/auth/passwords';
import { provisionUsers } from '../src/auth/provision';
import { openStore } from '../src/store/open-store';
import type { Store } from '../src/store/store';
import { exampleModel } from './support/databases';
import { ADDRESS } from './support/shop-records';

const model = exampleModel();
let store: Store;
beforeAll(async () => {
  store = await openStore({ model, url: 'sqlite::memory:' });
  expect((await store.migrate({ allowDestructive: false })).ok).toBe(true);
});
afterAll(async () => {
  await store?.close();
});

async function made(table: string, values: Record<string, unknown>): Promise<number> {
  const result = await store.create(table, values as never);
  if (!result.ok) throw new Error(`set-up failed: ${table} was not made`);
  return result.value.id as number;
}

it('links the demo customer to the customer with the most orders, not to the first one made', async () => {
  const customer = (name: string) => made('Customer', { name, email: `${name}@example.com`, active: true });
  const [none, most, one] = [await customer('none'), await customer('most'), await customer('one')];
  const product = await made('Product', {
    sku: 'RG-1001',
    name: 'Line',
    category: 'rigging',
    price: 5,
    stock: 9,
  });
  const order = (customerId: number) =>
    made('Order', {
      customer: customerId,
      shippingAddress: ADDRESS,
      lines: [{ product, quantity: 1, unitPrice: 5 }],
      status: 'draft',
    });
  for (const customerId of [most, one, most]) await order(customerId);

  const result = await provisionUsers(store, model, { users: [], demo: true });
  expect(result.ok).toBe(true);
  const demo = await store.findUser({ email: 'customer@demo.test' });
  expect(demo?.attributes.customerId).toBe(most);
  expect(demo?.attributes.customerId).not.toBe(none);
  // A role whose grants compare nothing with the user has no attributes to be linked by.
  expect((await store.findUser({ email: 'clerk@demo.test' }))?.attributes).toEqual({});
});

it('never changes demo users that exist: their password is learnt from the environment or the owner’s file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ninefold-demo-'));
  const file = join(dir, 'shop.ninefold.db.demo-password');
  const fresh = await openStore({ model, url: 'sqlite::memory:' });
  try {
    expect((await fresh.migrate({ allowDestructive: false })).ok).toBe(true);
    const first = await provisionUsers(fresh, model, { users: [], demo: true, demoPasswordFile: file });
    if (!first.ok) throw new Error(first.message);
    const password = first.users[0]?.secret as string;
    expect(first.users.every((user) => user.made && user.secretFrom === 'new')).toBe(true);
    expect(first.demoPasswordFile).toBe(file);
    expect(readFileSync(file, 'utf8').trim()).toBe(password);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const hash = (await fresh.findUser({ email: 'owner@demo.test' }))?.passwordHash;
    // One password for all, hashed once: every demo user signs in with it.
    expect(first.users.length).toBeGreaterThan(1);
    for (const user of first.users) {
      const stored = (await fresh.findUser({ email: user.email }))?.passwordHash ?? '';
      expect(await verifyPassword(password, stored), user.email).toBe(true);
    }

    // A restart, or a second node: nothing is changed, the password is read from the file.
    const again = await provisionUsers(fresh, model, { users: [], demo: true, demoPasswordFile: file });
    if (!again.ok) throw new Error(again.message);
    expect(again.users.map((user) => [user.made, user.secret, user.secretFrom])).toEqual(
      again.users.map(() => [false, password, 'file']),
    );
    expect((await fresh.findUser({ email: 'owner@demo.test' }))?.passwordHash).toBe(hash);

    // Another machine, without the file: the users are kept, and nobody's password is invented.
    const elsewhere = await provisionUsers(fresh, model, { users: [], demo: true });
    if (!elsewhere.ok) throw new Error(elsewhere.message);
    expect(elsewhere.users.every((user) => user.secret === undefined && !user.made)).toBe(true);
    // The environment's password, when it is theirs, is shown; when it is not, it is said and ignored.
    const right = await provisionUsers(fresh, model, { users: [], demo: true, demoPassword: password });
    expect(right.ok && right.users[0]?.secretFrom).toBe('environment');
    const wrong = await provisionUsers(fresh, model, { users: [], demo: true, demoPassword: 'not-theirs-1' });
    expect(wrong.ok && wrong.demoPasswordIgnored).toBe(true);
    expect((await fresh.findUser({ email: 'owner@demo.test' }))?.passwordHash).toBe(hash);
  } finally {
    await fresh.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
