import { Button, Group, Stack } from '@mantine/core';
import type { Entity } from '@ninefold/model';
import { lazy, type ReactNode, Suspense, useId, useState } from 'react';
import type { ApiRecord, PathValues } from '../data/data-provider';
import { type ActionReason, ActionReasons } from '../form/ActionReasons';
import { useI18n } from '../i18n/I18nProvider';
import type { ActionPlan } from './action-plan';

// The dialogs and the call of an action load when one is pressed, not with the buttons.
const ActionRun = lazy(() => import('./ActionRun'));

export interface ActionButtonsProps {
  plans: ActionPlan[];
  /** Why each disabled action cannot be taken, by the action's name. */
  reasons?: ReadonlyMap<string, string>;
  entity: Entity;
  record: ApiRecord;
  id: string;
  version: string | undefined;
  place: 'row' | 'detail';
  /** The record's parents, for a nested record's calls. */
  path?: PathValues | undefined;
}

/**
 * The extension's action buttons on a record. A disabled one is described by its reason: below the
 * buttons on a record's page, as its accessible description alone in a list's row. Pressing one runs it
 * (asking first when it says so); what followed is announced.
 */
export function ActionButtons({
  plans,
  reasons,
  entity,
  record,
  id,
  version,
  place,
  path,
}: ActionButtonsProps) {
  const { t } = useI18n();
  const baseId = useId();
  const [active, setActive] = useState<ActionPlan | undefined>();
  // Pressed and asking first is not running yet: the spinner shows once the call is under way.
  const [running, setRunning] = useState(false);
  const [announced, setAnnounced] = useState('');
  // An action whose own when() takes its button away once done keeps its region until what it did is read.
  if (plans.length === 0 && announced === '') return null;
  const reasonId = (plan: ActionPlan) => `${baseId}-${plan.name}`;
  const described: ActionReason[] = plans.flatMap((plan) => {
    const text = reasons?.get(plan.name);
    return plan.offer.kind === 'disabled' && text
      ? [{ id: reasonId(plan), action: plan.definition.label, text }]
      : [];
  });
  const compact = place === 'row';
  const run = (plan: ActionPlan) => {
    setAnnounced('');
    setActive(plan);
  };
  const status = (
    <span className="nf-visually-hidden" role="status">
      {announced}
    </span>
  );
  const runner = active ? (
    <Suspense fallback={null}>
      <ActionRun
        plan={active}
        entity={entity}
        record={record}
        id={id}
        version={version}
        path={path}
        onRun={() => setRunning(true)}
        onFinish={(done) => {
          setActive(undefined);
          setRunning(false);
          if (done)
            setAnnounced(
              active.definition.done ?? t('extension.actionDone', { label: active.definition.label }),
            );
        }}
      />
    </Suspense>
  ) : null;
  if (compact) {
    // Plain elements in each row (extension.css): a list has fifty rows, and Mantine's buttons and
    // layout boxes cost its first render a tenth.
    return (
      // The column's header names these (its "Actions"): no group of its own in every row.
      <span className="nf-row-action-group">
        {plans.map((plan) =>
          rowActionButton(plan, {
            disabled: plan.offer.kind === 'disabled' || active !== undefined,
            busy: running && active?.name === plan.name,
            describedBy: plan.offer.kind === 'disabled' ? reasonId(plan) : undefined,
            onPress: () => run(plan),
          }),
        )}
        {/* A row has no room for sentences: each disabled button's reason is its description only. */}
        {described.map((reason) => (
          <span key={reason.id} id={reason.id} className="nf-visually-hidden">
            {reason.text}
          </span>
        ))}
        {status}
        {runner}
      </span>
    );
  }
  return (
    <Stack gap={4} align="flex-start">
      <Group gap="xs" role="group" aria-label={t('extension.actions')} wrap="nowrap">
        {plans.map((plan) => (
          <Button
            key={plan.name}
            size="sm"
            variant="light"
            disabled={plan.offer.kind === 'disabled' || active !== undefined}
            loading={running && active?.name === plan.name}
            aria-describedby={plan.offer.kind === 'disabled' ? reasonId(plan) : undefined}
            data-action={plan.name}
            onClick={() => run(plan)}
          >
            {plan.definition.label}
          </Button>
        ))}
      </Group>
      <ActionReasons reasons={described} />
      {status}
      {runner}
    </Stack>
  );
}

/**
 * One action's button in a list's row: a plain element (extension.css), as fifty rows draw at once. Its
 * label is the action's; the column's header says what the buttons are.
 */
export function rowActionButton(
  plan: ActionPlan,
  state: { disabled: boolean; busy: boolean; describedBy?: string | undefined; onPress(): void },
): ReactNode {
  return (
    <button
      key={plan.name}
      type="button"
      className="nf-row-action"
      disabled={state.disabled}
      aria-busy={state.busy || undefined}
      aria-describedby={state.describedBy}
      data-action={plan.name}
      onClick={state.onPress}
    >
      {plan.definition.label}
    </button>
  );
}
