// The search across the client (Ctrl+K): the screens a person may open, by title, and the records of
// every list they may open whose call takes a search (point 7), each found by the API's own search.
// Loaded when first opened; the header holds only its button and shortcut (GlobalSearchEntry).
import { Loader, Modal, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  checkScreen,
  entityPlural,
  exhaustiveSwitchError,
  findEntity,
  type ListScreen,
  type Model,
  recordName,
  type Screen,
} from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import type { ApiRecord, DataProvider } from '../data/data-provider';
import { routeParamNames } from '../form/record-path';
import { addEnglish } from '../i18n/catalogue';
import { search } from '../i18n/en/search';
import { useI18n } from '../i18n/I18nProvider';
import { settle } from '../screens/access-policy';
import { type SessionValue, useSession } from '../session/SessionContext';
import { useNavigate } from './router';
import { routeTo, rowDetail } from './routes';
import { useSpec } from './SpecContext';
import './global-search.css';

addEnglish('search', search);

/** Records shown per list: enough to pick one, few enough to see every list's at once. */
const PER_LIST = 5;
/** Typing waits this long before the lists are asked. */
const SEARCH_DEBOUNCE_MS = 250;

interface Option {
  id: string;
  label: string;
  /** Under the label: the list it comes from, or "Screen". */
  note: string;
  href: string;
}

export default function GlobalSearch({ screens, onClose }: { screens: Screen[]; onClose(): void }) {
  const { t } = useI18n();
  const { model, data } = useSpec();
  const session = useSession();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [wanted] = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const listId = useId();

  const lists = useMemo(() => searchableLists(model, data, screens), [model, data, screens]);
  // One query for every list, each list's answer or failure kept apart (one failing list hides no other).
  const results = useQuery({
    queryKey: ['nf-global-search', lists.map((screen) => screen.name), wanted],
    enabled: wanted !== '',
    staleTime: 10_000,
    queryFn: ({ signal }) =>
      Promise.allSettled(
        lists.map((screen) =>
          data.list({
            entity: screen.entity,
            page: firstPage(data, screen.entity),
            sort: [],
            filters: [],
            search: wanted,
            signal,
          }),
        ),
      ),
  });
  const options: Option[] = [];
  const lower = text.trim().toLowerCase();
  for (const screen of screens) {
    const title = screen.title ?? screen.name;
    if (lower !== '' && title.toLowerCase().includes(lower)) {
      options.push({
        id: `screen-${screen.name}`,
        label: title,
        note: t('search.screen'),
        href: screen.route,
      });
    }
  }
  const groups = lists.map((screen, index) => {
    const result = results.data?.[index];
    const entity = findEntity(model, screen.entity);
    const plural = entity ? entityPlural(entity) : screen.entity;
    const records = (result?.status === 'fulfilled' ? result.value.items : []).slice(0, PER_LIST);
    for (const [n, record] of records.entries()) {
      options.push({
        id: `${screen.name}-${n}`,
        label: (entity && recordName(entity, record)) ?? '—',
        note: plural,
        href: recordHref(model, session, screen, record) ?? listHref(screen, wanted),
      });
    }
    if (records.length > 0) {
      options.push({
        id: `${screen.name}-all`,
        label: t('search.allIn', { list: screen.title ?? plural }),
        note: plural,
        href: listHref(screen, wanted),
      });
    }
    return { screen, failed: result?.status === 'rejected' };
  });
  const current = Math.min(active, options.length - 1);
  const pending = wanted !== '' && results.isFetching;
  const failed = groups
    .filter((group) => group.failed)
    .map((group) => group.screen.title ?? group.screen.name);

  const open = (option: Option | undefined) => {
    if (!option) return;
    onClose();
    navigate(option.href);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (options.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      open(options[current]);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('shell.search')}
      size="lg"
      className="nf-global-search"
      closeButtonProps={{ 'aria-label': t('search.close') }}
    >
      <input
        className="nf-input nf-global-search-input"
        type="search"
        role="combobox"
        aria-label={t('search.label')}
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={options[current] ? `${listId}-${options[current].id}` : undefined}
        placeholder={t('search.placeholder')}
        value={text}
        // biome-ignore lint/a11y/noAutofocus: the dialog opens to be typed in
        autoFocus
        onChange={(event) => {
          setText(event.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <div className="nf-global-search-status" role="status">
        {pending ? <Loader size="xs" aria-hidden /> : null}
        {pending
          ? t('search.pending')
          : lower === ''
            ? lists.length > 0
              ? t('search.hint', { lists: lists.map((list) => list.title ?? list.name).join(', ') })
              : t('search.screensOnly')
            : options.length === 0
              ? t('search.nothing', { text: text.trim() })
              : ''}
      </div>
      {failed.length > 0 ? (
        <Text size="sm" c="red">
          {t('search.failed', { lists: failed.join(', ') })}
        </Text>
      ) : null}
      <div className="nf-global-search-options" id={listId} role="listbox" aria-label={t('search.results')}>
        {options.map((option, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input takes the keys (arrows, Enter)
          <div
            key={option.id}
            tabIndex={-1}
            id={`${listId}-${option.id}`}
            role="option"
            aria-selected={index === current}
            className="nf-global-search-option"
            onMouseEnter={() => setActive(index)}
            onClick={() => open(option)}
          >
            <span className="nf-global-search-label">{option.label}</span>
            <span className="nf-global-search-note">{option.note}</span>
          </div>
        ))}
      </div>
    </Modal>
  );
}

/** The list screens, among those the person may open, whose entity's list call takes a search. */
function searchableLists(model: Model, data: DataProvider, screens: Screen[]): ListScreen[] {
  const seen = new Set<string>();
  return screens.filter((screen): screen is ListScreen => {
    if (screen.kind !== 'list' || seen.has(screen.entity)) return false;
    if (data.calls(screen.entity).list?.search === undefined || !findEntity(model, screen.entity))
      return false;
    seen.add(screen.entity);
    return true;
  });
}

/** The first page of the entity's list call, in its style, as small as it may be. */
function firstPage(data: DataProvider, entity: string) {
  const style = data.calls(entity).list?.pagination?.style ?? 'none';
  switch (style) {
    case 'page':
      return { style, page: 1, size: PER_LIST } as const;
    case 'offset':
      return { style, offset: 0, limit: PER_LIST } as const;
    case 'cursor':
      return { style, size: PER_LIST } as const;
    case 'link-header':
      return { style, page: 1, size: PER_LIST } as const;
    case 'none':
      return { style } as const;
    default:
      return exhaustiveSwitchError(style);
  }
}

function recordHref(
  model: Model,
  session: SessionValue,
  list: ListScreen,
  record: ApiRecord,
): string | undefined {
  const detail = rowDetail(model, list.entity, list.route);
  const key = record[findEntity(model, list.entity)?.key ?? 'id'];
  if (!detail || (typeof key !== 'string' && typeof key !== 'number')) return undefined;
  if (!settle(checkScreen(model, session.principal, detail), session).allowed) return undefined;
  const last = routeParamNames(detail.route).at(-1);
  if (last === undefined) return undefined;
  const href = routeTo(detail.route, { [last]: key });
  return href.includes('/:') ? undefined : href;
}

function listHref(list: ListScreen, text: string): string {
  return `${list.route}?${new URLSearchParams({ q: text })}`;
}
