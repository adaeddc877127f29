import type { Screen } from '@ninefold/spec';
import { exhaustiveSwitchError } from '@ninefold/spec';
import { screenComponents } from '../screens/registry';

/** Renders a screen with the component registered for its kind. */
export function ScreenRoute({ screen }: { screen: Screen }) {
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
