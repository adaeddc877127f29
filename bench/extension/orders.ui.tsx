// An extension that overrides what an orders list draws, for bench/client-extension.ts: a cell display
// that wraps the built-in one, a toolbar slot, a row action decided on the grant alone, and a brand.
import {
  defineExtension,
  type FieldDisplayOverrideProps,
  type ListToolbarSlotProps,
} from '@ninefold/web/extension';

function Total({ Original, value }: FieldDisplayOverrideProps) {
  return (
    <span data-large={Number(value) > 5000 || undefined}>
      <Original />
    </span>
  );
}

function Toolbar({ records }: ListToolbarSlotProps) {
  return <p>{records.length} orders on this page</p>;
}

export default defineExtension({
  theme: { primaryColor: '#0b7285', radius: 6 },
  fields: { fields: { 'Order.total': { display: Total } } },
  slots: { listToolbar: { Order: Toolbar } },
  actions: {
    note: { entity: 'Order', label: 'Note', places: ['row'], run: () => undefined },
  },
});
