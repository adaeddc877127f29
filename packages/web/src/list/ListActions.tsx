import type { Entity, Field } from '@ninefold/model';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { withLaterStyles } from '../app/later-styles';
import { useSpec } from '../app/SpecContext';
import type { ListParams } from '../data/data-provider';
import { useI18n } from '../i18n/I18nProvider';

// What these buttons do loads when one is pressed: the list's first load carries only the buttons.
const ColumnPanel = lazy(() => import('./ColumnPanel'));
type ColumnPanelProps = import('./ColumnPanel').ColumnPanelProps;
const ImportDialog = lazy(withLaterStyles(() => import('./csv-import/ImportDialog')));

export interface ListActionsProps {
  /** The list as shown: its filters and sort are exported, every page of it. */
  params: ListParams;
  /** An export's file name without its extension (`orders`). */
  name: string;
  /** The screen's columns, in order, and the one that links to the record (never hidden). */
  columns: readonly Field[];
  locked: string | undefined;
  hidden: readonly string[];
  onHiddenChange(next: readonly string[]): void;
  /** Starts selecting records, where some could be changed together. */
  onSelect?: (() => void) | undefined;
  /** The entity a CSV file may be imported into, where the API takes one and the role may create. */
  importInto?: Entity | undefined;
  /** Rows per page and saved views, in the columns' panel. */
  paging?: ColumnPanelProps['paging'];
  views: ColumnPanelProps['views'];
}

export interface ExportState {
  busy: boolean;
  /** Said to assistive technology: under way, then done. */
  said: string;
  failed?: string;
}

/**
 * The list's tools beside its title: the columns shown (kept per person, see `useHiddenColumns`) and an
 * export of the whole filtered list as CSV, where the API makes one (the prototype API).
 */
export function ListActions({
  params,
  name,
  columns,
  locked,
  hidden,
  onHiddenChange,
  onSelect,
  importInto,
  paging,
  views,
}: ListActionsProps) {
  const { data } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const [open, setOpen] = useState(false);
  const [importing, setImporting] = useState(false);
  const [exported, setExported] = useState<ExportState>({ busy: false, said: '' });
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const exportCsv = data.exportCsv;
  const shown = columns.filter((field) => !hidden.includes(field.name)).length;
  return (
    <>
      {onSelect ? (
        <button type="button" className="nf-button nf-button-subtle" onClick={onSelect}>
          {t('list.select')}
        </button>
      ) : null}
      {columns.length > 1 ? (
        <div className="nf-columns">
          <button
            ref={button}
            type="button"
            className="nf-button nf-button-subtle"
            aria-expanded={open}
            aria-controls={open ? panelId : undefined}
            onClick={() => setOpen(!open)}
          >
            {t('list.columns', { shown, all: columns.length })}
          </button>
          {open ? (
            <Suspense fallback={null}>
              <ColumnPanel
                id={panelId}
                columns={columns}
                locked={locked}
                hidden={hidden}
                onChange={onHiddenChange}
                {...(paging ? { paging } : {})}
                views={views}
                onClose={(refocus) => {
                  setOpen(false);
                  if (refocus) button.current?.focus();
                }}
              />
            </Suspense>
          ) : null}
        </div>
      ) : null}
      {importInto ? (
        <>
          <button type="button" className="nf-button nf-button-subtle" onClick={() => setImporting(true)}>
            {t('list.importCsv')}
          </button>
          {importing ? (
            <Suspense fallback={null}>
              <ImportDialog entity={importInto} onClose={() => setImporting(false)} />
            </Suspense>
          ) : null}
        </>
      ) : null}
      {exportCsv ? (
        <>
          <button
            type="button"
            className="nf-button nf-button-subtle"
            disabled={exported.busy}
            aria-busy={exported.busy || undefined}
            onClick={() =>
              void import('./export-run').then(
                ({ runExport }) => runExport(exportCsv, params, name, i18n, setExported),
                (error: unknown) => setExported({ busy: false, said: '', failed: String(error) }),
              )
            }
          >
            {t('list.exportCsv')}
          </button>
          <span className="nf-visually-hidden" role="status">
            {exported.said}
          </span>
          {exported.failed ? (
            <p className="nf-list-export-failed" role="alert">
              {t('list.exportFailed', { reason: exported.failed })}
            </p>
          ) : null}
        </>
      ) : null}
    </>
  );
}
