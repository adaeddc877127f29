import type { DetailScreen, Entity, ListScreen } from '@ninefold/spec';
import { lazy, Suspense } from 'react';
import type { ApiRecord } from '../data/data-provider';
import { useExtension } from './ExtensionContext';
import { Slot, useSlotFilled } from './Slot';

// The actions' dialogs and mutations load only for a client whose extension has actions.
const ExtensionActions = lazy(() => import('./ExtensionActions'));

/** Whether a list of this entity gets a column of row actions: a slot or an action placed in rows. */
export function useHasRowActions(entity: string | undefined): boolean {
  const extension = useExtension();
  const slot = useSlotFilled('rowActions', entity);
  if (entity === undefined) return false;
  return slot || hasActions(extension.actions, entity, 'row');
}

/**
 * The width of a list's column of row actions (the table's columns have fixed widths): room for the
 * labels of the entity's row actions as compact buttons, or a fixed room for a slot's own content.
 */
export function useRowActionsWidth(entity: string | undefined): string {
  const extension = useExtension();
  const slot = useSlotFilled('rowActions', entity);
  const labels = Object.values(extension.actions ?? {})
    .filter((action) => action.entity === entity && (action.places ?? ['row', 'detail']).includes('row'))
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

function hasActions(
  actions: ReturnType<typeof useExtension>['actions'],
  entity: string,
  place: 'row' | 'detail',
): boolean {
  return Object.values(actions ?? {}).some(
    (action) => action.entity === entity && (action.places ?? ['row', 'detail']).includes(place),
  );
}

/** A row's actions: the extension's action buttons, inside its `rowActions` slot for the entity. */
export function RowActions({
  screen,
  entity,
  record,
  id,
}: {
  screen: ListScreen;
  entity: Entity;
  record: ApiRecord;
  id: string | undefined;
}) {
  return (
    <Slot name="rowActions" slotKey={entity.name} props={{ screen, entity, record }}>
      {id === undefined ? null : (
        <Suspense fallback={null}>
          <ExtensionActions entity={entity} record={record} id={id} version={undefined} place="row" />
        </Suspense>
      )}
    </Slot>
  );
}

/** A record page's extra actions: the extension's buttons, inside its `detailActions` slot. */
export function DetailActions({
  screen,
  entity,
  record,
  id,
  version,
}: {
  screen: DetailScreen;
  entity: Entity;
  record: ApiRecord;
  id: string;
  version: string | undefined;
}) {
  return (
    <Slot name="detailActions" slotKey={entity.name} props={{ screen, entity, record, version }}>
      <Suspense fallback={null}>
        <ExtensionActions entity={entity} record={record} id={id} version={version} place="detail" />
      </Suspense>
    </Slot>
  );
}
