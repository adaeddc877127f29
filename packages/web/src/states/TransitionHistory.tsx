import { Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { humanize, type StateMachine } from '@ninefold/model';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useSpec } from '../app/SpecContext';
import { ApiError } from '../data/data-provider';
import { addEnglish } from '../i18n/catalogue';
import { drafts } from '../i18n/en/drafts';
import { form as formMessages } from '../i18n/en/form';
import { useI18n } from '../i18n/I18nProvider';
import { useSessionStore } from '../session/SessionProvider';
import { type HistoryEntry, readHistory } from './history-reader';

addEnglish('form', formMessages);

addEnglish('drafts', drafts);

export interface TransitionHistoryProps {
  machine: StateMachine;
  entity: string;
  id: string;
  /** The API's history path, relative to its base (`/_history`). */
  history: string;
  /** The record's version: a transition taken changes it, and the history is read again. */
  version: string | undefined;
}

/**
 * The transitions a record went through, newest first, each with who took it and when, as the
 * prototype API recorded them. Read with the session's credentials, like every other call.
 */
export function TransitionHistory({ machine, entity, id, history, version }: TransitionHistoryProps) {
  const { api } = useSpec();
  const i18n = useI18n();
  const { t } = i18n;
  const session = useSessionStore();
  const headingId = useId();
  const query = useQuery({
    queryKey: [entity, 'history', id, version ?? ''],
    queryFn: async ({ signal }) => {
      const headers = session.authHeaders();
      try {
        return await readHistory({ base: api.base, history, entity, id, headers, signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) session.unauthorized(error, headers);
        throw error;
      }
    },
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
  });
  const stateLabel = (name: string) =>
    machine.states.find((state) => state.name === name)?.label ?? (name === '' ? '—' : humanize(name));
  const transitionLabel = (name: string) =>
    machine.transitions.find((transition) => transition.name === name)?.label ?? humanize(name);
  const who = (entry: HistoryEntry) => entry.by?.email ?? entry.by?.id;

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {t('drafts.historyHeading')}
      </Title>
      {query.isPending ? (
        <Skeleton height={20} width="60%" />
      ) : query.isError ? (
        <Group gap="sm">
          <Text size="sm" c="red">
            {t('drafts.historyFailed')}
          </Text>
          <Button size="compact-sm" variant="default" onClick={() => void query.refetch()}>
            {t('form.retry')}
          </Button>
        </Group>
      ) : query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('drafts.historyEmpty')}
        </Text>
      ) : (
        <ol style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
          {withKeys(query.data).map(({ entry, key }) => {
            const by = who(entry);
            return (
              <li key={key}>
                <Text size="sm" span fw={600}>
                  {t('drafts.historyStep', {
                    transition: transitionLabel(entry.transition),
                    from: stateLabel(entry.from),
                    to: stateLabel(entry.to),
                  })}
                </Text>
                <Text size="sm" span c="dimmed">
                  {' · '}
                  {/* Who took it is left out where the API does not tell this role (point 6). */}
                  {entry.by === undefined ? null : (
                    <>
                      {by ? t('drafts.historyBy', { who: by }) : t('drafts.historyAnonymous')}
                      {' · '}
                    </>
                  )}
                  <time dateTime={entry.at}>{i18n.format.datetime(entry.at)}</time>
                </Text>
              </li>
            );
          })}
        </ol>
      )}
    </Stack>
  );
}

/** Entries with a key each: their time and transition, numbered when two are the same. */
function withKeys(entries: readonly HistoryEntry[]): Array<{ entry: HistoryEntry; key: string }> {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const base = `${entry.at}|${entry.transition}|${entry.from}|${entry.to}`;
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return { entry, key: count === 0 ? base : `${base}|${count}` };
  });
}
