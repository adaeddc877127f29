import { Alert, Button, Stack } from '@mantine/core';
import { Component, type ReactNode, useMemo } from 'react';
import { reportRuntimeError } from '../extension/report-runtime-error';
import { useI18n } from '../i18n/I18nProvider';
import { useLocation } from './router';

/**
 * The screen at the address, or `ScreenCrashed` when it throws while rendering. Going to another address
 * tries again (the boundary is keyed by it).
 */
export function ScreenBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <CatchScreen key={pathname}>{children}</CatchScreen>;
}

class CatchScreen extends Component<{ children: ReactNode }, { error?: unknown; failed: boolean }> {
  override state: { error?: unknown; failed: boolean } = { failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override render() {
    return this.state.failed ? <ScreenCrashed error={this.state.error} /> : this.props.children;
  }
}

/**
 * A screen that throws while rendering is replaced by this message, inside the shell, so navigation
 * keeps working. The error itself goes to the console under a reference the person can quote.
 */
export function ScreenCrashed({ error }: { error: unknown }) {
  const { t } = useI18n();
  const reference = useMemo(() => Math.random().toString(36).slice(2, 10).toUpperCase(), []);
  useMemo(() => {
    console.error(`[ninefold] screen error ${reference}`, error);
    reportRuntimeError('a screen', error);
  }, [error, reference]);
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
