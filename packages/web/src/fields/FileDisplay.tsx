import { Anchor, Text } from '@mantine/core';
import { isStoredFile } from '../form/form-values';
import { useI18n } from '../i18n/I18nProvider';
import type { DisplayProps } from './display-props';
import { textOf } from './display-props';
import { formatBytes } from './format-bytes';
import { safeHref } from './safe-href';

/** A stored file: its name and size, and a download link when the API gives an address for it. */
export function FileDisplay({ value }: DisplayProps<'file'>) {
  const { t, locale } = useI18n();
  if (!isStoredFile(value)) return <Text span>{textOf(value)}</Text>;
  const text =
    typeof value.size === 'number'
      ? t('form.fileDescription', { name: value.name, size: formatBytes(value.size, locale) })
      : value.name;
  const href = value.url ? safeHref(value.url, { sameSite: true }) : undefined;
  if (!href) return <Text span>{text}</Text>;
  return (
    <Anchor href={href} download={value.name} aria-label={t('form.download', { name: value.name })}>
      {text}
    </Anchor>
  );
}
