import { useState } from 'react';
import { useSpec } from '../app/SpecContext';
import { saveBlob } from '../app/save-blob';
import type { ListParams } from '../data/data-provider';
import { useI18n } from '../i18n/I18nProvider';
import { loadErrorText } from './load-error';

export interface ExportButtonProps {
  /** The list as shown: its filters and sort are exported, every page of it. */
  params: ListParams;
  /** The file's name without its extension (`orders`). */
  name: string;
}

/**
 * Downloads the list as a CSV file the API makes, with what the role may read only. Shown where the API
 * makes one (the prototype API); it says when the file is ready, and why not when it fails.
 */
export function ExportButton({ params, name }: ExportButtonProps) {
  const { data } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const [state, setState] = useState<{ busy: boolean; said: string; failed?: string }>({
    busy: false,
    said: '',
  });
  const exportCsv = data.exportCsv;
  if (!exportCsv) return null;
  const run = async () => {
    setState({ busy: true, said: t('list.exporting') });
    try {
      const { signal: _signal, ...asked } = params;
      saveBlob(await exportCsv(asked), `${name}.csv`);
      setState({ busy: false, said: t('list.exported', { file: `${name}.csv` }) });
    } catch (error) {
      setState({ busy: false, said: '', failed: loadErrorText(error, i18n).message });
    }
  };
  return (
    <>
      <button
        type="button"
        className="nf-button nf-button-subtle"
        onClick={() => void run()}
        disabled={state.busy}
        aria-busy={state.busy || undefined}
      >
        {t('list.exportCsv')}
      </button>
      <span className="nf-visually-hidden" role="status">
        {state.said}
      </span>
      {state.failed ? (
        <p className="nf-list-export-failed" role="alert">
          {t('list.exportFailed', { reason: state.failed })}
        </p>
      ) : null}
    </>
  );
}
