import type { Model } from '@ninefold/model';
import { type ApiWire, apiOf } from '@ninefold/model';
import { useLayoutEffect, useMemo } from 'react';
import { App, createQueryClient } from '../app/App';
import { setBasename } from '../app/base-path';
import { connect } from '../app/connect';
import { applyBrand, clearBrand } from '../extension/brand-theme';
import { readExtension } from '../extension/loaded';
import type { Extension } from '../extension/types';
import type { Locale } from '../i18n/catalogue';

export interface NinefoldAppProps {
  /** The checked model: `import shop from './shop.md?ninefold'` (`@ninefold/react/vite`) gives it as `shop.model`. */
  model: Model;
  /**
   * The calls and where they go, as the plugin gives them (`shop.api`). Without it the client makes the
   * calls of point 7 at its Base URL, or at `/api`.
   */
  api?: ApiWire;
  /** The team's overrides, slots, actions and brand: what `defineExtension` returns (docs/extending.md). */
  extensions?: Extension;
  /** Where the client is mounted in the app's addresses: `/admin`. The app's root by default. */
  basename?: string;
  /** A fixed language; by default the person's choice, else the browser's. */
  locale?: Locale;
}

/**
 * The generated client as a component of a team's own React app: the same screens, rules and data layer
 * `ninefold serve` gives, mounted below `basename`. The app owns the page around it; the client owns the
 * addresses below its base (it uses the browser's history, so mount one per page).
 *
 * @example
 * ```tsx
 * import shop from './shop.md?ninefold';
 * <NinefoldApp {...shop} extensions={ui} basename="/admin" />
 * ```
 */
export function NinefoldApp({ model, api, extensions, basename = '/', locale }: NinefoldAppProps) {
  // Set during render, before the router below reads it.
  setBasename(basename);
  const running = useMemo(() => {
    const calls = apiOf(model, api ?? ownCalls(model));
    return { model, api: calls, ...connect(model, calls), queryClient: createQueryClient() };
  }, [model, api]);
  const extension = useMemo(() => readExtension({ default: extensions }), [extensions]);
  const brand = model.product.shown ? model.product.theme : undefined;
  const theme = extension.extension.theme;
  // The brand's variables on the page's root, where Mantine's dialogs and menus (in portals) read them
  // too; taken off again when the client goes.
  useLayoutEffect(() => {
    if (!brand && !theme) return;
    const merged = { ...brand, ...theme };
    applyBrand(merged);
    return () => clearBrand(merged);
  }, [brand, theme]);
  return (
    <App
      spec={{ model: running.model, api: running.api, data: running.data, extension, embedded: true }}
      queryClient={running.queryClient}
      session={running.session}
      {...(locale ? { locale } : {})}
    />
  );
}

/** Point 7's calls at its Base URL (or `/api`), for a model given without the plugin's `api`. */
function ownCalls(model: Model): ApiWire {
  const base = (model.calls.shown ? model.calls.baseUrl : undefined) ?? '/api';
  return { base, conventional: false };
}
