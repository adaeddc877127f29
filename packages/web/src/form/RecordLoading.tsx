import { Group, Loader, Text } from '@mantine/core';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';

addEnglish('form', formMessages);

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
