import type { DetailScreen, Entity, ListScreen, Model } from '@ninefold/model';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import type { ApiRecord, DataProvider, PathValues } from '../data/data-provider';
import { useI18n } from '../i18n/I18nProvider';
import { type SessionValue, useSession } from '../session/SessionContext';
import { ActionButtons, rowActionButton } from './ActionButtons';
import { useRowActionsWidth } from './action-places';
import type { ActionPlan } from './action-plan';
import { planActionsLight } from './action-plan-light';
import { useExtension } from './ExtensionContext';
import { Slot, slotComponent } from './Slot';
import type { Extension } from './types';
import type { RowActionsControllerProps } from './useRowActionsColumn';

// Actions that a grant's condition or a transition's guard decides need the rules' expression engine:
// they load with it, and only where such an action is offered.
const ExtensionActions = lazy(() => import('./ExtensionActions'));
// The dialogs and the call of an action load when one is pressed, not with the buttons.
const ActionRun = lazy(() => import('./ActionRun'));

/** A list's row action: the one pressed (asking first, or running), and whether its call is under way. */
export interface RowRun {
  pressed?: { plan: ActionPlan; record: ApiRecord; id: string };
  running?: boolean;
}

/** What a list gives the function that makes each row's buttons (see `useRowActionsColumn`). */
export interface RowCellContext {
  model: Model;
  data: DataProvider;
  session: SessionValue;
  extension: Extension;
  screen: ListScreen;
  entity: Entity;
  /** The list's parents: a nested record's calls need them. */
  path: PathValues;
  run: RowRun;
  setRun(run: RowRun): void;
}

/**
 * One row's action buttons as plain elements, decided on the grant alone as `RecordActions` does. A row
 * whose actions need every rule, or whose entity has the `rowActions` slot, gets the components that do
 * those.
 */
export function rowActionCell(record: ApiRecord, context: RowCellContext): ReactNode {
  const { entity, screen, path, extension } = context;
  const key = entity.key === undefined ? undefined : record[entity.key];
  const id = typeof key === 'string' || typeof key === 'number' ? String(key) : undefined;
  if (slotComponent(extension.slots, 'rowActions', entity.name) !== undefined) {
    return <RowActions screen={screen} entity={entity} record={record} id={id} path={path} />;
  }
  if (id === undefined) return null;
  const { model, data, session, run } = context;
  const plans = planActionsLight(model, data, session, extension.actions ?? {}, entity, record, 'row');
  if (plans === undefined) {
    return (
      <Suspense fallback={null}>
        <ExtensionActions
          entity={entity}
          record={record}
          id={id}
          version={undefined}
          place="row"
          path={path}
        />
      </Suspense>
    );
  }
  if (plans.length === 0) return null;
  return (
    // The column's header names these (its "Actions"): no group of its own in every row.
    <span className="nf-row-action-group">
      {plans.map((plan) =>
        rowActionButton(plan, {
          disabled: run.pressed !== undefined,
          busy: run.running === true && run.pressed?.id === id && run.pressed.plan.name === plan.name,
          onPress: () => context.setRun({ pressed: { plan, record, id } }),
        }),
      )}
    </span>
  );
}

/**
 * A list's column of the extension's row actions, given to its table, and what runs them: one dialog and
 * one live region for the whole list. Each row's buttons are plain elements made by a function, not
 * components with hooks: a page has fifty rows, and four components in each cost the list's first render
 * a tenth. The list's own region also outlives a row whose action took its button away.
 */
export function RowActionsColumn({ screen, entity, path, render }: RowActionsControllerProps) {
  const { model, data } = useSpec();
  const session = useSession();
  const extension = useExtension();
  const { t } = useI18n();
  const width = useRowActionsWidth(entity.name);
  const [run, setRun] = useState<RowRun>({});
  const [announced, setAnnounced] = useState('');
  const column = useMemo(() => {
    const context = { model, data, session, extension, screen, entity, path, run, setRun };
    return {
      label: t('extension.rowActions'),
      width,
      render: (record: ApiRecord) => rowActionCell(record, context),
    };
  }, [model, data, session, extension, screen, entity, path, run, t, width]);
  const { pressed } = run;
  return (
    <>
      {render(column)}
      {pressed ? (
        <Suspense fallback={null}>
          <ActionRun
            plan={pressed.plan}
            entity={entity}
            record={pressed.record}
            id={pressed.id}
            version={undefined}
            path={path}
            onRun={() => {
              setAnnounced('');
              setRun({ pressed, running: true });
            }}
            onFinish={(done) => {
              setRun({});
              const { definition } = pressed.plan;
              if (done)
                setAnnounced(definition.done ?? t('extension.actionDone', { label: definition.label }));
            }}
          />
        </Suspense>
      ) : null}
      <span className="nf-visually-hidden" role="status">
        {announced}
      </span>
    </>
  );
}

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
