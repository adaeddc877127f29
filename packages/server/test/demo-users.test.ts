// The demo users `--seed` makes, one per role: a role whose grant reads `record.customer ==
// user.customerId` gets the customer whose records there are most of, so that signing in as the demo
// customer shows orders (the README's first tour), not an empty list.
import { afterAll, beforeAll, expect, it } from 'vitest';
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
