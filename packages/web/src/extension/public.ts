// What a team's extension module imports: `import { defineExtension, useNinefold } from '@ninefold/web/extension'`.
// Everything exported here is covered by the stability promise of docs/extending.md.
import { type CrudAction, checkAction, type JsonValue, type Model, type Principal } from '@ninefold/spec';
import { useSpec } from '../app/SpecContext';
import type { DataProvider } from '../data/data-provider';
import { type I18n, useI18n } from '../i18n/I18nProvider';
import { settle } from '../screens/access-policy';
import { useSession } from '../session/SessionContext';
import type { Extension } from './types';

export { Link, type LinkProps, useNavigate } from '../app/router';
export type { ApiRecord, DataProvider } from '../data/data-provider';
export { ApiError, NetworkError } from '../data/data-provider';
export { ErrorNotice } from '../errors/ErrorNotice';
export { FieldDisplay } from '../fields/FieldDisplay';
export type {
  ActionContext,
  ActionDefinition,
  ActionPermission,
  BrandSlotProps,
  CustomScreenProps,
  DashboardTileSlotProps,
  DetailSlotProps,
  Extension,
  FieldDisplayOverrideProps,
  FieldInputOverrideProps,
  FieldOverride,
  FieldOverrides,
  HeaderSlotProps,
  ListToolbarSlotProps,
  NavigationFooterSlotProps,
  RowActionsSlotProps,
  Slots,
  ThemeOverride,
} from './types';

/**
 * Declares the extension: the identity function, for its types. The module's default export.
 *
 * @example
 * ```tsx
 * export default defineExtension({
 *   fields: { widgets: { stars: { display: Stars } } },
 *   theme: { primaryColor: '#0b7285' },
 * });
 * ```
 */
export function defineExtension<const E extends Extension>(extension: E): E {
  return extension;
}

/** What an extension's components may use, so that its code respects roles and errors as the built-in code does. */
export interface Ninefold {
  /** The checked model of the specification (the nine points). */
  model: Model;
  /** The data interface: every call with the session's credentials, retries and point 8's errors. */
  data: DataProvider;
  /** Who is signed in (`{}` when nobody is): role, user id and the claims point 6 names. */
  principal: Principal;
  /**
   * Whether point 6 lets the person do an action on an entity, on a given record when one is given (a
   * grant's condition). What the client allows, the prototype API enforces, so a check here is a courtesy.
   */
  can(action: CrudAction, entity: string, record?: Record<string, JsonValue>): boolean;
  /** The client's language and formatters: amounts, dates and numbers as the built-in screens write them. */
  locale: I18n['locale'];
  format: I18n['format'];
}

/** The running client, for an extension's components (inside the client only). */
export function useNinefold(): Ninefold {
  const { model, data } = useSpec();
  const session = useSession();
  const { locale, format } = useI18n();
  return {
    model,
    data,
    principal: session.principal,
    can: (action, entity, record) =>
      settle(checkAction(model, session.principal, entity, action, record), session).allowed,
    locale,
    format,
  };
}
