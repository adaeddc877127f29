import { ErrorNotice } from '../errors/ErrorNotice';
import { useI18n } from '../i18n/I18nProvider';

/**
 * The list could not be loaded: the catalogue's message for the failure (point 8) or generic words with a
 * reference, never a raw answer, and a way to try again.
 */
export function ListError({
  error,
  entity,
  onRetry,
  retrying,
}: {
  error: unknown;
  entity?: string;
  onRetry(): void;
  retrying: boolean;
}) {
  const { t } = useI18n();
  return (
    <ErrorNotice
      error={error}
      title={t('list.errorTitle')}
      onRetry={onRetry}
      // Reading the list again is what "reload" means here; the page need not start over.
      onReload={onRetry}
      retrying={retrying}
      {...(entity === undefined ? {} : { entity })}
    />
  );
}
