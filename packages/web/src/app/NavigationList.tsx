import { AppShell, NavLink, Text, TextInput } from '@mantine/core';
import type { Screen } from '@ninefold/spec';
import { useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { Link } from './router';
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
  // What the person opened or closed; otherwise a short navigation shows every group open, and a long
  // one only the group of the screen on view.
  const [chosen, setChosen] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const toggle = (group: string, open: boolean) => setChosen((before) => new Map(before).set(group, open));
  const isOpen = (group: string, members: Screen[]) =>
    wanted !== '' ||
    (chosen.get(group) ??
      (screens.length <= NAVIGATION_FILTER_FROM || (current !== undefined && members.includes(current))));
  const link = (screen: Screen) => (
    <NavLink
      key={screen.name}
      component={Link}
      to={screen.route}
      label={labelOf(screen)}
      active={screen === current}
      aria-current={screen === current ? 'page' : undefined}
      onClick={onNavigate}
    />
  );
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
      {/* The browser's own scrolling: Mantine's ScrollArea brought a positioning library into every
          first load for a scrollbar. */}
      <AppShell.Section grow className="nf-nav-scroll">
        {groupScreens(shown).map(({ group, screens: members }) =>
          group === undefined ? (
            members.map(link)
          ) : (
            <NavLink
              key={`group:${group}`}
              // A button, not an anchor without an address: reachable by keyboard, announced as one.
              component="button"
              type="button"
              label={group.charAt(0).toUpperCase() + group.slice(1)}
              opened={isOpen(group, members)}
              onChange={(open) => toggle(group, open)}
              childrenOffset="sm"
            >
              {members.map(link)}
            </NavLink>
          ),
        )}
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

/**
 * The navigation's entries in their groups (an imported document's tags), each group where its first
 * screen is. A group of one screen is that screen alone: a heading over a single link only lengthens
 * the list.
 *
 * @example
 * groupScreens([orders, invoices, users]); // [{ group: 'billing', screens: [orders, invoices] }, { screens: [users] }]
 */
export function groupScreens(screens: Screen[]): Array<{ group?: string; screens: Screen[] }> {
  const members = new Map<string, Screen[]>();
  for (const screen of screens) {
    if (screen.group === undefined) continue;
    const together = members.get(screen.group);
    if (together === undefined) members.set(screen.group, [screen]);
    else together.push(screen);
  }
  const out: Array<{ group?: string; screens: Screen[] }> = [];
  const placed = new Set<string>();
  for (const screen of screens) {
    const group = screen.group;
    const together = group === undefined ? undefined : members.get(group);
    if (group === undefined || together === undefined || together.length < 2) out.push({ screens: [screen] });
    else if (!placed.has(group)) {
      placed.add(group);
      out.push({ group, screens: together });
    }
  }
  return out;
}

function labelOf(screen: Screen): string {
  return screen.title ?? screen.name;
}
