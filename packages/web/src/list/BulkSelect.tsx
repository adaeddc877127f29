// Selecting records of a list and doing one thing to all of them: loaded when the person asks to select.
import { Alert, Button, Group, Modal, Progress, Text } from '@mantine/core';
import { type Entity, entityLabel, entityPlural, humanize, recordName } from '@ninefold/model';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useSpec } from '../app/SpecContext';
import type { ApiRecord, ListParams, PathValues } from '../data/data-provider';
import { addEnglish } from '../i18n/catalogue';
import { bulk } from '../i18n/en/bulk';
import { useI18n } from '../i18n/I18nProvider';
import { useSession } from '../session/SessionContext';
import { actionName, type BulkAction, bulkActions, refusal } from './bulk-plan';
import { type BulkItem, type BulkReport, runBulk } from './bulk-run';
import { collectAll, MAX_SELECTION } from './collect-all';
import type { LeadingColumnOptions } from './ListTable';

addEnglish('bulk', bulk);

export interface BulkSelectProps {
  entity: Entity;
  /** The list as shown (its filters and search choose "all matching"). */
  params: Omit<ListParams, 'signal'>;
  /** Records per request when reading every match. */
  pageSize: number | undefined;
  /** The page's records. */
  records: ApiRecord[];
  total: number | undefined;
  path: PathValues;
  /** The list's body, given the column of checkboxes. */
  render(leading: LeadingColumnOptions): ReactNode;
  onDone(): void;
}

interface Run {
  action: BulkAction;
  items: BulkItem[];
  runKey: string;
  finished: number;
  report?: BulkReport;
}

