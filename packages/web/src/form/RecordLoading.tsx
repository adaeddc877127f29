import { Group, Loader, Text } from '@mantine/core';
import { useI18n } from '../i18n/I18nProvider';

/** While a record loads: a spinner with words, announced politely. */
export function RecordLoading() {
  const { t } = useI18n();
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" />
      <Text>{t('form.loading')}</Text>
    </Group>
  );
}
