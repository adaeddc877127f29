import { Alert, Button, Stack } from '@mantine/core';
import { useMemo } from 'react';
import { useRouteError } from 'react-router';
import { useI18n } from '../i18n/I18nProvider';

/**
 * A screen that throws while rendering is replaced by this message, inside the shell, so navigation
 * keeps working. The error itself goes to the console under a reference the person can quote.
 */
export function ScreenCrashed() {
  const error = useRouteError();
  const { t } = useI18n();
  const reference = useMemo(() => Math.random().toString(36).slice(2, 10).toUpperCase(), []);
  useMemo(() => console.error(`[ninefold] screen error ${reference}`, error), [error, reference]);
  return (
    <Stack>
      <Alert color="red" title={t('shell.screenCrashed')} role="alert">
        {t('shell.screenCrashedDetail', { reference })}
      </Alert>
      <Button variant="default" onClick={() => window.location.reload()} w="fit-content">
        {t('shell.tryAgain')}
      </Button>
    </Stack>
  );
}
