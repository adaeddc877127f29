import { Anchor, Button, Card, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { entityPlural, findEntity, type ListScreen } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from '../app/router';
import { useSpec } from '../app/SpecContext';
import type { ListParams } from '../data/data-provider';
import { useI18n } from '../i18n/I18nProvider';
import { countOf, countRequest } from './count-request';
import { listQueryKey } from './list-query-key';
import { loadErrorText } from './load-error';

/** A dashboard tile: a list screen's title, how many records it holds, and the way to it. */
export function DashboardTile({ screen }: { screen: ListScreen }) {
  const { model, data } = useSpec();
  const i18n = useI18n();
  const { t, format } = i18n;
  const entity = findEntity(model, screen.entity);
  const title = screen.title ?? (entity ? entityPlural(entity) : screen.name);
  const call = data.calls(screen.entity).list;
  // A list below a parameterized route (a nested collection) has no single count to show here.
  const countable = call !== undefined && !screen.route.includes(':');
  const params: Omit<ListParams, 'signal'> = {
    entity: screen.entity,
    page: countRequest(call?.pagination),
    sort: [],
    filters: [],
  };
  const query = useQuery({
    queryKey: listQueryKey(params),
    queryFn: ({ signal }) => data.list({ ...params, signal }),
    enabled: countable,
  });
  const count = query.data ? countOf(call?.pagination, query.data) : undefined;

  let body: ReactNode;
  if (!countable) {
    body = (
      <Text size="sm" c="dimmed">
        {t('list.tileNoCall')}
      </Text>
    );
  } else if (query.isError) {
    body = (
      <Stack gap="xs" align="flex-start">
        <Text size="sm" c="red">
          {t('list.tileFailed', { message: loadErrorText(query.error, i18n).message })}
        </Text>
        <Button size="xs" variant="light" onClick={() => void query.refetch()} loading={query.isFetching}>
          {t('list.retry')}
        </Button>
      </Stack>
    );
  } else if (!query.data) {
    body = (
      <div role="status">
        <VisuallyHidden>{t('list.tileCounting')}</VisuallyHidden>
        <Skeleton height={36} width={96} aria-hidden="true" />
      </div>
    );
  } else if (count === undefined) {
    body = (
      <>
        <Text fz={32} fw={700} lh={1.2} aria-hidden="true">
          —
        </Text>
        <Text size="sm" c="dimmed">
          {t('list.tileNoTotal')}
        </Text>
      </>
    );
  } else {
    body = (
      <Text fz={32} fw={700} lh={1.2}>
        <VisuallyHidden>{t('list.tileTotal')}: </VisuallyHidden>
        {format.number(count)}
      </Text>
    );
  }

  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {screen.route.includes(':') ? (
            title
          ) : (
            <Anchor component={Link} to={screen.route} inherit>
              {title}
            </Anchor>
          )}
        </Title>
        {body}
      </Stack>
    </Card>
  );
}
