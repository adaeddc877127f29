// What a team's extension module imports: `import { defineExtension, useNinefold } from '@ninefold/web/extension'`.
// Everything exported here is covered by the stability promise of docs/extending.md.
import { type CrudAction, checkGrant, checkScreen, type Model, type Principal } from '@ninefold/model';
import { screensOf } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import type { DataProvider, ListResult } from '../data/data-provider';
import { type I18n, useI18n } from '../i18n/I18nProvider';
import { settle } from '../screens/access-policy';
import { useSession } from '../session/SessionContext';
import { type ListOptions, listRecords } from './list-records';
import type { AnySpec, EntityName, Extension, SpecNames } from './types';

export { Link, type LinkProps, useNavigate } from '../app/router';
export type { ApiRecord, DataProvider } from '../data/data-provider';
export { ApiError, NetworkError } from '../data/data-provider';
export { ErrorNotice } from '../errors/ErrorNotice';
export { FieldDisplay } from '../fields/FieldDisplay';
// A module of its own: the rules' expression engine comes only with the code that asks for it.
export { useCan } from './can';
export type { ListOptions } from './list-records';
export type {
  ActionContext,
  ActionDefinition,
  ActionOf,
  ActionPermission,
  AnySpec,
  BrandSlotProps,
  CustomScreenProps,
  DashboardTileSlotProps,
  DetailSlotProps,
  EntityName,
  Extension,
  FieldDisplayOverrideProps,
  FieldInputOverrideProps,
  FieldName,
  FieldOverride,
  FieldOverrides,
  FieldPath,
  HeaderSlotProps,
  ListToolbarSlotProps,
  NavigationFooterSlotProps,
  RowActionsSlotProps,
  Slots,
  SpecNames,
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
export interface Ninefold<S extends SpecNames = AnySpec> {
  /** The checked model of the specification (the nine points). */
  model: Model;
  /** The data interface: every call with the session's credentials, retries and point 8's errors. */
  data: DataProvider;
  /**
   * A page of an entity's records through its list call, in the specification's names (typed with
   * `useNinefold<Spec>()`, docs/extending.md).
   *
   * @example
   * ```ts
   * const { items } = await list('Loan', { filters: [{ field: 'status', value: 'out' }], size: 10 });
   * ```
   */
  list<E extends EntityName<S>>(entity: E, options?: ListOptions<S, E>): Promise<ListResult>;
  /** Who is signed in (`{}` when nobody is): role, user id and the claims point 6 names. */
  principal: Principal;
  /** Whether point 6 grants the person an action on an entity at all (a grant's condition aside). */
  mayEver(action: CrudAction, entity: string): boolean;
  /** Whether the person may open a screen of point 2, by its name. */
  canOpen(screen: string): boolean;
  /** The client's language and formatters: amounts, dates and numbers as the built-in screens write them. */
  locale: I18n['locale'];
  format: I18n['format'];
}

/** The running client, for an extension's components (inside the client only). */
export function useNinefold<S extends SpecNames = AnySpec>(): Ninefold<S> {
  const { model, data, api } = useSpec();
  const session = useSession();
  const { locale, format } = useI18n();
  return {
    model,
    data,
    // The names were checked where the module calls it; the request is made with them as text.
    list: (entity, options = {}) => listRecords(model, api, data, entity, options as ListOptions),
    principal: session.principal,
    mayEver: (action, entity) =>
      settle(checkGrant(model, session.principal, entity, action), session).allowed,
    canOpen: (name) => {
      const screen = screensOf(model).find((candidate) => candidate.name === name);
      return screen !== undefined && settle(checkScreen(model, session.principal, screen), session).allowed;
    },
    locale,
    format,
  };
}
