import type { Store, StoredRecord } from '../../src/store/store';

/** An order's shipping address in the shop (examples/shop.yaml). */
export const ADDRESS = { street: '1 Quay', city: 'Portsmouth', postcode: 'PO1 3LJ', country: 'GB' };

/**
 * What an order of the shop needs, written straight to the store: a customer (credit limit as given)
 * and a product at 5 EUR with 9 in stock.
 */
export async function customerAndProduct(
  store: Store,
  { creditLimit = 9 }: { creditLimit?: number } = {},
): Promise<{ customer: StoredRecord; product: StoredRecord }> {
  const customer = await store.create('Customer', {
    name: 'Anna Berg',
    email: 'anna@example.com',
    country: 'SE',
    creditLimit,
    active: true,
  });
  const product = await store.create('Product', {
    sku: 'RG-1001',
    name: 'Line',
    category: 'rigging',
    price: 5,
    stock: 9,
  });
  if (!customer.ok || !product.ok) throw new Error('set-up failed: the customer or the product was not made');
  return { customer: customer.value, product: product.value };
}
