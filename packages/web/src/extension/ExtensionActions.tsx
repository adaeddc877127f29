import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type Entity, exhaustiveSwitchError, type Model } from '@ninefold/spec';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import type { ApiRecord, DataProvider } from '../data/data-provider';
import { ErrorNotice } from '../errors/ErrorNotice';
import { type ActionReason, ActionReasons } from '../form/ActionReasons';
import { invalidateEntity, recordKey } from '../form/query-keys';
import { useI18n } from '../i18n/I18nProvider';
import { refusalText, transitionRefusalText } from '../screens/access-text';
import { type SessionValue, useSession } from '../session/SessionContext';
import { type ActionPlan, planActions } from './action-plan';
import { useExtension } from './ExtensionContext';
import type { ActionDefinition } from './types';

export interface ExtensionActionsProps {
  entity: Entity;
  record: ApiRecord;
  id: string;
  version: string | undefined;
  place: 'row' | 'detail';
}

/**
 * The extension's actions on one record (docs/extending.md): each offered as point 6 and point 4 offer a
 * built-in action (left out without a grant, disabled with the reason when this record refuses it),
 * asking first when the action says so, and showing a refusal with point 8's message.
 */
export default function ExtensionActions({ entity, record, id, version, place }: ExtensionActionsProps) {
  const { model, data } = useSpec();
  const session = useSession();
  const extension = useExtension();
  const i18n = useI18n();
  const baseId = useId();
  const plans = planActions(model, data, session, extension.actions ?? {}, entity, record, place, new Date());
  if (plans.length === 0) return null;
  const reasons: ActionReason[] = plans.flatMap((plan) =>
    plan.offer.kind === 'disabled'
      ? [
          {
            id: `${baseId}-${plan.name}`,
            action: plan.definition.label,
            text: reasonText(plan, i18n, model, session, entity),
          },
        ]
      : [],
  );
  return (
    <Stack gap={4} align={place === 'row' ? 'flex-end' : 'flex-start'}>
      <Group gap="xs" role="group" aria-label={i18n.t('extension.actions')} wrap="nowrap">
        {plans.map((plan) => (
          <ActionButton
            key={plan.name}
            plan={plan}
            entity={entity}
            record={record}
            id={id}
            version={version}
            compact={place === 'row'}
            describedBy={plan.offer.kind === 'disabled' ? `${baseId}-${plan.name}` : undefined}
          />
        ))}
      </Group>
      {place === 'detail' ? (
        <ActionReasons reasons={reasons} />
      ) : (
        // A row has no room for sentences: each disabled button's reason is its description only.
        reasons.map((reason) => (
          <span key={reason.id} id={reason.id} className="nf-visually-hidden">
            {reason.text}
          </span>
        ))
      )}
    </Stack>
  );
}

function reasonText(
  plan: ActionPlan,
  i18n: ReturnType<typeof useI18n>,
  model: Model,
  session: SessionValue,
  entity: Entity,
): string {
  const offer = plan.offer;
  if (offer.kind !== 'disabled') return '';
  switch (offer.block.kind) {
    case 'access':
      return refusalText(i18n, model, session.principal, offer.block.reason, {
        entity: entity.name,
        action: offer.block.action,
      });
    case 'transition':
      return transitionRefusalText(
        i18n,
        model,
        session.principal,
        offer.block.machine,
        offer.block.transition,
        offer.block.verdict,
      );
    default:
      return exhaustiveSwitchError(offer.block);
  }
}

function ActionButton({
  plan,
  entity,
  record,
  id,
  version,
  compact,
  describedBy,
}: {
  plan: ActionPlan;
  entity: Entity;
  record: ApiRecord;
  id: string;
  version: string | undefined;
  compact: boolean;
  describedBy: string | undefined;
}) {
  const { data } = useSpec();
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [showError, setShowError] = useState(false);
  const { definition } = plan;
  const mutation = useMutation({
    mutationFn: () => runAction(plan, data, entity, record, id, version),
    onSuccess: () => {
      invalidateEntity(queryClient, entity.name);
      // What is on screen is read again at once: the list the row is in, or the record whose page this is.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['list', entity.name] }),
        queryClient.invalidateQueries({ queryKey: recordKey(entity.name, id) }),
      ]);
    },
    onError: () => setShowError(true),
  });
  const confirm = definition.confirm;
  const start = () => (confirm ? setAsking(true) : mutation.mutate());
  return (
    <>
      <Button
        size={compact ? 'compact-sm' : 'sm'}
        variant={compact ? 'subtle' : 'light'}
        disabled={plan.offer.kind === 'disabled' || mutation.isPending}
        loading={mutation.isPending}
        aria-describedby={describedBy}
        data-action={plan.name}
        onClick={start}
      >
        {definition.label}
      </Button>
      <span className="nf-visually-hidden" role="status">
        {mutation.isSuccess
          ? (definition.done ?? t('extension.actionDone', { label: definition.label }))
          : ''}
      </span>
      {confirm ? (
        <Modal
          opened={asking}
          onClose={() => setAsking(false)}
          title={confirm.title}
          closeButtonProps={{ 'aria-label': t('form.closeDialog') }}
        >
          <Stack gap="md">
            {confirm.text ? <Text>{confirm.text}</Text> : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setAsking(false)} data-autofocus>
                {t('extension.actionCancel')}
              </Button>
              <Button
                color={confirm.danger ? 'red' : undefined}
                onClick={() => {
                  setAsking(false);
                  mutation.mutate();
                }}
              >
                {confirm.confirmLabel ?? definition.label}
              </Button>
            </Group>
          </Stack>
        </Modal>
      ) : null}
      <Modal
        opened={showError && mutation.isError}
        onClose={() => {
          setShowError(false);
          mutation.reset();
        }}
        title={t('extension.actionFailed', { label: definition.label })}
        closeButtonProps={{ 'aria-label': t('form.closeDialog') }}
      >
        <ErrorNotice
          error={mutation.error}
          entity={entity.name}
          networkMessage={t('extension.actionNetworkFailed')}
          onRetry={() => mutation.mutate()}
          retrying={mutation.isPending}
          onReload={() => {
            setShowError(false);
            mutation.reset();
            invalidateEntity(queryClient, entity.name);
            void queryClient.invalidateQueries({ queryKey: recordKey(entity.name, id) });
          }}
        />
      </Modal>
    </>
  );
}

/**
 * Runs one action: its call through the data interface (credentials, retries, problems), or its code.
 * A row knows no version: the record is read first, so that the change is made on the record as it is
 * (its `body` sees the current values) and the API can refuse it if it changes meanwhile.
 */
async function runAction(
  plan: ActionPlan,
  data: DataProvider,
  entity: Entity,
  shown: ApiRecord,
  id: string,
  shownVersion: string | undefined,
): Promise<void> {
  const run = plan.run;
  const base = { entity: entity.name, id };
  const current = async () =>
    shownVersion === undefined ? data.get(base) : { record: shown, version: shownVersion };
  switch (run.kind) {
    case 'update': {
      const { record, version } = await current();
      await data.update({ ...base, values: run.body(record), ...(version === undefined ? {} : { version }) });
      return;
    }
    case 'delete':
      await data.delete(base);
      return;
    case 'transition': {
      const { version } = await current();
      await data.transition({
        ...base,
        transition: run.transition,
        ...(version === undefined ? {} : { version }),
      });
      return;
    }
    case 'code':
      await run.code({ record: shown, id, entity, version: shownVersion, data });
      return;
    default:
      return exhaustiveSwitchError(run);
  }
}

export type { ActionDefinition };
