import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { type Entity, entityLabel, entityPlural } from '@ninefold/spec';
import { Link } from 'react-router';
import { screenFor } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { ApiError, NetworkError } from '../data/data-provider';
import { useI18n } from '../i18n/I18nProvider';

/**
 * Why a record could not be shown: it does not exist (a 404 is a clear state of its own, with the way
 * back to the list), the network failed, or the API refused. Only the problem's title and detail are
 * shown, never a raw answer.
 */
export function LoadFailure({
  error,
  entity,
  id,
  onRetry,
}: {
  error: unknown;
  entity: Entity;
  id: string | undefined;
  onRetry: () => void;
}) {
  const { model } = useSpec();
  const { t } = useI18n();
  const list = screenFor(model, 'list', entity.name);
  const back = list ? (
    <Anchor component={Link} to={list.route}>
      {t('form.backToList', { list: list.title ?? entityPlural(entity) })}
    </Anchor>
  ) : null;
  const name = entityLabel(entity);
  if (id === undefined || (error instanceof ApiError && error.status === 404)) {
    return (
      <Stack gap="sm">
        <Title order={1} size="h2">
          {t('form.notFoundTitle', { entity: name })}
        </Title>
        <Text>{t('form.notFoundText', { entity: name, id: id ?? '' })}</Text>
        {back}
      </Stack>
    );
  }
  return (
    <Stack gap="sm" align="flex-start">
      <Alert color="red" title={t('form.loadFailed', { entity: name })} w="100%">
        {error instanceof NetworkError ? (
          <Text size="sm">{t('form.loadNetworkFailed')}</Text>
        ) : error instanceof ApiError ? (
          <Text size="sm">{error.detail ?? error.title}</Text>
        ) : null}
      </Alert>
      <Button variant="default" onClick={onRetry}>
        {t('form.retry')}
      </Button>
      {back}
    </Stack>
  );
}
