import type { FormScreen as FormScreenType } from '@ninefold/spec';

/** Placeholder until the screen is built in this issue. */
export default function FormScreen({ screen }: { screen: FormScreenType }) {
  return <p>{screen.name}</p>;
}
