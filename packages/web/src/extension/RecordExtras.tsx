import type { DetailScreen, Entity, ListScreen } from '@ninefold/spec';
import { lazy, Suspense } from 'react';
import { useSpec } from '../app/SpecContext';
import type { ApiRecord, PathValues } from '../data/data-provider';
import { useSession } from '../session/SessionContext';
import { ActionButtons } from './ActionButtons';
import { planActionsLight } from './action-plan-light';
import { useExtension } from './ExtensionContext';
import { Slot } from './Slot';

// Actions that a grant's condition or a transition's guard decides need the rules' expression engine:
// they load with it, and only where such an action is offered.
const ExtensionActions = lazy(() => import('./ExtensionActions'));

/** A record's action buttons: decided on the grant alone where it can be, else by every rule. */
function RecordActions(props: {
  entity: Entity;
  record: ApiRecord;
  id: string;
  version: string | undefined;
  place: 'row' | 'detail';
  /** The record's parents, for a nested record's calls (`/stores/7/employees/3`). */
  path: PathValues | undefined;
}) {
  const { model, data } = useSpec();
  const session = useSession();
  const extension = useExtension();
  const light = planActionsLight(
    model,
    data,
    session,
    extension.actions ?? {},
    props.entity,
    props.record,
    props.place,
  );
  if (light) return <ActionButtons plans={light} {...props} />;
  return (
    <Suspense fallback={null}>
      <ExtensionActions {...props} />
    </Suspense>
  );
}

/** A row's actions: the extension's action buttons, inside its `rowActions` slot for the entity. */
export function RowActions({
  screen,
  entity,
  record,
  id,
  path,
}: {
  screen: ListScreen;
  entity: Entity;
  record: ApiRecord;
  id: string | undefined;
  /** The list's parents: a nested record's calls need them. */
  path?: PathValues | undefined;
}) {
  return (
    <Slot name="rowActions" slotKey={entity.name} props={{ screen, entity, record }}>
      {id === undefined ? null : (
        <RecordActions entity={entity} record={record} id={id} version={undefined} place="row" path={path} />
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
  path,
}: {
  screen: DetailScreen;
  entity: Entity;
  record: ApiRecord;
  id: string;
  version: string | undefined;
  /** The record's parents: a nested record's calls need them. */
  path?: PathValues | undefined;
}) {
  return (
    <Slot name="detailActions" slotKey={entity.name} props={{ screen, entity, record, version }}>
      <RecordActions entity={entity} record={record} id={id} version={version} place="detail" path={path} />
    </Slot>
  );
}
