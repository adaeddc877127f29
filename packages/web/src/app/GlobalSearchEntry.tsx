import type { Screen } from '@ninefold/model';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { withLaterStyles } from './later-styles';
import { SHORTCUT_KEYS, TYPING } from './shortcut-keys';

// The dialog, its searches and its modal load when it is first opened: the header carries only this.
const GlobalSearch = lazy(withLaterStyles(() => import('./GlobalSearch')));
const ShortcutsHelp = lazy(withLaterStyles(() => import('./ShortcutsHelp')));

/**
 * The header's search button, and the keyboard: Ctrl+K (⌘K) from anywhere opens the search across the
 * client, `?` the help of the shortcuts, and the page's own shortcut keys do what its elements declare
 * (see `shortcut-keys.ts`, loaded with the first one pressed). One listener for every key.
 */
export function GlobalSearchEntry({ screens }: { screens: Screen[] }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || !SHORTCUT_KEYS.includes(event.key)) return;
      if (event.target instanceof Element && event.target.closest(TYPING)) return;
      event.preventDefault();
      if (event.key === '?') setHelp(true);
      else void import('./shortcut-keys').then((keys) => keys.press(event.key));
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button
        type="button"
        className="nf-header-select nf-search-button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K Meta+K"
        aria-label={t('shell.search')}
        title={t('shell.searchShortcut')}
      >
        <span className="nf-search-icon" aria-hidden="true">
          ⌕
        </span>
        <span className="nf-search-text">{t('shell.search')}</span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <GlobalSearch screens={screens} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
      {help ? (
        <Suspense fallback={null}>
          <ShortcutsHelp onClose={() => setHelp(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
