import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type Entity, exhaustiveSwitchError } from '@ninefold/model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import type { ApiRecord, DataProvider, PathValues } from '../data/data-provider';
import { ErrorNotice } from '../errors/ErrorNotice';
import { invalidateEntity, recordKey } from '../form/query-keys';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import type { ActionPlan } from './action-plan';

addEnglish('form', formMessages);

export interface ActionRunProps {
  plan: ActionPlan;
  entity: Entity;
  record: ApiRecord;
  id: string;
  version: string | undefined;
  /** The record's parents, for a nested record's calls. */
  path?: PathValues | undefined;
  /** Called when the call or code starts (after the confirmation, if any). */
  onRun(): void;
  /** Called once the action is over: `done` when it happened, not when the person went back or it failed. */
  onFinish(done: boolean): void;
}

/**
 * One pressed action: its confirmation when it asks first, then its call or code, then a re-read of
 * what is on screen. A refusal is shown in a dialog with point 8's message and its remedy.
 */
export default function ActionRun({
  plan,
  entity,
  record,
  id,
  version,
  path,
  onRun,
  onFinish,
}: ActionRunProps) {
  const { data } = useSpec();
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const { definition } = plan;
  const confirm = definition.confirm;
  const [asking, setAsking] = useState(confirm !== undefined);
  const mutation = useMutation({
    mutationFn: () => {
      onRun();
      return runAction(plan, data, entity, record, id, version, path);
    },
    onSuccess: async () => {
      invalidateEntity(queryClient, entity.name);
      // What is on screen is read again at once: the list the row is in, or the record whose page this is.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['list', entity.name] }),
        queryClient.invalidateQueries({ queryKey: recordKey(entity.name, id) }),
      ]);
      onFinish(true);
    },
  });
  // An action that does not ask first runs as soon as it is pressed (once, under React's double effects).
  const started = useRef(false);
  useEffect(() => {
    if (confirm || started.current) return;
    started.current = true;
    mutation.mutate();
  }, [confirm, mutation]);

  return (
    <>
      {confirm ? (
        <Modal
          opened={asking}
          onClose={() => onFinish(false)}
          title={confirm.title}
          closeButtonProps={{ 'aria-label': t('form.closeDialog') }}
        >
          <Stack gap="md">
            {confirm.text ? <Text>{confirm.text}</Text> : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => onFinish(false)} data-autofocus>
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
        opened={mutation.isError}
        onClose={() => onFinish(false)}
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
            invalidateEntity(queryClient, entity.name);
            void queryClient.invalidateQueries({ queryKey: recordKey(entity.name, id) });
            onFinish(false);
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
  path: PathValues | undefined,
): Promise<void> {
  const run = plan.run;
  const base = { entity: entity.name, id, ...(path ? { path } : {}) };
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
