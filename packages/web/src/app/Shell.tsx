import {
  Alert,
  Button,
  Group,
  Text,
  Title,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import {
  actingRole,
  checkScreen,
  type DevIssue,
  type Model,
  managesPeople,
  type Principal,
  type Screen,
  screenAt,
} from '@ninefold/model';
import { type ReactNode, Suspense, useMemo } from 'react';
import { OfflineBanner } from '../errors/OfflineBanner';
import { useExtension } from '../extension/ExtensionContext';
import { ExtensionFailure } from '../extension/ExtensionFailure';
import { Slot } from '../extension/Slot';
import { FeedbackHost } from '../feedback/FeedbackHost';
import { LOCALE_NAMES, LOCALES, type Locale } from '../i18n/catalogue';
import { useI18n } from '../i18n/I18nProvider';
import { signInRedirect } from '../session/return-path';
import { type SessionState, useSession } from '../session/SessionContext';
import { SessionExpiredDialog } from '../session/SessionExpiredDialog';
import { SessionHeader } from '../session/SessionHeader';
import { GlobalSearchEntry } from './GlobalSearchEntry';
import { IssueItems } from './IssueItems';
import './shell.css';
import { devIssuesTitle } from './dev-issues-title';
import { NavigationList } from './NavigationList';
import { Link, Navigate, useLocation } from './router';
import { ABOUT_PATH, CHANGES_PATH, navigationScreens, PEOPLE_PAGE_PATH } from './routes';
import { useSpec } from './SpecContext';
import { useLiveReload } from './useLiveReload';

/**
 * The frame around every screen: the product's name, navigation built from the screens the person may
 * open, the session, and the settings. A screen that needs signing in, opened while nobody is signed in,
 * sends the person to the sign-in page and back.
 */
export function Shell({ children }: { children: ReactNode }) {
  const { model, api, dev, embedded } = useSpec();
  const { t } = useI18n();
  const { state, principal } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const narrow = useMediaQuery(NARROW_HEADER, false, { getInitialValueInEffect: false });
  const location = useLocation();
  const liveIssues = useLiveReload(dev?.reload ?? false);
  const all = useMemo(() => navigationScreens(model), [model]);
  const screens = useMemo(
    () => openableScreens(model, state, principal, all),
    [model, state, principal, all],
  );
  const current = currentScreen(screens, location.pathname);
  const here = `${location.pathname}${location.search}`;
  // At `/`, the screen is the acting role's home: a visitor's own, not the product's they may not open.
  const screen = screenAt(model, location.pathname, actingRole(model, principal))?.screen;
  const redirect = signInRedirect(model, state, principal, screen, here);
  const title = model.title ?? t('shell.untitled');
  // The brand's colours are a stylesheet (the extension's) or set by main.tsx (point 1's); the logo is
  // drawn here, the extension's over point 1's.
  const logo = useExtension().theme?.logo ?? (model.product.shown ? model.product.theme?.logo : undefined);
  return (
    // The frame is the page's own grid (shell.css): Mantine's AppShell brought a resizing handle, a
    // scroll lock and a collapse animation into every first load for a header and a side bar.
    <div className="nf-shell" data-nav-opened={opened || undefined} data-embedded={embedded || undefined}>
      <a className="nf-skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      {/* Plain elements styled in shell.css: the header is drawn on every first load, and Mantine's
          components (a group, a burger, a select and an action icon) were a fifth of a list's first render. */}
      <header className="nf-shell-header">
        <div className="nf-shell-header-start">
          <button
            type="button"
            className="nf-burger"
            onClick={toggle}
            aria-label={t('shell.openNavigation')}
            aria-expanded={opened}
          >
            <span aria-hidden="true" />
          </button>
          <Slot name="brand" props={{ title }}>
            <Link to="/" className="nf-product-name">
              {logo ? <img className="nf-logo" src={logo} alt="" /> : null}
              {title}
            </Link>
          </Slot>
        </div>
        <div className="nf-shell-header-end">
          <Slot name="header" props={{}} />
          <GlobalSearchEntry screens={screens} />
          <SessionHeader />
          {narrow ? null : <HeaderSettings />}
        </div>
      </header>
      <nav className="nf-shell-nav" aria-label={t('shell.navigation')}>
        <NavigationList
          screens={screens}
          current={current}
          aboutActive={location.pathname === ABOUT_PATH}
          changes={
            // Only the prototype API keeps an audit trail; anyone who may read may see their part of it.
            // A specification that stores nothing has nothing to change.
            api.audit && state.status !== 'signed-out' && storesRecords(model)
              ? { active: location.pathname === CHANGES_PATH }
              : undefined
          }
          people={
            // The API serves people to those whose role point 6 says manages them; nobody else sees the entry.
            api.accounts && managesPeople(model, principal)
              ? { active: location.pathname === PEOPLE_PAGE_PATH }
              : undefined
          }
          onNavigate={close}
        />
        {/* On a phone the language and the theme are here, not in the header, where they left the
            product's name its first letter. One pair is drawn, so a label names one control. */}
        {narrow ? <HeaderSettings /> : null}
      </nav>
      <main className="nf-shell-main" id="main" tabIndex={-1}>
        <PreviewBanner />
        {__NINEFOLD_EXTENSION__ ? <ExtensionFailure /> : null}
        <OfflineBanner />
        <DevIssues live={liveIssues} />
        <Suspense fallback={<Text c="dimmed">{t('shell.screenLoading')}</Text>}>
          {redirect === undefined ? children : <Navigate to={redirect} />}
        </Suspense>
      </main>
      <SessionExpiredDialog />
      <FeedbackHost />
    </div>
  );
}

/**
 * The entries a person may open. With a session, entries the rules refuse are left out; a person signed
 * in with a role the API did not tell keeps those refused only for want of a role, which the API
 * decides. Without any sign-in, nobody could ever have a role, so nothing is left out.
 */
function openableScreens(
  model: Model,
  state: SessionState,
  principal: Principal,
  screens: Screen[],
): Screen[] {
  if (state.status === 'none') return screens;
  const roleUnknown = state.status === 'signed-in' && principal.role === undefined;
  return screens.filter((screen) => {
    const verdict = checkScreen(model, principal, screen);
    return verdict.allowed || (roleUnknown && verdict.reason === 'not-signed-in');
  });
}

/**
 * The navigation entry to mark as current: the one with the longest route that the address starts
 * with, so `/customers/new` marks "New customer" and `/customers/7` marks "Customers", never both.
 */
function currentScreen(screens: Screen[], pathname: string): Screen | undefined {
  let best: Screen | undefined;
  for (const screen of screens) {
    if (routeLeadsTo(screen.route, pathname) && (!best || screen.route.length > best.route.length))
      best = screen;
  }
  return best;
}

/** Whether `pathname` is at `route` or below it, segment by segment; `/` leads only to itself. */
function routeLeadsTo(route: string, pathname: string): boolean {
  const routeParts = route.split('/').filter(Boolean);
  const pathParts = pathname.split('/').filter(Boolean);
  if (routeParts.length === 0) return pathParts.length === 0;
  if (pathParts.length < routeParts.length) return false;
  return routeParts.every(
    (part, index) => part.startsWith(':') || part.toLowerCase() === pathParts[index]?.toLowerCase(),
  );
}

/** Below this width the header keeps the product's name, the search and the session only. */
const NARROW_HEADER = '(max-width: 36em)';

function HeaderSettings() {
  return (
    <div className="nf-header-settings">
      <LanguagePicker />
      <ThemeToggle />
    </div>
  );
}

function LanguagePicker() {
  const { t, locale, setLocale } = useI18n();
  return (
    <select
      className="nf-header-select"
      aria-label={t('shell.language')}
      value={locale}
      onChange={(event) => setLocale(event.currentTarget.value as Locale)}
    >
      {LOCALES.map((value) => (
        <option key={value} value={value}>
          {LOCALE_NAMES[value]}
        </option>
      ))}
    </select>
  );
}

function ThemeToggle() {
  const { t } = useI18n();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const dark = scheme === 'dark';
  const label = dark ? t('shell.switchToLight') : t('shell.switchToDark');
  return (
    <button
      type="button"
      className="nf-icon-button"
      onClick={() => setColorScheme(dark ? 'light' : 'dark')}
      aria-label={label}
      title={label}
    >
      <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
    </button>
  );
}

/** A preview of an imported document says what it is and how to leave it, on every screen. */
function PreviewBanner() {
  const { preview } = useSpec();
  const { t } = useI18n();
  if (!preview) return null;
  return (
    <Alert color="blue" mb="md" role="region" aria-label={t('shell.previewLink')}>
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('shell.previewBanner', { file: preview.file })}</Text>
        <Button size="xs" variant="default" onClick={preview.end}>
          {t('shell.endPreview')}
        </Button>
      </Group>
    </Alert>
  );
}

/**
 * In `ninefold dev`, the specification's and the extension module's issues stay in view until they are
 * fixed: those the page loaded with, then those the server tells it since (`live`).
 */
function DevIssues({ live }: { live: readonly DevIssue[] | undefined }) {
  const { dev } = useSpec();
  const { t, tn } = useI18n();
  const issues = live ?? dev?.issues ?? [];
  if (!dev || issues.length === 0) return null;
  return (
    <Alert
      color="red"
      title={`${t(devIssuesTitle(issues))} (${tn('shell.devIssuesCount', issues.length)})`}
      mb="md"
    >
      <IssueItems issues={issues} />
    </Alert>
  );
}

export function PageTitle({ children }: { children: string }) {
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  );
}

/** Whether any entity of point 3 is stored as records of its own, which writes can change. */
function storesRecords(model: Model): boolean {
  return model.entities.shown && model.entities.items.some((entity) => !entity.embedded);
}
