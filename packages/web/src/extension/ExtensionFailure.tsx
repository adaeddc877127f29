import { useSpec } from '../app/SpecContext';
import { useI18n } from '../i18n/I18nProvider';

/**
 * An extension module that could not be loaded is said on every screen, in plain text: the client still
 * works with its built-in screens, and the team must know why theirs are not there.
 */
export function ExtensionFailure() {
  const { extension } = useSpec();
  const { t } = useI18n();
  if (extension?.failure === undefined) return null;
  return (
    <p className="nf-override-failed nf-extension-failure" role="alert">
      <span aria-hidden="true">⚠ </span>
      {t('extension.notLoaded', { reason: extension.failure })}
    </p>
  );
}
