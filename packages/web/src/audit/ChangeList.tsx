import { Button, Group, Skeleton, Table, Text } from '@mantine/core';
import {
  type Entity,
  exhaustiveSwitchError,
  fieldLabel,
  humanize,
  type Model,
  PERSON_AUDIT_ENTITY,
} from '@ninefold/model';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSpec } from '../app/SpecContext';
import { ApiError } from '../data/data-provider';
import { FieldDisplay } from '../fields/FieldDisplay';
import { addEnglish } from '../i18n/catalogue';
import { changes as changesMessages } from '../i18n/en/changes';
import { useI18n } from '../i18n/I18nProvider';
import { useSessionStore } from '../session/SessionProvider';
import { type ChangeEntry, type ChangesRequest, type FieldChange, readChanges } from './changes-reader';
import { personEntity } from './person-entity';

addEnglish('changes', changesMessages);

/** Which changes to read: a record's, an entity's, or all the person may see (see `readChanges`). */
export type ChangesScope = Pick<ChangesRequest, 'entity' | 'id'>;

/**
 * The changes of a scope, page by page (`pageSize` at a time, older ones on demand), read with the
 * session's credentials like every other call; a 401 asks for a sign-in over the page.
 */
export function useChanges(audit: string, scope: ChangesScope, pageSize: number, version = '') {
  const { api } = useSpec();
  const session = useSessionStore();
  return useInfiniteQuery({
    queryKey: ['_changes', scope.entity ?? '', scope.id ?? '', version],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }) => {
      const headers = session.authHeaders();
      try {
        return await readChanges({
          base: api.base,
          audit,
          ...scope,
          limit: pageSize,
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
}

/**
 * The entries read so far, newest first: what each write was, the record it wrote (`record`, on a page
 * across records), who made it where the API tells this person, when, and its fields before and after;
 * then the button for older ones. What the API leaves out is not shown, and not guessed at.
 */
export function ChangeList({
  query,
  record,
}: {
  query: ReturnType<typeof useChanges>;
  record?: (entry: ChangeEntry, entity: Entity | undefined) => ReactNode;
}) {
  const { model } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const list = query.isPending ? (
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
        const entity =
          entry.entity === PERSON_AUDIT_ENTITY
            ? personEntity(model, t)
            : model.entities.shown
              ? model.entities.items.find((candidate) => candidate.name === entry.entity)
              : undefined;
        return (
          <li key={entry.id}>
            <Text size="sm" span fw={600}>
              {actionLabel(model, entry, t)}
            </Text>
            {record ? <> {record(entry, entity)}</> : null}
            <Text size="sm" span c="dimmed">
              {' · '}
              {/* Who made it is left out where the API does not tell this role (point 6). */}
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
            {entity ? <ChangedFields entity={entity} changes={entry.changes} /> : null}
          </li>
        );
      })}
    </ol>
  );
  return (
    <>
      {list}
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
    </>
  );
}

/** What a write was, in the person's words: a transition by its label of point 4. */
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

/** The fields of one entry, each with its value before and after, shown as the field's kind reads. */
function ChangedFields({ entity, changes }: { entity: Entity; changes: readonly FieldChange[] }) {
  const { t } = useI18n();
  // The key never changes, and the store's own columns say nothing a person changed.
  const shown = changes.filter(
    (change) =>
      change.field !== (entity.key ?? 'id') && entity.fields.some((field) => field.name === change.field),
  );
  if (shown.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('changes.nothingShown')}
      </Text>
    );
  }
  // A create has no before, a delete no after: their empty column is left out.
  const withBefore = shown.some((change) => 'before' in change);
  const withAfter = shown.some((change) => 'after' in change);
  return (
    <Table fz="sm" withRowBorders={false} verticalSpacing={2} className="nf-changes-table">
      {/* The same widths in every entry, so that the values of one change line up with the next. */}
      <colgroup>
        <col className="nf-changes-field" />
        {withBefore ? <col /> : null}
        {withAfter ? <col /> : null}
      </colgroup>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('changes.field')}</Table.Th>
          {withBefore ? <Table.Th scope="col">{t('changes.before')}</Table.Th> : null}
          {withAfter ? <Table.Th scope="col">{t('changes.after')}</Table.Th> : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {shown.map((change) => {
          const field = entity.fields.find((candidate) => candidate.name === change.field);
          if (!field) return null;
          return (
            <Table.Tr key={change.field}>
              <Table.Th scope="row" fw={500}>
                {fieldLabel(field)}
              </Table.Th>
              {withBefore ? (
                <Table.Td>
                  {'before' in change ? (
                    <FieldDisplay field={field} value={change.before} entity={entity.name} place="cell" />
                  ) : null}
                </Table.Td>
              ) : null}
              {withAfter ? (
                <Table.Td>
                  {'after' in change ? (
                    <FieldDisplay field={field} value={change.after} entity={entity.name} place="cell" />
                  ) : null}
                </Table.Td>
              ) : null}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
