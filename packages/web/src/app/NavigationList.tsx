import { AppShell, NavLink, ScrollArea, Text, TextInput } from '@mantine/core';
import type { Screen } from '@ninefold/spec';
import { useState } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../i18n/I18nProvider';
import { ABOUT_PATH } from './routes';

/** Above this many entries the navigation offers a box to filter them by name. */
export const NAVIGATION_FILTER_FROM = 15;

/**
 * The navigation's entries in a part of its own that scrolls, so that every one is reachable however many
 * there are (an imported API has dozens); "About this client" stays at the bottom, outside the scroll.
 * Above NAVIGATION_FILTER_FROM entries, a box filters them by name.
 */
export function NavigationList({
  screens,
  current,
  aboutActive,
  onNavigate,
}: {
  screens: Screen[];
  current: Screen | undefined;
  aboutActive: boolean;
  onNavigate: () => void;
}) {
  const { t } = useI18n();
  const [filter, setFilter] = useState('');
  const wanted = filter.trim().toLowerCase();
  const shown =
    wanted === '' ? screens : screens.filter((screen) => labelOf(screen).toLowerCase().includes(wanted));
  return (
    <>
      {screens.length > NAVIGATION_FILTER_FROM ? (
        <AppShell.Section mb="xs">
          <TextInput
            type="search"
            size="xs"
            aria-label={t('shell.filterNavigation')}
            placeholder={t('shell.filterNavigation')}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
        </AppShell.Section>
      ) : null}
      <AppShell.Section grow component={ScrollArea} type="auto" scrollbarSize={8}>
        {shown.map((screen) => (
          <NavLink
            key={screen.name}
            component={Link}
            to={screen.route}
            label={labelOf(screen)}
            active={screen === current}
            aria-current={screen === current ? 'page' : undefined}
            onClick={onNavigate}
          />
        ))}
        {shown.length === 0 && wanted !== '' ? (
          <Text size="sm" c="dimmed" px="sm" role="status">
            {t('shell.noNavigationMatch', { text: filter.trim() })}
          </Text>
        ) : null}
      </AppShell.Section>
      <AppShell.Section pt={4} mt={4} style={{ borderTop: '1px solid var(--app-shell-border-color)' }}>
        <NavLink
          component={Link}
          to={ABOUT_PATH}
          label={t('shell.about')}
          active={aboutActive}
          onClick={onNavigate}
        />
      </AppShell.Section>
    </>
  );
}

function labelOf(screen: Screen): string {
  return screen.title ?? screen.name;
}