export default function BulkSelect(props: BulkSelectProps) {
  const { entity, records, total } = props;
  const { model, data } = useSpec();
  const session = useSession();
  const i18n = useI18n();
  const { t, tn } = i18n;
  const queryClient = useQueryClient();
  const calls = data.calls(entity.name);
  const actions = useMemo(() => bulkActions(model, entity, calls, session), [model, entity, calls, session]);
  const [selected, setSelected] = useState<ReadonlyMap<string, BulkItem>>(new Map());
  const [reading, setReading] = useState<number>();
  const [capped, setCapped] = useState(false);
  const [asking, setAsking] = useState<BulkAction>();
  const [run, setRun] = useState<Run>();
  const reader = useRef<AbortController>(undefined);
  useEffect(() => () => reader.current?.abort(), []);

  const plural = entityPlural(entity).toLowerCase();
  const singular = entityLabel(entity).toLowerCase();
  const itemOf = (record: ApiRecord): BulkItem | undefined => {
    const key = record[entity.key ?? 'id'];
    if (typeof key !== 'string' && typeof key !== 'number') return undefined;
    return { id: String(key), name: recordName(entity, record) ?? String(key), record };
  };
  const pageItems = records.flatMap((record) => itemOf(record) ?? []);
  const onPage = pageItems.filter((item) => selected.has(item.id)).length;
  const toggle = (items: BulkItem[], on: boolean) => {
    const next = new Map(selected);
    for (const item of items) {
      if (on) next.set(item.id, item);
      else next.delete(item.id);
    }
    setSelected(next);
  };

  const selectAll = async () => {
    reader.current?.abort();
    const controller = new AbortController();
    reader.current = controller;
    setReading(0);
    try {
      const { records: all, complete } = await collectAll(
        data,
        props.params,
        props.pageSize,
        setReading,
        controller.signal,
      );
      setSelected(new Map(all.flatMap((record) => itemOf(record) ?? []).map((item) => [item.id, item])));
      setCapped(!complete && all.length >= MAX_SELECTION);
    } catch (error) {
      if (!controller.signal.aborted) console.error(error);
    } finally {
      setReading(undefined);
    }
  };

  const label = (action: BulkAction) =>
    action.kind === 'delete'
      ? t('bulk.delete')
      : (action.transition.label ?? humanize(action.transition.name));

  const start = async (action: BulkAction, items: BulkItem[], runKey: string) => {
    setAsking(undefined);
    const now = new Date();
    const current: Run = { action, items, runKey, finished: 0 };
    setRun(current);
    const report = await runBulk({
      model,
      data,
      i18n,
      entity: entity.name,
      ...(Object.keys(props.path).length > 0 ? { path: props.path } : {}),
      action,
      items,
      runKey,
      refusal: (record) => refusal(model, entity, calls, session, i18n, action, record, now),
      onProgress: (finished) =>
        setRun((shown) => (shown?.runKey === runKey ? { ...shown, finished } : shown)),
    });
    setRun({ ...current, finished: items.length, report });
    // What was done leaves the selection; what was refused stays, to be looked at or tried again.
    const done = new Set(report.done);
    setSelected((shown) => new Map([...shown].filter(([id]) => !done.has(id))));
    await queryClient.invalidateQueries({ queryKey: ['list', entity.name] });
  };

  const leading: LeadingColumnOptions = {
    label: t('bulk.region'),
    width: '3rem',
    header: (
      <input
        type="checkbox"
        className="nf-bulk-check"
        aria-label={t('bulk.selectPage', { plural })}
        checked={pageItems.length > 0 && onPage === pageItems.length}
        ref={(element) => {
          if (element) element.indeterminate = onPage > 0 && onPage < pageItems.length;
        }}
        onChange={(event) => toggle(pageItems, event.currentTarget.checked)}
      />
    ),
    render: (record) => {
      const item = itemOf(record);
      if (!item) return null;
      return (
        <input
          type="checkbox"
          className="nf-bulk-check"
          aria-label={t('bulk.selectRow', { name: item.name })}
          checked={selected.has(item.id)}
          onChange={(event) => toggle([item], event.currentTarget.checked)}
        />
      );
    },
  };

  const count = selected.size;
  const busy = run !== undefined && run.report === undefined;
  const retryable = run?.report?.refused.filter((refused) => refused.retry) ?? [];
  return (
    <>
      <section className="nf-bulk-bar" aria-label={t('bulk.region')}>
        <Text size="sm" fw={600} role="status">
          {tn('bulk.selected', count)}
        </Text>
        {reading !== undefined ? (
          <Text size="sm" role="status">
            {t('bulk.reading', { plural, count: reading })}
          </Text>
        ) : onPage === pageItems.length && pageItems.length > 0 && (total === undefined || total > count) ? (
          <Button size="xs" variant="subtle" onClick={() => void selectAll()}>
            {total === undefined ? t('bulk.selectAllNoTotal') : t('bulk.selectAll', { total })}
          </Button>
        ) : null}
        {actions.length === 0 ? (
          <Text size="sm">{t('bulk.nothing', { plural })}</Text>
        ) : (
          <Group gap="xs">
            {actions.map((action) => (
              <Button
                key={actionName(action)}
                size="xs"
                variant={action.kind === 'delete' ? 'light' : 'default'}
                color={action.kind === 'delete' ? 'red' : undefined}
                disabled={count === 0 || busy || reading !== undefined}
                onClick={() => setAsking(action)}
              >
                {label(action)}
              </Button>
            ))}
          </Group>
        )}
        <Group gap="xs" className="nf-bulk-end">
          {count > 0 ? (
            <Button size="xs" variant="subtle" disabled={busy} onClick={() => setSelected(new Map())}>
              {t('bulk.clear')}
            </Button>
          ) : null}
          <Button size="xs" variant="default" disabled={busy} onClick={props.onDone}>
            {t('bulk.done')}
          </Button>
        </Group>
      </section>
      {capped ? (
        <Text size="sm" c="dimmed">
          {t('bulk.capped', { count: MAX_SELECTION })}
        </Text>
      ) : null}
      {run ? (
        <RunReport
          run={run}
          label={label(run.action)}
          retryable={retryable.length}
          onRetry={() =>
            void start(
              run.action,
              run.items.filter((item) => retryable.some((refused) => refused.id === item.id)),
              run.runKey,
            )
          }
          onClose={() => setRun(undefined)}
        />
      ) : null}
      {props.render(leading)}
      {asking ? (
        <Modal
          opened
          onClose={() => setAsking(undefined)}
          title={
            asking.kind === 'delete'
              ? tn('bulk.confirmDelete', count, { plural, singular })
              : tn('bulk.confirmTransition', count, { action: label(asking), plural, singular })
          }
          closeButtonProps={{ 'aria-label': t('bulk.cancel') }}
        >
          {asking.kind === 'transition' && asking.transition.confirm ? (
            <Text size="sm" mb="xs">
              {asking.transition.confirm}
            </Text>
          ) : null}
          <Text size="sm">{t('bulk.confirmBody')}</Text>
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={() => setAsking(undefined)}>
              {t('bulk.cancel')}
            </Button>
            <Button
              color={asking.kind === 'delete' ? 'red' : undefined}
              onClick={() => void start(asking, [...selected.values()], `bulk-${crypto.randomUUID()}`)}
            >
              {t('bulk.confirm')}
            </Button>
          </Group>
        </Modal>
      ) : null}
    </>
  );
}

function RunReport({
  run,
  label,
  retryable,
  onRetry,
  onClose,
}: {
  run: Run;
  label: string;
  retryable: number;
  onRetry(): void;
  onClose(): void;
}) {
  const { t, tn } = useI18n();
  const report = run.report;
  if (!report) {
    const count = run.items.length;
    return (
      <div className="nf-bulk-progress">
        <Text size="sm" id={`${run.runKey}-progress`}>
          {t('bulk.progress', { action: label, finished: run.finished, count })}
        </Text>
        <Progress
          value={count === 0 ? 100 : (run.finished / count) * 100}
          aria-labelledby={`${run.runKey}-progress`}
        />
      </div>
    );
  }
  return (
    <Alert
      color={report.refused.length === 0 ? 'green' : 'yellow'}
      role="status"
      className="nf-bulk-report"
      title={t('bulk.summary', { action: label, done: report.done.length, refused: report.refused.length })}
      withCloseButton
      closeButtonLabel={t('bulk.close')}
      onClose={onClose}
    >
      {report.refused.length > 0 ? (
        <ul className="nf-bulk-refusals" aria-label={t('bulk.refusedTitle')}>
          {report.refused.map((refused) => (
            <li key={refused.id}>
              <strong>{refused.name}</strong>: {refused.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {retryable > 0 ? (
        <Button size="xs" variant="default" mt="xs" onClick={onRetry}>
          {tn('bulk.retry', retryable)}
        </Button>
      ) : null}
    </Alert>
  );
}
