import type { ScreenProps } from './screen-props';

/** Placeholder until the screen is built in this issue. */
export default function DashboardScreen({ screen }: ScreenProps<'dashboard'>) {
  return <p>{screen.name}</p>;
}
