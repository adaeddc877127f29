import type { ScreenProps } from './screen-props';

/** Placeholder until the screen is built in this issue. */
export default function CustomScreen({ screen }: ScreenProps<'custom'>) {
  return <p>{screen.name}</p>;
}
