import { saveBlob } from '../app/save-blob';
import type { DataProvider, ListParams } from '../data/data-provider';
import type { I18n } from '../i18n/I18nProvider';
import type { ExportState } from './ListActions';
import { loadErrorText } from './load-error';

/** Downloads the whole list as CSV, saying so as it goes, and why not if it fails. */
export async function runExport(
  exportCsv: NonNullable<DataProvider['exportCsv']>,
  params: ListParams,
  name: string,
  i18n: I18n,
  set: (state: ExportState) => void,
): Promise<void> {
  const { t } = i18n;
  set({ busy: true, said: t('list.exporting') });
  try {
    const { signal: _page, ...asked } = params;
    saveBlob(await exportCsv(asked), `${name}.csv`);
    set({ busy: false, said: t('list.exported', { file: `${name}.csv` }) });
  } catch (error) {
    set({ busy: false, said: '', failed: loadErrorText(error, i18n).message });
  }
}
