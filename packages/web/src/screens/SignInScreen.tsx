import { Alert } from '@mantine/core';
import { PageTitle } from '../app/Shell';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useI18n } from '../i18n/I18nProvider';
import type { ScreenProps } from './screen-props';

/**
 * The specification describes a sign-in screen, but this runtime cannot sign in yet. It says so rather
 * than drawing a form that would pretend to work.
 */
export default function SignInScreen({ screen }: ScreenProps<'sign-in'>) {
  const { t } = useI18n();
  useDocumentTitle(screen.title ?? screen.name);
  return (
    <>
      <PageTitle>{screen.title ?? screen.name}</PageTitle>
      <Alert color="yellow">{t('shell.signInNotAvailable')}</Alert>
    </>
  );
}
