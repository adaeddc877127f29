import { type Field, fieldLabel } from '@ninefold/spec';
import { useEffect, useRef } from 'react';
import { useI18n } from '../i18n/I18nProvider';

export interface ColumnPanelProps {
  id: string;
  columns: readonly Field[];
  /** The column that opens the record: it stays, or no row could be opened. */
  locked: string | undefined;
  hidden: readonly string[];
  onChange(next: readonly string[]): void;
  /** Closes the panel; `refocus` gives the focus back to its button (Escape). */
  onClose(refocus: boolean): void;
}

/** The columns of a list, each shown or not by the person's choice, under the "Columns" button. */
export default function ColumnPanel({ id, columns, locked, hidden, onChange, onClose }: ColumnPanelProps) {
  const { t } = useI18n();
  const panel = useRef<HTMLFieldSetElement>(null);
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
    <fieldset
      id={id}
      ref={panel}
      className="nf-columns-panel"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose(true);
      }}
    >
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
  );
}
