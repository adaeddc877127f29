import type { ScreenProps } from './screen-props';

/** Placeholder until the screen is built in this issue. */
export default function DetailScreen({ screen }: ScreenProps<'detail'>) {
  return <p>{screen.name}</p>;
}
