import { Alert } from '@mantine/core';
import { PageTitle } from '../app/Shell';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { customScreens } from '../custom/registry';
import { useI18n } from '../i18n/I18nProvider';
import type { ScreenProps } from './screen-props';

/** A screen drawn by a registered custom component, or a plain statement that this build lacks it. */
export default function CustomScreen({ screen }: ScreenProps<'custom'>) {
  const { t } = useI18n();
  useDocumentTitle(screen.title ?? screen.name);
  const Component = Object.hasOwn(customScreens, screen.component)
    ? customScreens[screen.component]
    : undefined;
  if (Component) return <Component screen={screen} />;
  return (
    <>
      <PageTitle>{screen.title ?? screen.name}</PageTitle>
      <Alert color="yellow">{t('shell.customScreenMissing', { component: screen.component })}</Alert>
    </>
  );
}
