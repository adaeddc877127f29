import { type Field, fieldLabel, type Pagination, resolveAmount } from '@ninefold/model';
import { useEffect, useId, useRef, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import { addEnglish } from '../i18n/catalogue';
import { views as viewsMessages } from '../i18n/en/views';
import { useI18n } from '../i18n/I18nProvider';
import { readViews, type SavedView, withView, writeViews } from './saved-views';

addEnglish('views', viewsMessages);

/** Rows per page a person may pick, where the call takes no fewer and allows no more. */
const PAGE_SIZES = [10, 25, 50, 100];

export interface ColumnPanelProps {
  id: string;
  columns: readonly Field[];
  /** The column that opens the record: it stays, or no row could be opened. */
  locked: string | undefined;
  hidden: readonly string[];
  onChange(next: readonly string[]): void;
  /** Closes the panel; `refocus` gives the focus back to its button (Escape). */
  onClose(refocus: boolean): void;
  /** Rows per page: the list's, and the person's choice (undefined: the screen's own). */
  paging?: {
    pagination: Pagination;
    screenSize: number;
    chosen: number | undefined;
    onChange(size: number | undefined): void;
  };
  /** Views saved under a name, kept per person and screen; `current` is the list as it is now. */
  views: {
    screen: string;
    person: string | undefined;
    current: Omit<SavedView, 'name'>;
    onApply(view: SavedView): void;
  };
}

/** The columns of a list, each shown or not by the person's choice, under the "Columns" button. */
export default function ColumnPanel({
  id,
  columns,
  locked,
  hidden,
  onChange,
  onClose,
  paging,
  views,
}: ColumnPanelProps) {
  const { t } = useI18n();
  const { model } = useSpec();
  const panel = useRef<HTMLDivElement>(null);
  const [saved, setSaved] = useState(() => readViews(views.screen, views.person));
  const [name, setName] = useState('');
  const [refused, setRefused] = useState(false);
  const sizeId = useId();
  const nameId = useId();
  const keep = (next: SavedView[]) => {
    setSaved(next);
    setRefused(!writeViews(views.screen, views.person, next));
  };
  const max =
    paging && 'maxSize' in paging.pagination
      ? resolveAmount(model, paging.pagination.maxSize)?.value
      : undefined;
  const sizes = paging
    ? [...new Set([...PAGE_SIZES, paging.screenSize])]
        .filter((size) => typeof max !== 'number' || size <= max)
        .sort((a, b) => a - b)
    : [];
  // A click elsewhere closes the panel, as a menu's would; its own button toggles it.
  useEffect(() => {
    const away = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.parentElement?.contains(target)) onClose(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [onClose]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the panel closes it, as a menu's would
    <div
      id={id}
      ref={panel}
      className="nf-columns-panel"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose(true);
      }}
    >
      <fieldset className="nf-columns-set">
        <legend className="nf-columns-legend">{t('list.columnsShown')}</legend>
        {columns.map((field) => (
          <label key={field.name} className="nf-columns-option">
            <input
              type="checkbox"
              checked={field.name === locked || !hidden.includes(field.name)}
              disabled={field.name === locked}
              onChange={(event) =>
                onChange(
                  event.currentTarget.checked
                    ? hidden.filter((name) => name !== field.name)
                    : [...hidden, field.name],
                )
              }
            />
            {fieldLabel(field)}
          </label>
        ))}
        {hidden.length > 0 ? (
          <button type="button" className="nf-columns-reset" onClick={() => onChange([])}>
            {t('list.showAllColumns')}
          </button>
        ) : null}
      </fieldset>
      {paging && sizes.length > 1 ? (
        <div className="nf-columns-set">
          <label htmlFor={sizeId} className="nf-columns-legend">
            {t('views.rowsPerPage')}
          </label>
          <select
            id={sizeId}
            className="nf-input"
            value={paging.chosen ?? paging.screenSize}
            onChange={(event) => {
              const size = Number(event.currentTarget.value);
              paging.onChange(size === paging.screenSize ? undefined : size);
            }}
          >
            {sizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <fieldset className="nf-columns-set">
        <legend className="nf-columns-legend">{t('views.savedViews')}</legend>
        {saved.length === 0 ? <p className="nf-columns-note">{t('views.noSavedViews')}</p> : null}
        {saved.map((view) => (
          <div key={view.name} className="nf-saved-view">
            <button type="button" className="nf-columns-reset" onClick={() => views.onApply(view)}>
              {view.name}
            </button>
            <button
              type="button"
              className="nf-saved-view-delete"
              aria-label={t('views.deleteView', { name: view.name })}
              onClick={() => keep(saved.filter((other) => other.name !== view.name))}
            >
              ×
            </button>
          </div>
        ))}
        <form
          className="nf-saved-view-form"
          onSubmit={(event) => {
            event.preventDefault();
            const named = name.trim();
            if (named === '') return;
            keep(withView(saved, { name: named, ...views.current }));
            setName('');
          }}
        >
          <label htmlFor={nameId} className="nf-visually-hidden">
            {t('views.viewName')}
          </label>
          <input
            id={nameId}
            className="nf-input"
            placeholder={t('views.viewName')}
            value={name}
            maxLength={80}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <button type="submit" className="nf-button nf-button-subtle" disabled={name.trim() === ''}>
            {t('views.saveView')}
          </button>
        </form>
        {refused ? (
          <p className="nf-columns-note" role="alert">
            {t('views.viewsNotKept')}
          </p>
        ) : null}
      </fieldset>
    </div>
  );
}
