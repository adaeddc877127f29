import { Alert } from '@mantine/core';
import { useScreenParams } from '../app/ScreenParams';
import { PageTitle } from '../app/Shell';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { useExtension } from '../extension/ExtensionContext';
import { OverrideBoundary } from '../extension/OverrideBoundary';
import { useI18n } from '../i18n/I18nProvider';
import type { ScreenProps } from './screen-props';

/**
 * A screen drawn by a component the team's extension names (`screens` in docs/extending.md), or a plain
 * statement that this client has no such component. One that throws shows that statement and a notice.
 */
export default function CustomScreen({ screen }: ScreenProps<'custom'>) {
  const { t } = useI18n();
  const extension = useExtension();
  const params = useScreenParams();
  useDocumentTitle(screen.title ?? screen.name);
  const screens = extension.screens;
  const Component =
    screens !== undefined && Object.hasOwn(screens, screen.component) ? screens[screen.component] : undefined;
  const missing = (
    <>
      <PageTitle>{screen.title ?? screen.name}</PageTitle>
      <Alert color="yellow">{t('shell.customScreenMissing', { component: screen.component })}</Alert>
    </>
  );
  if (!Component) return missing;
  return (
    <OverrideBoundary what={`screen ${screen.component}`} fallback={missing}>
      <Component screen={screen} params={params} />
    </OverrideBoundary>
  );
}
