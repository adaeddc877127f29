import type { ScreenKind } from '@ninefold/spec';
import { type ComponentType, lazy } from 'react';
import type { ScreenProps } from './screen-props';

type ScreenRegistry = { [K in ScreenKind]: ComponentType<ScreenProps<K>> };

/**
 * One component per screen kind, each loaded when first shown so that the first page downloads only
 * what it draws.
 */
export const screenComponents: ScreenRegistry = {
  list: lazy(() => import('./ListScreen')),
  detail: lazy(() => import('./DetailScreen')),
  create: lazy(() => import('./FormScreen')),
  edit: lazy(() => import('./FormScreen')),
  dashboard: lazy(() => import('./DashboardScreen')),
  'sign-in': lazy(() => import('./SignInScreen')),
  custom: lazy(() => import('./CustomScreen')),
};
