import { Alert, Button, Stack, Text } from '@mantine/core';
import { useI18n } from '../i18n/I18nProvider';
import { loadErrorText } from './load-error';

/** The list could not be loaded: why, in the API's words, and a way to try again. */
export function ListError({
  error,
  onRetry,
  retrying,
}: {
  error: unknown;
  onRetry(): void;
  retrying: boolean;
}) {
  const i18n = useI18n();
  const { message, reference } = loadErrorText(error, i18n);
  return (
    <Alert color="red" title={i18n.t('list.errorTitle')} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        {reference ? (
          <Text size="sm" c="dimmed">
            {i18n.t('list.errorReference', { reference })}
          </Text>
        ) : null}
        <Button size="xs" variant="light" color="red" onClick={onRetry} loading={retrying}>
          {i18n.t('list.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
