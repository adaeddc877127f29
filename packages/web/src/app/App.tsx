import { MantineProvider } from '@mantine/core';
import { actingRole, type Model, PASSWORD_PAGE_PATH, screenAt } from '@ninefold/model';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, useMemo } from 'react';
import type { Locale } from '../i18n/catalogue';
import { I18nProvider } from '../i18n/I18nProvider';
import { signInOf, signInPath } from '../session/return-path';
import { usePrincipal } from '../session/SessionContext';
import { SessionProvider } from '../session/SessionProvider';
import type { SessionStore } from '../session/session-store';
import { AboutPage } from './AboutPage';
import { basename } from './base-path';
import { LiveUpdates } from './LiveUpdates';
import { withLaterStyles } from './later-styles';
import { NotFound } from './NotFound';
import { BrowserRouter, MemoryRouter, Navigate, useLocation } from './router';
import {
  ABOUT_PATH,
  CHANGES_PATH,
  FORGOT_PASSWORD_PATH,
  homeScreen,
  IMPORT_PATH,
  OIDC_CALLBACK_PATH,
  PEOPLE_PAGE_PATH,
  SIGN_IN_PATH,
} from './routes';
import { ScreenBoundary } from './ScreenCrashed';
import { ScreenParamsProvider } from './ScreenParams';
import { ScreenRoute } from './ScreenRoute';
import { Shell } from './Shell';
import { type SpecContextValue, SpecProvider, useSpec } from './SpecContext';
import { THEME } from './theme';

// The importer (the OpenAPI reader and its worker) is loaded only by those who open its page.
const ImportPage = lazy(
  withLaterStyles(() => import('../import/ImportPage').then((module) => ({ default: module.ImportPage }))),
);
// Signing in is loaded by those who sign in; the code exchange of a provider's sign-in even more rarely.
const SignInPage = lazy(
  withLaterStyles(() => import('../session/SignInPage').then((module) => ({ default: module.SignInPage }))),
);
// The changes across records, from the audit trail: a page few people open.
const ChangesPage = lazy(withLaterStyles(() => import('../audit/ChangesPage')));
// People and the password pages decide in their own chunk whether the API serves them.
const PeopleRoutes = lazy(withLaterStyles(() => import('../people/PeopleRoutes')));
const OidcCallback = lazy(
  withLaterStyles(() =>
    import('../session/OidcCallback').then((module) => ({ default: module.OidcCallback })),
  ),
);

export interface AppProps {
  spec: SpecContextValue;
  /** Tests render at a given address in memory instead of the browser's. */
  initialPath?: string;
  locale?: Locale;
  queryClient?: QueryClient;
  /**
   * The session whose credentials `spec.data` sends (see `createSessionStore`). Without one the client
   * has nothing to sign in to: a preview, or tests of other screens.
   */
  session?: SessionStore;
}

/** The whole client for one specification: providers, then the routes built from point 2. */
export function App({ spec, initialPath, locale, queryClient, session }: AppProps) {
  const client = useMemo(() => queryClient ?? createQueryClient(), [queryClient]);
  const pages = <Pages />;
  const router = initialPath ? (
    <MemoryRouter entries={[initialPath]}>{pages}</MemoryRouter>
  ) : (
    <BrowserRouter base={basename()}>{pages}</BrowserRouter>
  );
  return (
    <MantineProvider {...THEME}>
      <I18nProvider locale={locale}>
        <QueryClientProvider client={client}>
          <SpecProvider value={spec}>
            <SessionProvider {...(session ? { session } : {})}>
              <LiveUpdates>{router}</LiveUpdates>
            </SessionProvider>
          </SpecProvider>
        </QueryClientProvider>
      </I18nProvider>
    </MantineProvider>
  );
}

/**
 * The page at the address, in the shell; a page that throws is caught inside it, so navigation keeps
 * working. Its screen is the model's in the person's language (see `SpecProvider`).
 */
function Pages() {
  const { model } = useSpec();
  const { pathname } = useLocation();
  // Signed out, the home is the visitor role's own, when point 6 names one.
  const role = actingRole(model, usePrincipal());
  return (
    <Shell>
      <ScreenBoundary>{pageAt(model, pathname, role)}</ScreenBoundary>
    </Shell>
  );
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Errors are shown where they happen. The data layer already retries what is safe to retry (reads,
      // keyed writes) with backoff and Retry-After; a second layer of retries here would multiply them.
      queries: { retry: false, staleTime: 5_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The screen of point 2 at the current address, or not-found. */
function ModelScreen() {
  const { model } = useSpec();
  const { pathname } = useLocation();
  const match = useMemo(() => screenAt(model, pathname), [model, pathname]);
  if (!match) return <NotFound />;
  return (
    <ScreenParamsProvider value={match.params}>
      <ScreenRoute key={match.screen.name} screen={match.screen} />
    </ScreenParamsProvider>
  );
}

/**
 * The home page, the page about the specification, the import page, the sign-in pages, and at every
 * other address the screen of point 2 there, which the client finds itself (see `createScreenMatcher`).
 * Fixed paths are matched as React Router did: case aside, and a trailing slash ignored.
 */
export function pageAt(model: Model, pathname: string, role?: string): ReactNode {
  const path = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  if (path === '/') {
    // The signed-in role's own home, else the product's (point 6, point 1).
    const home = homeScreen(model, role);
    if (!home) return <AboutPage asHome />;
    return home.route === '/' ? <ScreenRoute key={home.name} screen={home} /> : <Navigate to={home.route} />;
  }
  if (path === ABOUT_PATH) return <AboutPage />;
  if (path === IMPORT_PATH) return <ImportPage />;
  if (path === CHANGES_PATH) return <ChangesRoute />;
  if (path === PEOPLE_PAGE_PATH || path === PASSWORD_PAGE_PATH || path === FORGOT_PASSWORD_PATH) {
    return <PeopleRoutes path={path} fallback={<ModelScreen />} />;
  }
  const kind = signInOf(model).kind;
  if (kind !== 'none') {
    if (path === SIGN_IN_PATH && signInPath(model) === SIGN_IN_PATH) return <SignInPage />;
    if (path === OIDC_CALLBACK_PATH && (kind === 'oidc' || kind === 'oauth2')) return <OidcCallback />;
  }
  return <ModelScreen />;
}

/** The changes across records where the API keeps an audit trail (`api.audit`); elsewhere, no page. */
function ChangesRoute() {
  const { api } = useSpec();
  return api.audit ? <ChangesPage audit={api.audit} /> : <ModelScreen />;
}
