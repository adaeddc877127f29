import { Anchor, Stack, Text, Title } from '@mantine/core';
import { type Entity, entityLabel, entityPlural } from '@ninefold/model';
import { Link } from '../app/router';
import { screenFor } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { ApiError } from '../data/data-provider';
import { ErrorNotice } from '../errors/ErrorNotice';
import { useErrorView } from '../errors/useErrorView';
import { addEnglish } from '../i18n/catalogue';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';

addEnglish('form', formMessages);

/**
 * Why a record could not be shown: it does not exist (a 404 is a clear state of its own, with the way
 * back to the list), the network failed, or the API refused. The error catalogue's message is shown where
 * it covers the failure (point 8), generic words with a reference where it does not; never a raw answer.
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
  const missing = id === undefined || (error instanceof ApiError && error.status === 404);
  const view = useErrorView(missing ? error : undefined, entity.name);
  const list = screenFor(model, 'list', entity.name);
  const back = list ? (
    <Anchor component={Link} to={list.route}>
      {t('form.backToList', { list: list.title ?? entityPlural(entity) })}
    </Anchor>
  ) : null;
  const name = entityLabel(entity);
  if (missing) {
    return (
      <Stack gap="sm">
        <Title order={1} size="h2">
          {t('form.notFoundTitle', { entity: name })}
        </Title>
        <Text>{view?.message ?? t('form.notFoundText', { entity: name, id: id ?? '' })}</Text>
        {back}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <ErrorNotice
        error={error}
        entity={entity.name}
        title={t('form.loadFailed', { entity: name })}
        onRetry={onRetry}
        onReload={onRetry}
        networkMessage={t('form.loadNetworkFailed')}
        {...(list ? { backTo: list.route } : {})}
      />
      {back}
    </Stack>
  );
}
