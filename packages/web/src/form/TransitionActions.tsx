import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import {
  type Entity,
  exhaustiveSwitchError,
  humanize,
  type JsonValue,
  type StateMachine,
  type Transition,
} from '@ninefold/spec';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import type { PathValues } from '../data/data-provider';
import { ErrorNotice } from '../errors/ErrorNotice';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { refusalText, transitionRefusalText } from '../screens/access-text';
import { useSession } from '../session/SessionContext';
import { type ActionReason, ActionReasons } from './ActionReasons';
import { invalidateEntity, recordKey } from './query-keys';
import { type TransitionBlock, transitionChoices } from './transition-choices';

addEnglish('form', formMessages);

export interface TransitionActionsProps {
  entity: Entity;
  machine: StateMachine;
  id: string;
  record: Record<string, JsonValue>;
  /** The version the record was read at, so that a transition of a record changed meanwhile is refused. */
  version: string | undefined;
  /** The record's parents, for a nested record's transition call. */
  parents?: PathValues | undefined;
}

/**
 * The buttons of point 4 on a record: one per transition the role may take, disabled with the reason
 * when it is not possible now, asking first where the specification says so. After a transition the
 * record is read again; a refusal from the API is shown beside the buttons.
 */
export function TransitionActions({ entity, machine, id, record, version, parents }: TransitionActionsProps) {
  const { model, data } = useSpec();
  const session = useSession();
  const { principal } = session;
  const i18n = useI18n();
  const { t } = i18n;
  const queryClient = useQueryClient();
  const baseId = useId();
  const [asking, setAsking] = useState<Transition | undefined>();
  const mutation = useMutation({
    mutationFn: (transition: Transition) =>
      data.transition({
        entity: entity.name,
        id,
        ...(parents ? { path: parents } : {}),
        transition: transition.name,
        ...(version === undefined ? {} : { version }),
      }),
    onSuccess: () => {
      invalidateEntity(queryClient, entity.name);
      // The record on screen is read again: its new state, the transition's effects and its new version.
      return queryClient.invalidateQueries({ queryKey: recordKey(entity.name, id) });
    },
  });

  const choices = transitionChoices(model, machine, data.calls(entity.name), record, session, new Date());
  if (choices.length === 0) return null;

  const labelOf = (transition: Transition) => transition.label ?? humanize(transition.name);
  const reasonId = (transition: Transition) => `${baseId}-${transition.name}`;
  const blockText = (transition: Transition, block: TransitionBlock): string => {
    switch (block.kind) {
      case 'transition':
        return transitionRefusalText(i18n, model, principal, machine, transition, block.verdict);
      case 'access':
        return refusalText(i18n, model, principal, block.reason, { entity: entity.name, action: 'update' });
      default:
        return exhaustiveSwitchError(block);
    }
  };
  const reasons: ActionReason[] = choices.flatMap(({ transition, block }) =>
    block
      ? [{ id: reasonId(transition), action: labelOf(transition), text: blockText(transition, block) }]
      : [],
  );
  const failed = mutation.error && mutation.variables ? mutation.variables : undefined;

  return (
    <Stack gap="xs">
      <Group gap="xs" role="group" aria-label={t('access.transitions')}>
        {choices.map(({ transition, block }) => (
          <Button
            key={transition.name}
            variant="light"
            disabled={block !== undefined || mutation.isPending}
            loading={mutation.isPending && mutation.variables?.name === transition.name}
            aria-describedby={block ? reasonId(transition) : undefined}
            onClick={() => (transition.confirm ? setAsking(transition) : mutation.mutate(transition))}
          >
            {labelOf(transition)}
          </Button>
        ))}
      </Group>
      <ActionReasons reasons={reasons} />
      {failed ? (
        <ErrorNotice
          error={mutation.error}
          entity={entity.name}
          title={t('access.transitionFailed', { name: labelOf(failed) })}
          networkMessage={t('access.transitionNetworkFailed')}
          onRetry={() => mutation.mutate(failed)}
          retrying={mutation.isPending}
          onReload={() => {
            mutation.reset();
            invalidateEntity(queryClient, entity.name);
            void queryClient.invalidateQueries({ queryKey: recordKey(entity.name, id) });
          }}
        />
      ) : null}
      <Modal
        opened={asking !== undefined}
        onClose={() => setAsking(undefined)}
        title={asking ? t('access.confirmTitle', { name: labelOf(asking) }) : undefined}
        closeButtonProps={{ 'aria-label': t('form.closeDialog') }}
      >
        <Stack gap="md">
          <Text>{asking?.confirm}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAsking(undefined)} data-autofocus>
              {t('access.goBack')}
            </Button>
            <Button
              onClick={() => {
                if (!asking) return;
                setAsking(undefined);
                mutation.mutate(asking);
              }}
            >
              {asking ? labelOf(asking) : null}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
