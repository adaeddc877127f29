import { Alert, Anchor, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import {
  checkScreen,
  type Entity,
  entityLabel,
  entityPlural,
  fieldAccess,
  findEntity,
  type JsonValue,
  updateLock,
} from '@ninefold/model';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { Link, useNavigate } from '../app/router';
import { nestedLists, routeByPosition, screenFor } from '../app/routes';
import { useParentPath, useScreenParams } from '../app/ScreenParams';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { ApiError, NetworkError, type PathValues } from '../data/data-provider';
import { useHasDetailActions } from '../extension/action-places';
import { DetailActions } from '../extension/RecordExtras';
import { Slot, useSlotFilled } from '../extension/Slot';
import { DELETE_DELAY_MS, deleteLater } from '../feedback/delete-later';
import { labelOf } from '../fields/display-props';
import { FieldList } from '../fields/FieldList';
import { StatusBadge } from '../fields/StatusBadge';
import { type ActionReason, ActionReasons } from '../form/ActionReasons';
import { type ActionOffer, actionOffer } from '../form/action-offer';
import { detailFields } from '../form/form-fields';
import { LoadFailure } from '../form/LoadFailure';
import { invalidateEntity } from '../form/query-keys';
import { RecordLoading } from '../form/RecordLoading';
import { recordIdFrom, recordPath } from '../form/record-path';
import { TransitionActions } from '../form/TransitionActions';
import { useRecord } from '../form/useRecord';
import { addEnglish } from '../i18n/catalogue';
import { feedback } from '../i18n/en/feedback';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { StatesSection } from '../states/StatesSection';
import { settle } from './access-policy';
import { refusalText } from './access-text';
import { RelatedRecords } from './RelatedRecords';
import type { ScreenProps } from './screen-props';

addEnglish('form', formMessages);
addEnglish('feedback', feedback);

// A record's changes load after its fields: most visits read the record, not its past.
const RecordChanges = lazy(() => import('../audit/RecordChanges'));

/**
 * One record (point 2's detail screen): its fields as a description list, its state as a badge, and
 * the actions whose screen and call the specification gives: Edit, Delete after a confirmation, and the
 * transitions of point 4. For a role (point 6) only the fields it may read are shown, actions it has no
 * grant of are left out, and those its grant's condition refuses for this record are disabled, with
 * the reason beside them. Below, the entity's state machine as a diagram, and the record's history.
 */
export default function DetailScreen({ screen }: ScreenProps<'detail'>) {
  const { model, data, api } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const session = useSession();
  const { principal } = session;
  const actionsId = useId();
  const params = useScreenParams();
  const entity = findEntity(model, screen.entity);
  const id = recordIdFrom(screen.route, params);
  const canGet = data.calls(screen.entity).get !== undefined;
  const parents = useParentPath(screen.route, true);
  const query = useRecord(screen.entity, id, parents ? { path: parents } : {});
  const record = query.data?.record;
  const title = entity && record ? recordTitle(entity, record, id, t) : (screen.title ?? undefined);
  useDocumentTitle(title);
  const extraActions = useHasDetailActions(screen.entity);
  const aside = useSlotFilled('detailAside', screen.entity);

  if (!entity) return <Alert color="yellow">{t('form.unknownEntity', { entity: screen.entity })}</Alert>;
  if (!canGet) return <Alert color="yellow">{t('form.noGetCall', { entity: entityLabel(entity) })}</Alert>;
  if (id === undefined || query.isError) {
    return <LoadFailure error={query.error} entity={entity} id={id} onRetry={() => query.refetch()} />;
  }
  if (query.isPending || !record) return <RecordLoading />;

  const machine = model.states.shown
    ? model.states.machines.find((m) => m.entity === entity.name)
    : undefined;
  const access = fieldAccess(model, principal, entity.name);
  // A field hidden only under a condition shows where the API sent it: this record does not meet it.
  const hidden = access.hiddenWhile
    ? new Set([...access.hidden].filter((name) => !(access.hiddenWhile?.fields.has(name) && name in record)))
    : access.hidden;
  const state = machine && !hidden.has(machine.field) ? record[machine.field] : undefined;
  const edit = screenFor(model, 'edit', entity.name);
  const editTo =
    edit && data.calls(entity.name).update && settle(checkScreen(model, principal, edit), session).allowed
      ? recordPath(edit.route, id)
      : undefined;
  const editOffer: ActionOffer = editTo
    ? actionOffer(model, session, entity.name, 'update', record)
    : { kind: 'hidden' };
  const deleteOffer: ActionOffer = data.calls(entity.name).delete
    ? actionOffer(model, session, entity.name, 'delete', record)
    : { kind: 'hidden' };
  const reasonId = (action: string) => `${actionsId}-${action}`;
  const fields = (
    <FieldList
      // The state is the badge by the title; unless the screen lists it, it is not said twice.
      fields={detailFields(entity, screen.fields, hidden).filter(
        (field) => screen.fields !== undefined || field.name !== machine?.field,
      )}
      record={record}
      model={model}
      entity={entity.name}
    />
  );
  // A rule of point 5 that no edit by this role could satisfy (Only a draft can be changed) locks the
  // record: Edit is offered disabled with the rule's words, not as a form whose every save is refused.
  const lock = editOffer.kind === 'enabled' ? updateLock(model, principal, entity.name, record) : undefined;
  const editReason =
    editOffer.kind === 'disabled'
      ? refusalText(i18n, model, principal, editOffer.reason, { entity: entity.name, action: 'update' })
      : lock?.error.message;
  const reasons: ActionReason[] = [];
  if (editReason !== undefined) {
    reasons.push({ id: reasonId('edit'), action: t('form.edit'), text: editReason });
  }
  if (deleteOffer.kind === 'disabled') {
    reasons.push({
      id: reasonId('delete'),
      action: t('form.delete'),
      text: refusalText(i18n, model, principal, deleteOffer.reason, {
        entity: entity.name,
        action: 'delete',
      }),
    });
  }

  return (
    <Stack gap="md" maw={aside ? 1120 : 760}>
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {entityLabel(entity)}
        </Text>
        <Group justify="space-between" align="center" gap="sm">
          <Group gap="sm" align="center">
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Title>
            {machine && typeof state === 'string' ? <StatusBadge machine={machine} value={state} /> : null}
          </Group>
          {editOffer.kind !== 'hidden' || deleteOffer.kind !== 'hidden' || extraActions ? (
            <Group gap="xs" role="group" aria-label={t('form.actions')} align="flex-start">
              {editTo && editOffer.kind === 'enabled' && editReason === undefined ? (
                <Button component={Link} to={editTo} variant="default" aria-keyshortcuts="e">
                  {t('form.edit')}
                </Button>
              ) : editReason !== undefined ? (
                // A button, not a link: a link cannot be disabled for every way of following it.
                <Button variant="default" disabled aria-describedby={reasonId('edit')}>
                  {t('form.edit')}
                </Button>
              ) : null}
              {deleteOffer.kind === 'enabled' ? (
                <DeleteAction entity={entity} id={id} name={title ?? id} parents={parents} />
              ) : deleteOffer.kind === 'disabled' ? (
                <Button color="red" variant="light" disabled aria-describedby={reasonId('delete')}>
                  {t('form.delete')}
                </Button>
              ) : null}
              {__NINEFOLD_EXTENSION__ && extraActions ? (
                <DetailActions
                  screen={screen}
                  entity={entity}
                  record={record}
                  path={parents}
                  id={id}
                  version={query.data?.version}
                />
              ) : null}
            </Group>
          ) : null}
        </Group>
        <ActionReasons reasons={reasons} />
      </Stack>
      {machine ? (
        <TransitionActions
          entity={entity}
          machine={machine}
          id={id}
          record={record}
          version={query.data?.version}
          parents={parents}
        />
      ) : null}
      {screen.description ? <Text c="dimmed">{screen.description}</Text> : null}
      <NestedLists route={screen.route} params={params} />
      {aside ? (
        <div className="nf-detail-with-aside">
          {fields}
          <aside aria-label={t('form.more')}>
            <Slot
              name="detailAside"
              slotKey={entity.name}
              props={{ screen, entity, record, version: query.data?.version }}
            />
          </aside>
        </div>
      ) : (
        fields
      )}
      <RelatedRecords entity={entity} id={id} />
      <StatesSection entity={entity} id={id} record={record} version={query.data?.version} />
      {/* Only the prototype API keeps an audit trail; `/spec.json` names its path then. */}
      {api.audit ? (
        <Suspense fallback={null}>
          <RecordChanges entity={entity} id={id} audit={api.audit} version={query.data?.version} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

/**
 * Links to the record's sub-resources (the lists whose routes extend this screen's), above its fields:
 * a record of an API such as GitHub's has a hundred fields, below which the links would be lost.
 */
function NestedLists({ route, params }: { route: string; params: Readonly<Record<string, string>> }) {
  const { model } = useSpec();
  const { t } = useI18n();
  const session = useSession();
  const lists = nestedLists(model, route).filter(
    (list) => settle(checkScreen(model, session.principal, list), session).allowed,
  );
  if (lists.length === 0) return null;
  return (
    <Group component="nav" aria-labelledby="nf-related" gap="sm" align="baseline">
      <Text id="nf-related" size="sm" fw={700}>
        {t('form.related')}
      </Text>
      {lists.map((list) => {
        const entity = findEntity(model, list.entity);
        const label = list.title ?? (entity ? entityPlural(entity) : list.name);
        return (
          <Anchor key={list.name} component={Link} to={routeByPosition(list.route, route, params)} size="sm">
            {label}
          </Anchor>
        );
      })}
    </Group>
  );
}

function recordTitle(
  entity: Entity,
  record: Record<string, JsonValue>,
  id: string | undefined,
  t: ReturnType<typeof useI18n>['t'],
): string {
  const shown = entity.display ? record[entity.display] : undefined;
  return shown === undefined || shown === null || shown === ''
    ? t('form.recordTitle', { entity: entityLabel(entity), id: id ?? '' })
    : labelOf(shown);
}

/**
 * Delete, after the person confirms: back to the list at once, with a notice whose Undo keeps the record
 * for a few seconds before the delete is sent.
 */
function DeleteAction({
  entity,
  id,
  name,
  parents,
}: {
  entity: Entity;
  id: string;
  name: string;
  parents: PathValues | undefined;
}) {
  const { model, data } = useSpec();
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  // The delete waits for Undo (see `deleteLater`); the record's page is left at once, for the list.
  const confirm = () => {
    setOpened(false);
    deleteLater({
      run: () => data.delete({ entity: entity.name, id, ...(parents ? { path: parents } : {}) }),
      waiting: t('feedback.deleting', { name, seconds: DELETE_DELAY_MS / 1000 }),
      undo: t('feedback.undo'),
      kept: t('feedback.kept', { name }),
      done: t('feedback.deleted', { name }),
      failed: (error) =>
        t('feedback.deleteFailed', {
          name,
          reason:
            error instanceof NetworkError
              ? t('form.deleteNetworkFailed')
              : error instanceof ApiError
                ? (error.detail ?? error.title)
                : t('access.transitionUnknownFailure'),
        }),
      onDeleted: () => {
        invalidateEntity(queryClient, entity.name);
        // The list on screen now: read again at once, so that the record leaves it.
        void queryClient.invalidateQueries({ queryKey: ['list', entity.name] });
      },
    });
    void navigate(screenFor(model, 'list', entity.name)?.route ?? '/');
  };
  return (
    <>
      <Button color="red" variant="light" onClick={() => setOpened(true)}>
        {t('form.delete')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('form.deleteTitle', { name })}
        closeButtonProps={{ 'aria-label': t('form.closeDialog') }}
      >
        <Stack gap="md">
          <Text>{t('form.deleteText', { entity: entityLabel(entity) })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpened(false)} data-autofocus>
              {t('form.keep')}
            </Button>
            <Button color="red" onClick={confirm}>
              {t('form.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
