import { Button, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useSpec } from '../app/SpecContext';
import type { NetworkStatus } from '../data/network-status';
import { useI18n } from '../i18n/I18nProvider';
import { useOnline } from './useOnline';

const noStatus = () => () => {};

/**
 * Says, on every screen, that the device is offline (`navigator.onLine`), that requests get no answer
 * (the data layer's own finding), and offers to try the failed reads again; or that live updates are
 * paused because their stream dropped (it reconnects by itself). It sits in a polite live
 * region that is always there, so that a screen reader announces it appearing and the connection coming
 * back without taking the person's focus.
 */
export function OfflineBanner() {
  const { data } = useSpec();
  const { t } = useI18n();
  const online = useOnline();
  const reachable = useReachable(data.network);
  const live = useLive(data.network);
  const queryClient = useQueryClient();
  const state = !online ? 'offline' : !reachable ? 'unreachable' : live === 'lost' ? 'live-lost' : 'ok';
  const [recovered, setRecovered] = useState(false);
  const previous = useRef(state);
  useEffect(() => {
    if (previous.current !== 'ok' && state === 'ok') setRecovered(true);
    if (state !== 'ok') setRecovered(false);
    previous.current = state;
  }, [state]);

  return (
    <div role="status" aria-live="polite" aria-atomic="true">
      {state === 'ok' ? (
        recovered ? (
          <VisuallyHidden>{t('errors.backOnline')}</VisuallyHidden>
        ) : null
      ) : state === 'live-lost' ? (
        <Paper withBorder p="sm" mb="md" bg="var(--mantine-color-yellow-light)">
          <Stack gap={2}>
            <Text fw={600} size="sm">
              {t('errors.liveLostTitle')}
            </Text>
            <Text size="sm">{t('errors.liveLost')}</Text>
          </Stack>
        </Paper>
      ) : (
        <Paper withBorder p="sm" mb="md" bg="var(--mantine-color-yellow-light)">
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Stack gap={2}>
              <Text fw={600} size="sm">
                {state === 'offline' ? t('errors.offlineTitle') : t('errors.unreachableTitle')}
              </Text>
              <Text size="sm">{state === 'offline' ? t('errors.offline') : t('errors.unreachable')}</Text>
            </Stack>
            <Button
              size="xs"
              variant="default"
              // Any answer shows the server is back; the reads that failed are the ones worth asking for.
              onClick={() => void queryClient.refetchQueries({ type: 'active' })}
            >
              {t('errors.checkAgain')}
            </Button>
          </Group>
        </Paper>
      )}
    </div>
  );
}

/** The events stream's state, when one is followed: a dropped one is said, like a lost server. */
function useLive(network: NetworkStatus | undefined) {
  return useSyncExternalStore(
    network?.subscribe ?? noStatus,
    () => network?.getSnapshot().live,
    () => undefined,
  );
}

function useReachable(network: NetworkStatus | undefined): boolean {
  return useSyncExternalStore(
    network?.subscribe ?? noStatus,
    () => network?.getSnapshot().reachable ?? true,
    () => true,
  );
}
