import type { Screen } from '@ninefold/spec';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { withLaterStyles } from './later-styles';

// The dialog, its searches and its modal load when it is first opened: the header carries only this.
const GlobalSearch = lazy(withLaterStyles(() => import('./GlobalSearch')));

/** The header's search button, and Ctrl+K (⌘K) from anywhere, which open the search across the client. */
export function GlobalSearchEntry({ screens }: { screens: Screen[] }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
      }
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
    </>
  );
}
