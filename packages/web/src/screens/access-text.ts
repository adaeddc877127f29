import {
  type AccessDenial,
  type CrudAction,
  entityPlural,
  exhaustiveSwitchError,
  findEntity,
  type Model,
  type Principal,
  type Screen,
  type StateMachine,
  type Transition,
  type TransitionVerdict,
} from '@ninefold/model';
import type { I18n } from '../i18n/I18nProvider';

/**
 * The action a screen of an entity needs (`checkScreen` asks the same), so that a refusal names it.
 * Screens of no entity need none.
 */
export function screenAction(screen: Screen): CrudAction | undefined {
  switch (screen.kind) {
    case 'list':
    case 'detail':
      return 'read';
    case 'create':
      return 'create';
    case 'edit':
      return 'update';
    case 'dashboard':
    case 'sign-in':
    case 'custom':
      return undefined;
    default:
      return exhaustiveSwitchError(screen);
  }
}

/**
 * Why an action (or the page that takes it) is refused, in the person's language. The verdicts of
 * `packages/model` carry their reason as data; the words are the client's.
 */
export function refusalText(
  i18n: Pick<I18n, 't'>,
  model: Model,
  principal: Principal,
  reason: AccessDenial,
  subject: { entity?: string | undefined; action?: CrudAction | undefined },
): string {
  const { t } = i18n;
  const role = roleLabel(model, principal.role);
  const things = thingsOf(model, subject.entity);
  switch (reason) {
    case 'not-signed-in':
      return t('access.notSignedIn');
    case 'role':
      return t('access.screenRole', { role });
    case 'no-grant':
    case 'condition':
      // A grant's refusal is always about an action; without one the page's own words are the best left.
      return subject.action === undefined
        ? t('access.screenRole', { role })
        : t(grantKey(reason, subject.action), { role, things });
    default:
      return exhaustiveSwitchError(reason);
  }
}

function grantKey(
  reason: 'no-grant' | 'condition',
  action: CrudAction,
):
  | 'access.noGrantRead'
  | 'access.noGrantCreate'
  | 'access.noGrantUpdate'
  | 'access.noGrantDelete'
  | 'access.conditionRead'
  | 'access.conditionCreate'
  | 'access.conditionUpdate'
  | 'access.conditionDelete' {
  const grant = reason === 'no-grant';
  switch (action) {
    case 'read':
      return grant ? 'access.noGrantRead' : 'access.conditionRead';
    case 'create':
      return grant ? 'access.noGrantCreate' : 'access.conditionCreate';
    case 'update':
      return grant ? 'access.noGrantUpdate' : 'access.conditionUpdate';
    case 'delete':
      return grant ? 'access.noGrantDelete' : 'access.conditionDelete';
    default:
      return exhaustiveSwitchError(action);
  }
}

/**
 * Why a transition cannot be taken now. A guard's message is the specification's own; the states it is
 * possible from are listed the way the language joins alternatives ("Placed or Paid").
 */
export function transitionRefusalText(
  i18n: Pick<I18n, 't' | 'locale'>,
  model: Model,
  principal: Principal,
  machine: StateMachine,
  transition: Transition,
  verdict: Extract<TransitionVerdict, { allowed: false }>,
): string {
  const { t } = i18n;
  switch (verdict.reason) {
    case 'state': {
      const states = transition.from.map(
        (name) => machine.states.find((state) => state.name === name)?.label ?? name,
      );
      const list = new Intl.ListFormat(i18n.locale, { type: 'disjunction' }).format(states);
      return t('access.transitionState', { states: list });
    }
    case 'guard':
      // The core filled the message's placeholders ({CLOSES}, {record.title}) as the API does.
      return transition.guardMessage ? verdict.message : t('access.transitionGuard');
    case 'error':
      return t('access.transitionError');
    case 'role':
      return t('access.transitionRole', { role: roleLabel(model, principal.role) });
    default:
      return exhaustiveSwitchError(verdict.reason);
  }
}

/** A role as point 6 names it for people ("Counter clerk"), else its name. */
export function roleLabel(model: Model, role: string | undefined): string {
  if (role === undefined) return '';
  const found = model.roles.shown
    ? model.roles.roles.find((candidate) => candidate.name === role)
    : undefined;
  return found?.label ?? role;
}

function thingsOf(model: Model, name: string | undefined): string {
  if (name === undefined) return '';
  const entity = findEntity(model, name);
  return entity ? entityPlural(entity).toLowerCase() : name;
}
