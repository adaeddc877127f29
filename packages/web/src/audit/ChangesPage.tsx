import { Anchor, Button, Group, NativeSelect, Skeleton, Stack, Text, Title } from '@mantine/core';
import {
  checkAction,
  type Entity,
  entityLabel,
  entityPlural,
  exhaustiveSwitchError,
  findEntity,
  humanize,
  type Model,
} from '@ninefold/model';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from '../app/router';
import { routeTo, screenFor } from '../app/routes';
import { useSpec } from '../app/SpecContext';
import { saveBlob } from '../app/save-blob';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { ApiError } from '../data/data-provider';
import { addEnglish } from '../i18n/catalogue';
import { changes as changesMessages } from '../i18n/en/changes';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { useSessionStore } from '../session/SessionProvider';
import { type ChangeEntry, changesCsv, readChanges } from './changes-reader';
import { ChangedFields } from './RecordChanges';

addEnglish('changes', changesMessages);

const PAGE = 25;

/**
 * Every change the person may see across records, newest first (the prototype API's audit trail): what
 * was written, to which record, by whom where the API tells them, and when; narrowed to one entity, and
 * downloaded as CSV. The API decides what each entry shows; this page shows what it is given.
 */
export default function ChangesPage({ audit }: { audit: string }) {
  const { model, api } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const session = useSessionStore();
  const { principal } = useSession();
  const [entity, setEntity] = useState('');
  const [exporting, setExporting] = useState(false);
  useDocumentTitle(t('changes.heading'));
  const readable = (model.entities.shown ? model.entities.items : []).filter(
    (candidate) => !candidate.embedded && checkAction(model, principal, candidate.name, 'read').allowed,
  );
  const query = useInfiniteQuery({
    queryKey: ['_changes', entity],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }) => {
      const headers = session.authHeaders();
      try {
        return await readChanges({
          base: api.base,
          audit,
          ...(entity === '' ? {} : { entity }),
          limit: PAGE,
          ...(pageParam === undefined ? {} : { before: pageParam }),
          headers,
          signal,
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) session.unauthorized(error, headers);
        throw error;
      }
    },
    getNextPageParam: (page) => page.next,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const download = async () => {
    setExporting(true);
    try {
      const blob = await changesCsv({
        base: api.base,
        audit,
        ...(entity === '' ? {} : { entity }),
        headers: session.authHeaders(),
      });
      saveBlob(blob, `changes${entity ? `-${entity}` : ''}.csv`);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="md">
      <Title order={1}>{t('changes.heading')}</Title>
      <Group align="end" gap="sm">
        <NativeSelect
          label={t('changes.of')}
          value={entity}
          onChange={(event) => setEntity(event.currentTarget.value)}
          data={[
            { value: '', label: t('changes.everything') },
            ...readable.map((candidate) => ({ value: candidate.name, label: entityPlural(candidate) })),
          ]}
        />
        <Button variant="default" loading={exporting} onClick={() => void download()}>
          {t('changes.download')}
        </Button>
      </Group>
      {query.isPending ? (
        <Skeleton height={20} width="60%" />
      ) : query.isError && entries.length === 0 ? (
        <Group gap="sm">
          <Text size="sm" c="red">
            {t('changes.failed')}
          </Text>
          <Button size="compact-sm" variant="default" onClick={() => void query.refetch()}>
            {t('changes.retry')}
          </Button>
        </Group>
      ) : entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('changes.empty')}
        </Text>
      ) : (
        <ol className="nf-changes">
          {entries.map((entry) => {
            const written = findEntity(model, entry.entity);
            return (
              <li key={entry.id}>
                <Text size="sm" span fw={600}>
                  {actionLabel(model, entry, t)}
                </Text>{' '}
                <RecordLink model={model} entity={written} entry={entry} />
                <Text size="sm" span c="dimmed">
                  {' · '}
                  {entry.by === undefined ? null : (
                    <>
                      {entry.by?.name || entry.by?.id
                        ? t('changes.by', { who: entry.by.name || entry.by.id || '' })
                        : t('changes.anonymous')}
                      {' · '}
                    </>
                  )}
                  <time dateTime={entry.at}>{i18n.format.datetime(entry.at)}</time>
                </Text>
                {written ? <ChangedFields entity={written} changes={entry.changes} /> : null}
              </li>
            );
          })}
        </ol>
      )}
      {query.hasNextPage ? (
        <Group>
          <Button
            size="compact-sm"
            variant="default"
            loading={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {t('changes.older')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** The record an entry wrote, linked to its page while it has one (a deleted record has none). */
function RecordLink({
  model,
  entity,
  entry,
}: {
  model: Model;
  entity: Entity | undefined;
  entry: ChangeEntry;
}) {
  const label = `${entity ? entityLabel(entity) : humanize(entry.entity)} ${entry.key}`;
  const detail = entity ? screenFor(model, 'detail', entity.name) : undefined;
  if (!detail || entry.action === 'delete') {
    return (
      <Text size="sm" span>
        {label}
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={routeTo(detail.route, { id: entry.key })} size="sm">
      {label}
    </Anchor>
  );
}

function actionLabel(model: Model, entry: ChangeEntry, t: ReturnType<typeof useI18n>['t']): string {
  switch (entry.action) {
    case 'create':
      return t('changes.created');
    case 'update':
      return t('changes.updated');
    case 'delete':
      return t('changes.deleted');
    case 'transition': {
      const name = entry.transition ?? '';
      const machine = model.states.shown
        ? model.states.machines.find((candidate) => candidate.entity === entry.entity)
        : undefined;
      return machine?.transitions.find((transition) => transition.name === name)?.label ?? humanize(name);
    }
    default:
      return exhaustiveSwitchError(entry.action);
  }
}
