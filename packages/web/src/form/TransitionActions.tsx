import { Button, Group, Menu, Modal, Stack, Text, VisuallyHidden } from '@mantine/core';
import {
  type Entity,
  exhaustiveSwitchError,
  humanize,
  type JsonValue,
  type StateMachine,
  type Transition,
} from '@ninefold/model';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import { ApiError, type PathValues } from '../data/data-provider';
import { ErrorNotice } from '../errors/ErrorNotice';
import { notify } from '../feedback/feedback-store';
import { addEnglish } from '../i18n/catalogue';
import { feedback } from '../i18n/en/feedback';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { refusalText, transitionRefusalText } from '../screens/access-text';
import { useSession } from '../session/SessionContext';
import { invalidateEntity, recordKey } from './query-keys';
import { type TransitionBlock, transitionChoices } from './transition-choices';

addEnglish('form', formMessages);
addEnglish('feedback', feedback);

/** Transitions shown as buttons; more that are possible now, and those that are not, sit in a menu. */
const MAX_BUTTONS = 3;

/** A transition's name as a person reads it. */
function labelOf(transition: Transition): string {
  return transition.label ?? humanize(transition.name);
}

const BLOCKED_STEP = { opacity: 1, color: 'var(--mantine-color-text)' } as const;

/** Whether the API refused the step for a reason of its own, rather than failing to take it. */
function refused(error: unknown): boolean {
  return error instanceof ApiError && [403, 409, 422].includes(error.status);
}

/** A transition into a state of point 4's `danger` tone (cancelled, rejected) looks like what it does. */
function destructive(machine: StateMachine, transition: Transition): boolean {
  return machine.states.find((state) => state.name === transition.to)?.tone === 'danger';
}

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
 * The transitions of point 4 on a record that the role may take: those possible now as buttons (the
 * first three; any more in a menu), and those not possible now in the menu with the reason for each,
 * asking first where the specification says so. A transition into a `danger` state, and its
 * confirmation, are red. After a transition the record is read again; a refusal from the API is shown
 * beside the buttons.
 */
export function TransitionActions({ entity, machine, id, record, version, parents }: TransitionActionsProps) {
  const { model, data } = useSpec();
  const session = useSession();
  const { principal } = session;
  const i18n = useI18n();
  const { t } = i18n;
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Transition | undefined>();
  const reasonsId = useId();
  const mutation = useMutation({
    mutationFn: (transition: Transition) =>
      data.transition({
        entity: entity.name,
        id,
        ...(parents ? { path: parents } : {}),
        transition: transition.name,
        ...(version === undefined ? {} : { version }),
      }),
    onSuccess: (taken, transition) => {
      invalidateEntity(queryClient, entity.name);
      const name = labelOf(transition);
      // Undone only by a transition of point 4 back to where the record was, that the role may take now.
      const before = record[machine.field];
      const reverse = transitionChoices(
        model,
        machine,
        data.calls(entity.name),
        taken.record,
        session,
        new Date(),
      ).find((choice) => choice.block === undefined && choice.transition.to === before)?.transition;
      notify({
        tone: 'done',
        message: t('feedback.transitioned', { transition: name }),
        ...(reverse
          ? {
              action: {
                label: t('feedback.undo'),
                run: () =>
                  mutation.mutate(reverse, {
                    onSuccess: () =>
                      notify({ tone: 'done', message: t('feedback.undone', { transition: name }) }),
                  }),
              },
            }
          : {}),
      });
      // The record on screen is read again: its new state, the transition's effects and its new version.
      return queryClient.invalidateQueries({ queryKey: recordKey(entity.name, id) });
    },
  });

  const choices = transitionChoices(model, machine, data.calls(entity.name), record, session, new Date());
  // A record in a final state (departed, delivered) takes no step ever again: listing every step as
  // "not possible now" would offer what can never be; the diagram shows where the record ended.
  const final = machine.states.find((state) => state.name === record[machine.field])?.final === true;
  if (choices.length === 0 || final) return null;

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
  const failed = mutation.error && mutation.variables ? mutation.variables : undefined;
  const take = (transition: Transition) =>
    transition.confirm ? setAsking(transition) : mutation.mutate(transition);
  const possible = choices.filter((choice) => choice.block === undefined);
  const shown = possible.slice(0, MAX_BUTTONS);
  const more = possible.slice(MAX_BUTTONS);
  const blocked = choices.filter((choice) => choice.block !== undefined);

  return (
    <Stack gap="xs">
      <Group gap="xs" role="group" aria-label={t('access.transitions')}>
        {shown.map(({ transition }) => (
          <Button
            key={transition.name}
            variant="light"
            color={destructive(machine, transition) ? 'red' : undefined}
            disabled={mutation.isPending}
            loading={mutation.isPending && mutation.variables?.name === transition.name}
            onClick={() => take(transition)}
          >
            {labelOf(transition)}
          </Button>
        ))}
        {more.length + blocked.length > 0 ? (
          <Menu position="bottom-start" withinPortal withInitialFocusPlaceholder={false}>
            <Menu.Target>
              <Button
                variant="default"
                rightSection={<span aria-hidden="true">▾</span>}
                aria-describedby={blocked.length > 0 ? reasonsId : undefined}
              >
                {t('access.moreSteps', { count: more.length + blocked.length })}
              </Button>
            </Menu.Target>
            <Menu.Dropdown maw={360}>
              {more.map(({ transition }) => (
                <Menu.Item
                  key={transition.name}
                  color={destructive(machine, transition) ? 'red' : undefined}
                  disabled={mutation.isPending}
                  onClick={() => take(transition)}
                >
                  {labelOf(transition)}
                </Menu.Item>
              ))}
              {blocked.length > 0 ? (
                // A group with its label: a menu may hold items and groups, not loose text.
                // biome-ignore lint/a11y/useSemanticElements: a fieldset is a form's group, not a menu's
                <div role="group" aria-labelledby={`${reasonsId}-label`}>
                  <Menu.Label id={`${reasonsId}-label`}>{t('access.notPossibleNow')}</Menu.Label>
                  {blocked.map(({ transition, block }) => (
                    // Disabled (aria-disabled), with its reason right under its name, both at full contrast:
                    // Mantine's disabled grey at 60% made the reason the hardest text on the page to read.
                    <Menu.Item
                      key={transition.name}
                      data-disabled
                      aria-disabled
                      closeMenuOnClick={false}
                      style={BLOCKED_STEP}
                    >
                      <Text span size="sm" fw={600} display="block">
                        {labelOf(transition)}
                      </Text>
                      <Text span size="xs" display="block">
                        {block ? blockText(transition, block) : null}
                      </Text>
                    </Menu.Item>
                  ))}
                </div>
              ) : null}
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>
      {blocked.length > 0 ? (
        // What the menu says of each step not possible now, also told with the button that opens it.
        <VisuallyHidden id={reasonsId}>
          {blocked
            .map(
              ({ transition, block }) =>
                `${labelOf(transition)}: ${block ? blockText(transition, block) : ''}`,
            )
            .join(' ')}
        </VisuallyHidden>
      ) : null}
      {failed ? (
        <ErrorNotice
          error={mutation.error}
          entity={entity.name}
          // The API said no (a guard, a rule, a state changed meanwhile): its words follow, and nothing broke.
          title={t(refused(mutation.error) ? 'access.transitionRefused' : 'access.transitionFailed', {
            name: labelOf(failed),
          })}
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
              color={asking && destructive(machine, asking) ? 'red' : undefined}
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
