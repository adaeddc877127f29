import {
  ActionIcon,
  Alert,
  AppShell,
  Burger,
  Button,
  Group,
  NativeSelect,
  NavLink,
  Text,
  Title,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { Screen } from '@ninefold/spec';
import { Suspense } from 'react';
import { Link, matchPath, Outlet, useLocation } from 'react-router';
import { LOCALE_NAMES, LOCALES, type Locale } from '../i18n/catalogue';
import { useI18n } from '../i18n/I18nProvider';
import { IssueItems } from './IssueItems';
import { ABOUT_PATH, navigationScreens } from './routes';
import { useSpec } from './SpecContext';
import { useLiveReload } from './useLiveReload';

/** The frame around every screen: the product's name, navigation built from the screens, and the settings. */
export function Shell() {
  const { model, dev } = useSpec();
  const { t } = useI18n();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useLiveReload(dev?.reload ?? false);
  const screens = navigationScreens(model);
  const current = currentScreen(screens, location.pathname);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a className="nf-skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('shell.openNavigation')}
              aria-expanded={opened}
            />
            <Text component={Link} to="/" fw={700} size="lg" truncate="end" className="nf-product-name">
              {model.title ?? t('shell.untitled')}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <LanguagePicker />
            <ThemeToggle />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('shell.navigation')} component="nav">
        {screens.map((screen) => (
          <ScreenLink key={screen.name} screen={screen} active={screen === current} onNavigate={close} />
        ))}
        <NavLink
          component={Link}
          to={ABOUT_PATH}
          label={t('shell.about')}
          active={location.pathname === ABOUT_PATH}
          onClick={close}
          mt="auto"
        />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <PreviewBanner />
        <DevIssues />
        <Suspense fallback={<Text c="dimmed">{t('shell.screenLoading')}</Text>}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * The navigation entry to mark as current: the one with the longest route that the address starts
 * with, so `/customers/new` marks "New customer" and `/customers/7` marks "Customers", never both.
 */
function currentScreen(screens: Screen[], pathname: string): Screen | undefined {
  let best: Screen | undefined;
  for (const screen of screens) {
    const match = matchPath({ path: screen.route, end: screen.route === '/' }, pathname);
    if (match && (!best || screen.route.length > best.route.length)) best = screen;
  }
  return best;
}

function ScreenLink({
  screen,
  active,
  onNavigate,
}: {
  screen: Screen;
  active: boolean;
  onNavigate: () => void;
}) {
  return (
    <NavLink
      component={Link}
      to={screen.route}
      label={screen.title ?? screen.name}
      active={active}
      aria-current={active ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
}

function LanguagePicker() {
  const { t, locale, setLocale } = useI18n();
  return (
    <NativeSelect
      aria-label={t('shell.language')}
      size="xs"
      value={locale}
      onChange={(event) => setLocale(event.currentTarget.value as Locale)}
      data={LOCALES.map((value) => ({ value, label: LOCALE_NAMES[value] }))}
    />
  );
}

function ThemeToggle() {
  const { t } = useI18n();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const dark = scheme === 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      onClick={() => setColorScheme(dark ? 'light' : 'dark')}
      aria-label={dark ? t('shell.switchToLight') : t('shell.switchToDark')}
      title={dark ? t('shell.switchToLight') : t('shell.switchToDark')}
    >
      <span aria-hidden="true">{dark ? '☀' : '☾'}</span>
    </ActionIcon>
  );
}

/** A preview of an imported document says what it is and how to leave it, on every screen. */
function PreviewBanner() {
  const { preview } = useSpec();
  const { t } = useI18n();
  if (!preview) return null;
  return (
    <Alert color="blue" mb="md" role="region" aria-label={t('importer.previewLink')}>
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('importer.previewBanner', { file: preview.file })}</Text>
        <Button size="xs" variant="default" onClick={preview.end}>
          {t('importer.endPreview')}
        </Button>
      </Group>
    </Alert>
  );
}

/** In `ninefold dev`, the specification's check issues stay in view until they are fixed. */
function DevIssues() {
  const { dev } = useSpec();
  const { t, tn } = useI18n();
  if (!dev || dev.issues.length === 0) return null;
  return (
    <Alert
      color="red"
      title={`${t('shell.devIssuesTitle')} (${tn('shell.devIssuesCount', dev.issues.length)})`}
      mb="md"
    >
      <IssueItems issues={dev.issues} />
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
