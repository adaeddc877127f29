import type { ScreenProps } from './screen-props';

/** Placeholder until the screen is built in this issue. */
export default function SignInScreen({ screen }: ScreenProps<'sign-in'>) {
  return <p>{screen.name}</p>;
}
