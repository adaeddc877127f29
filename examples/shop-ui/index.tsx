// Harbor Supply's extension of the generated client (docs/extending.md): what the specification of
// examples/shop.md cannot say. Run it with `ninefold serve examples/shop.md --ui examples/shop-ui/index.tsx`.
import { defineExtension } from '@ninefold/web/extension';
import { lazy } from 'react';
import logo from './harbor-logo.svg';
import { OrderPacking } from './OrderPacking';
import { StockLevel } from './StockLevel';

// The slip is opened from an order, seldom first: its code (and the rules it checks) loads when it is.
const PackingSlip = lazy(() => import('./PackingSlip'));

export default defineExtension({
  name: 'Harbor Supply',
  // The brand: the harbour's teal, its anchor, and slightly rounder corners.
  theme: { primaryColor: '#0b7285', logo, radius: 6 },
  fields: {
    // A product's stock reads as a level, in the list and on its page, so a low one stands out.
    fields: { 'Product.stock': { display: StockLevel } },
  },
  // Point 2's custom screen `packing-slip` names this component.
  screens: { PackingSlip },
  slots: {
    // Beside an order's fields: what the warehouse packs, and the way to its printable slip.
    detailAside: { Order: OrderPacking },
  },
  actions: {
    // Point 7's update call, offered where point 6 lets the role update products (owner, warehouse).
    restock: {
      entity: 'Product',
      label: 'Restock 10',
      call: 'updateProduct',
      body: (product) => ({ stock: Number(product.stock ?? 0) + 10 }),
      confirm: {
        title: 'Restock 10 units?',
        text: 'Adds 10 units to the stock of this product, as a delivery from the supplier would.',
        confirmLabel: 'Restock',
      },
      done: 'Restocked 10 units.',
    },
  },
});
