import type { FormScreen, Screen, ScreenKind } from '@ninefold/spec';

/** The screen type of a kind; create and edit screens share one type. */
export type ScreenOfKind<K extends ScreenKind> = K extends 'create' | 'edit'
  ? FormScreen
  : Extract<Screen, { kind: K }>;

/** What every screen component receives: its own screen from point 2, narrowed to its kind. */
export interface ScreenProps<K extends ScreenKind> {
  screen: ScreenOfKind<K>;
}
