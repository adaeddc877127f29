import { SignInPage } from '../session/SignInPage';
import type { ScreenProps } from './screen-props';

/** Point 2's sign-in screen: the sign-in point 6 names, under the screen's own title and route. */
export default function SignInScreen({ screen }: ScreenProps<'sign-in'>) {
  return <SignInPage title={screen.title ?? screen.name} />;
}
