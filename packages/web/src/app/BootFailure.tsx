import { Alert, Button, MantineProvider, Stack } from '@mantine/core';
import { I18nProvider, useI18n } from '../i18n/I18nProvider';
import { THEME } from './theme';

/** Shown instead of a blank page when the specification cannot be loaded. */
export function BootFailure({ reason, onRetry }: { reason: string; onRetry: () => void }) {
  return (
    <MantineProvider {...THEME}>
      <I18nProvider>
        <BootFailureMessage reason={reason} onRetry={onRetry} />
      </I18nProvider>
    </MantineProvider>
  );
}

function BootFailureMessage({ reason, onRetry }: { reason: string; onRetry: () => void }) {
  const { t } = useI18n();
  return (
    <Stack p="xl" maw={640} component="main">
      <Alert color="red" title={t('shell.bootFailed')} role="alert">
        {t('shell.bootFailedDetail', { reason })}
      </Alert>
      <Button variant="default" onClick={onRetry} w="fit-content">
        {t('shell.tryAgain')}
      </Button>
    </Stack>
  );
}
