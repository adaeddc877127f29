import { Text } from '@mantine/core';
import type { Screen } from '@ninefold/model';
import { type ReactNode, useState } from 'react';
import { Slot } from '../extension/Slot';
import { useI18n } from '../i18n/I18nProvider';
import { Link } from './router';
import { ABOUT_PATH, CHANGES_PATH, PEOPLE_PAGE_PATH } from './routes';
import './plain-inputs.css';

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
  changes,
  people,
  onNavigate,
}: {
  screens: Screen[];
  current: Screen | undefined;
  aboutActive: boolean;
  /** Whether the changes across records are offered, and whether they are on view. */
  changes?: { active: boolean } | undefined;
  /** Whether managing people is offered, and whether it is on view. */
  people?: { active: boolean } | undefined;
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
    <NavEntry
      key={screen.name}
      to={screen.route}
      label={labelOf(screen)}
      current={screen === current}
      onNavigate={onNavigate}
    />
  );
  return (
    <>
      {screens.length > NAVIGATION_FILTER_FROM ? (
        <div className="nf-nav-section" style={{ marginBottom: 'var(--mantine-spacing-xs)' }}>
          {/* A plain input (plain-inputs.css): Mantine's brought its whole input family into every page. */}
          <input
            type="search"
            className="nf-input"
            data-size="xs"
            aria-label={t('shell.filterNavigation')}
            placeholder={t('shell.filterNavigation')}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
          />
        </div>
      ) : null}
      {/* The browser's own scrolling: Mantine's ScrollArea brought a positioning library into every
          first load for a scrollbar. */}
      <div className="nf-nav-section nf-nav-scroll" data-grow>
        {groupScreens(shown).map(({ group, screens: members }) =>
          group === undefined ? (
            members.map(link)
          ) : (
            <NavGroup
              key={`group:${group}`}
              label={group.charAt(0).toUpperCase() + group.slice(1)}
              open={isOpen(group, members)}
              onToggle={(open) => toggle(group, open)}
            >
              {members.map(link)}
            </NavGroup>
          ),
        )}
        {shown.length === 0 && wanted !== '' ? (
          <Text size="sm" c="dimmed" px="sm" role="status">
            {t('shell.noNavigationMatch', { text: filter.trim() })}
          </Text>
        ) : null}
      </div>
      <div className="nf-nav-section nf-nav-foot">
        <Slot name="navigationFooter" props={{}} />
        {changes ? (
          <NavEntry
            to={CHANGES_PATH}
            label={t('shell.changes')}
            current={changes.active}
            onNavigate={onNavigate}
          />
        ) : null}
        {people ? (
          <NavEntry
            to={PEOPLE_PAGE_PATH}
            label={t('shell.people')}
            current={people.active}
            onNavigate={onNavigate}
          />
        ) : null}
        <NavEntry to={ABOUT_PATH} label={t('shell.about')} current={aboutActive} onNavigate={onNavigate} />
      </div>
    </>
  );
}

function NavEntry({
  to,
  label,
  current,
  onNavigate,
}: {
  to: string;
  label: string;
  current: boolean;
  onNavigate: () => void;
}) {
  return (
    <Link
      className="nf-nav-link"
      to={to}
      data-active={current || undefined}
      aria-current={current ? 'page' : undefined}
      onClick={onNavigate}
    >
      <span className="nf-nav-label">{label}</span>
    </Link>
  );
}

/** A group's heading, a button (reachable by keyboard, announced as one) that shows or hides its entries. */
function NavGroup({
  label,
  open,
  onToggle,
  children,
}: {
  label: string;
  open: boolean;
  onToggle: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <>
      <button
        type="button"
        className="nf-nav-link nf-nav-group"
        aria-expanded={open}
        onClick={() => onToggle(!open)}
      >
        <span className="nf-nav-label">{label}</span>
        <span className="nf-nav-chevron" aria-hidden="true">
          ›
        </span>
      </button>
      {open ? <div className="nf-nav-children">{children}</div> : null}
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
