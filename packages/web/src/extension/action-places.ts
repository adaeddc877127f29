import { placedAt } from './actions-on';
import { useExtension } from './ExtensionContext';
import { slotComponent, useSlotFilled } from './Slot';
import type { Extension } from './types';

// What a list or a record's page asks of the extension's actions before drawing them: light enough for
// the list's own code, which a client without an extension loads too.

/** Whether a list of this entity gets a column of row actions: a slot or an action placed in rows. */
export function useHasRowActions(entity: string | undefined): boolean {
  const extension = useExtension();
  return entity !== undefined && hasRowActions(extension, entity);
}

/**
 * The same as `useHasRowActions`, outside React too: before a list's first render, to load the code of
 * its row actions beside its first page.
 */
export function hasRowActions(extension: Extension, entity: string): boolean {
  return (
    slotComponent(extension.slots, 'rowActions', entity) !== undefined ||
    hasActions(extension.actions, entity, 'row')
  );
}

/**
 * The width of a list's column of row actions (the table's columns have fixed widths): room for the
 * labels of the entity's row actions as compact buttons, or a fixed room for a slot's own content.
 */
export function useRowActionsWidth(entity: string | undefined): string {
  const extension = useExtension();
  const slot = useSlotFilled('rowActions', entity);
  const labels = Object.values(extension.actions ?? {})
    .filter((action) => entity !== undefined && placedAt(action, entity, 'row'))
    .map((action) => action.label);
  // About 0.6em a character at the table's size, and each compact button's own padding.
  const buttons =
    labels.reduce((sum, label) => sum + label.length * 0.6 + 1.5, 0) + Math.max(0, labels.length - 1) * 0.5;
  return `${Math.max(slot ? 10 : 0, Math.ceil(buttons + 1.5))}rem`;
}

/** Whether a record's page gets extension actions beside Edit and Delete. */
export function useHasDetailActions(entity: string): boolean {
  const extension = useExtension();
  return useSlotFilled('detailActions', entity) || hasActions(extension.actions, entity, 'detail');
}

function hasActions(actions: Extension['actions'], entity: string, place: 'row' | 'detail'): boolean {
  return Object.values(actions ?? {}).some((action) => placedAt(action, entity, place));
}
