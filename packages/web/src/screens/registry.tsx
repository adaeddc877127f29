import type { ScreenKind } from '@ninefold/model';
import { type ComponentType, lazy, useState } from 'react';
import { withLaterStyles } from '../app/later-styles';
import { FIRST_STYLESHEET_KINDS } from './first-stylesheet';
import type { PrefetchContext, ScreenProps } from './screen-props';

type ScreenModule<K extends ScreenKind> = {
  default: ComponentType<ScreenProps<K>>;
  /** Starts the screen's first call before the screen renders; settles when the answer is cached. */
  prefetch?: (context: PrefetchContext<K>) => Promise<void>;
};
type ScreenRegistry = { [K in ScreenKind]: ComponentType<ScreenProps<K>> };

const modules: { [K in ScreenKind]: () => Promise<ScreenModule<K>> } = {
  list: () => import('./ListScreen'),
  detail: () => import('./DetailScreen'),
  create: () => import('./FormScreen'),
  edit: () => import('./FormScreen'),
  dashboard: () => import('./DashboardScreen'),
  'sign-in': () => import('./SignInScreen'),
  custom: () => import('./CustomScreen'),
};

/** Each kind's code, and the later stylesheet with it for a kind that does not draw with the first. */
function loaderOf<K extends ScreenKind>(kind: K): () => Promise<ScreenModule<K>> {
  return FIRST_STYLESHEET_KINDS.has(kind) ? modules[kind] : withLaterStyles(modules[kind]);
}

const loaders: { [K in ScreenKind]: () => Promise<ScreenModule<K>> } = {
  list: loaderOf('list'),
  detail: loaderOf('detail'),
  create: loaderOf('create'),
  edit: loaderOf('edit'),
  dashboard: loaderOf('dashboard'),
  'sign-in': loaderOf('sign-in'),
  custom: loaderOf('custom'),
};

const loaded: Partial<ScreenRegistry> = {};

/**
 * Loads a screen kind's code ahead of rendering it. The client does this for the first screen before
 * its first render: a screen that suspends on its first mount is revealed no sooner than React's
 * fallback throttle (300 ms) allows, which would double the time to a first list.
 */
export async function loadScreen<K extends ScreenKind>(kind: K): Promise<ScreenModule<K>> {
  const module = await loaders[kind]();
  (loaded as Record<K, ComponentType<ScreenProps<K>>>)[kind] = module.default;
  return module;
}

function screenOfKind<K extends ScreenKind>(kind: K): ComponentType<ScreenProps<K>> {
  const Lazy = lazy(loaders[kind]);
  function Screen(props: ScreenProps<K>) {
    // Decided once per mount: switching between the loaded and the lazy component later would remount
    // the screen and lose what the person typed.
    const [Loaded] = useState(() => loaded[kind] as ComponentType<ScreenProps<K>> | undefined);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  Screen.displayName = `Screen(${kind})`;
  return Screen;
}

/**
 * One component per screen kind. Each kind's code loads when it is first shown, so the first page
 * downloads only what it draws; later screens load inside the router's transition, which keeps the
 * current screen in view meanwhile.
 */
export const screenComponents: ScreenRegistry = {
  list: screenOfKind('list'),
  detail: screenOfKind('detail'),
  create: screenOfKind('create'),
  edit: screenOfKind('edit'),
  dashboard: screenOfKind('dashboard'),
  'sign-in': screenOfKind('sign-in'),
  custom: screenOfKind('custom'),
};
