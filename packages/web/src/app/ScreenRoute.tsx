import type { Screen } from '@ninefold/model';
import { checkScreen, exhaustiveSwitchError } from '@ninefold/model';
import { useI18n } from '../i18n/I18nProvider';
import { settle } from '../screens/access-policy';
import { refusalText, screenAction } from '../screens/access-text';
import { NotAllowed } from '../screens/NotAllowed';
import { screenComponents } from '../screens/registry';
import { useSession } from '../session/SessionContext';
import { AskedValuesGate } from './AskedValues';
import { useSpec } from './SpecContext';

/**
 * Renders a screen with the component registered for its kind, or, when the person's role may not see
 * it, a plain refusal in its place. The refusal comes before the screen's code, so a refused screen
 * makes no call of its own.
 */
export function ScreenRoute({ screen }: { screen: Screen }) {
  const { model } = useSpec();
  const session = useSession();
  const { principal } = session;
  const i18n = useI18n();
  const verdict = settle(checkScreen(model, principal, screen), session);
  if (!verdict.allowed) {
    const entity = 'entity' in screen ? screen.entity : undefined;
    const reason = refusalText(i18n, model, principal, verdict.reason, {
      entity,
      action: screenAction(screen),
    });
    return <NotAllowed reason={reason} signIn={verdict.reason === 'not-signed-in'} />;
  }
  return (
    <AskedValuesGate screen={screen}>
      <ScreenOfKind screen={screen} />
    </AskedValuesGate>
  );
}

/** The component registered for the screen's kind. */
function ScreenOfKind({ screen }: { screen: Screen }) {
  switch (screen.kind) {
    case 'list': {
      const Component = screenComponents.list;
      return <Component screen={screen} />;
    }
    case 'detail': {
      const Component = screenComponents.detail;
      return <Component screen={screen} />;
    }
    case 'create':
    case 'edit': {
      const Component = screenComponents.create;
      return <Component screen={screen} />;
    }
    case 'dashboard': {
      const Component = screenComponents.dashboard;
      return <Component screen={screen} />;
    }
    case 'sign-in': {
      const Component = screenComponents['sign-in'];
      return <Component screen={screen} />;
    }
    case 'custom': {
      const Component = screenComponents.custom;
      return <Component screen={screen} />;
    }
    default:
      return exhaustiveSwitchError(screen);
  }
}
