import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useI18n } from '../i18n/I18nProvider';
import { Link, useLocation } from './router';
import { useDocumentTitle } from './useDocumentTitle';

export function NotFound() {
  const { t } = useI18n();
  const location = useLocation();
  useDocumentTitle(t('shell.notFoundTitle'));
  return (
    <Stack gap="sm">
      <Title order={1} size="h2">
        {t('shell.notFoundTitle')}
      </Title>
      <Text>{t('shell.notFoundText', { path: location.pathname })}</Text>
      <Anchor component={Link} to="/">
        {t('shell.goHome')}
      </Anchor>
    </Stack>
  );
}
