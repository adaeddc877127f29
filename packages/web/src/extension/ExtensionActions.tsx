import { type Entity, exhaustiveSwitchError, type Model } from '@ninefold/model';
import { useSpec } from '../app/SpecContext';
import { useI18n } from '../i18n/I18nProvider';
import { refusalText, transitionRefusalText } from '../screens/access-text';
import { type SessionValue, useSession } from '../session/SessionContext';
import { ActionButtons, type ActionButtonsProps } from './ActionButtons';
import { type ActionPlan, planActions } from './action-plan';
import { useExtension } from './ExtensionContext';

/** A record's buttons, but for the plans and reasons, which this decides. */
export type ExtensionActionsProps = Omit<ActionButtonsProps, 'plans' | 'reasons'>;

/**
 * The extension's actions on one record decided by every rule (docs/extending.md), with the expression
 * engine for a grant's condition and a transition's guard: each left out without a grant, disabled with
 * the reason when this record refuses it.
 */
export default function ExtensionActions({
  entity,
  record,
  id,
  version,
  place,
  path,
}: ExtensionActionsProps) {
  const { model, data } = useSpec();
  const session = useSession();
  const extension = useExtension();
  const i18n = useI18n();
  const plans = planActions(model, data, session, extension.actions ?? {}, entity, record, place, new Date());
  const reasons = new Map(
    plans.flatMap((plan) =>
      plan.offer.kind === 'disabled'
        ? [[plan.name, reasonText(plan, i18n, model, session, entity)] as const]
        : [],
    ),
  );
  return (
    <ActionButtons
      plans={plans}
      reasons={reasons}
      entity={entity}
      record={record}
      id={id}
      version={version}
      place={place}
      path={path}
    />
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
