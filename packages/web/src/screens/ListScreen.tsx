import type { ScreenProps } from './screen-props';

/** Placeholder until the screen is built in this issue. */
export default function ListScreen({ screen }: ScreenProps<'list'>) {
  return <p>{screen.name}</p>;
}
