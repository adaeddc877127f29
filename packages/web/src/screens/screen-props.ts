import type { FormScreen, Model, Screen, ScreenKind } from '@ninefold/model';
import type { QueryClient } from '@tanstack/react-query';
import type { DataProvider } from '../data/data-provider';
import type { SessionValue } from '../session/SessionContext';

/** The screen type of a kind; create and edit screens share one type. */
export type ScreenOfKind<K extends ScreenKind> = K extends 'create' | 'edit'
  ? FormScreen
  : Extract<Screen, { kind: K }>;

/** What every screen component receives: its own screen from point 2, narrowed to its kind. */
export interface ScreenProps<K extends ScreenKind> {
  screen: ScreenOfKind<K>;
}

/** What a screen module may use to start loading its data before it first renders. */
export interface PrefetchContext<K extends ScreenKind> {
  model: Model;
  screen: ScreenOfKind<K>;
  data: DataProvider;
  queryClient: QueryClient;
  /** The route's parameters, e.g. `{ id: '7' }`. */
  params: Record<string, string>;
  /** The address's query string, e.g. `?page=2&sort=-total`. */
  search: string;
  /**
   * The session as it stands before the first render, so that a screen the person may not see asks for
   * nothing ahead. Absent means not known, which refuses nothing (as a session of status `none`).
   */
  session?: SessionValue;
}
