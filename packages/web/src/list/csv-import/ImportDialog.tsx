// Importing a CSV file into a list: choose the file (read in a worker), say which column is which
// field, check every row as the API would write it (a dry run), then import in keyed batches with a
// progress bar, and end with a report. Loaded when the person asks to import.
import { Alert, Button, Group, Modal, Progress, Radio, Select, Stack, Table, Text } from '@mantine/core';
import { type Entity, entityLabel, entityPlural } from '@ninefold/spec';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { useSpec } from '../../app/SpecContext';
import type { ImportReport } from '../../data/data-provider';
import { errorMessage } from '../../errors/ErrorNotice';
import { errorView } from '../../errors/error-view';
import { addEnglish } from '../../i18n/catalogue';
import { importCsv } from '../../i18n/en/importCsv';
import { useI18n } from '../../i18n/I18nProvider';
import { useSession } from '../../session/SessionContext';
import { BATCH_ROWS, type CommitState, commitRows } from './commit-rows';
import { firstMatches, importTarget } from './import-plan';
import type { CsvRead } from './read-csv';

addEnglish('importCsv', importCsv);

/** Rows with errors shown in the dialog; the report counts the rest. */
const SHOWN_ERRORS = 100;

export type CsvReader = (file: File) => Promise<CsvRead>;

/** Reads in a worker, so that 100,000 rows never freeze the page. */
const workerReader: CsvReader = (file) =>
  new Promise((resolve) => {
    const worker = new Worker(new URL('./csv.worker.ts', import.meta.url), {
      type: 'module',
      name: 'csv-import',
    });
    worker.onmessage = (event: MessageEvent<CsvRead>) => {
      resolve(event.data);
      worker.terminate();
    };
    worker.onerror = (event) => {
      resolve({ ok: false, message: `The file could not be read: ${event.message}` });
      worker.terminate();
    };
    worker.postMessage(file);
  });

type Check =
  | { status: 'running' }
  | { status: 'done'; report: ImportReport }
  | { status: 'failed'; message: string };

interface Loaded {
  file: string;
  headers: string[];
  rows: string[][];
}

export interface ImportDialogProps {
  entity: Entity;
  onClose(): void;
  read?: CsvReader;
}

export default function ImportDialog({ entity, onClose, read = workerReader }: ImportDialogProps) {
  const { model, data } = useSpec();
  const session = useSession();
  const i18n = useI18n();
  const { t, tn } = i18n;
  const queryClient = useQueryClient();
  const target = useMemo(
    () => importTarget(model, entity, session.principal),
    [model, entity, session.principal],
  );
  const importRows = data.importRows;
  const plural = entityPlural(entity).toLowerCase();
  const singular = entityLabel(entity).toLowerCase();
  const fileId = useId();

  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string>();
  const [loaded, setLoaded] = useState<Loaded>();
  const [mapping, setMapping] = useState<Array<string | undefined>>([]);
  const [match, setMatch] = useState<string>('');
  const [existing, setExisting] = useState<'skip' | 'update'>('skip');
  const [check, setCheck] = useState<Check>();
  const [commit, setCommit] = useState<{ state?: CommitState; failed?: string; running: boolean }>();
  const importKey = useRef('');

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setReading(true);
    setReadError(undefined);
    setCheck(undefined);
    setCommit(undefined);
    const result = await read(file);
    setReading(false);
    if (!result.ok) {
      setLoaded(undefined);
      setReadError(result.message);
      return;
    }
    setLoaded({ file: file.name, headers: result.headers, rows: result.rows });
    // The same columns again (the file corrected and chosen anew): the person's choices stay.
    if (loaded && loaded.headers.join('\u0000') === result.headers.join('\u0000')) return;
    const matches = firstMatches(target, result.headers);
    setMapping(matches);
    // Matched at first on a unique field the file holds: the same file run again then makes nothing twice.
    const unique = target.unique.filter((field) => matches.includes(field.name));
    setMatch((unique.find((field) => field.name !== entity.key) ?? unique[0])?.name ?? '');
  };

  const mappedRows = useMemo(
    () =>
      loaded?.rows.map((row) =>
        Object.fromEntries(mapping.flatMap((field, index) => (field ? [[field, row[index] ?? '']] : []))),
      ) ?? [],
    [loaded, mapping],
  );
  const params = { entity: entity.name, existing, ...(match ? { match } : {}) };
  const failure = (error: unknown) => errorMessage(errorView(model, error, entity.name), i18n);

  const runCheck = async () => {
    if (!importRows) return;
    setCheck({ status: 'running' });
    setCommit(undefined);
    try {
      const report = await importRows({ ...params, rows: mappedRows, dryRun: true, firstRow: 2 });
      setCheck({ status: 'done', report });
    } catch (error) {
      setCheck({ status: 'failed', message: failure(error) });
    }
  };

  const runCommit = async () => {
    if (!importRows) return;
    const from = commit?.state;
    if (!from) importKey.current = `import-${crypto.randomUUID()}`;
    setCommit({ ...(from ? { state: from } : {}), running: true });
    try {
      const state = await commitRows({ importRows }, params, mappedRows, importKey.current, from, (next) =>
        setCommit({ state: next, running: true }),
      );
      setCommit({ state, running: false });
    } catch (error) {
      setCommit((shown) => ({
        ...(shown?.state ? { state: shown.state } : {}),
        failed: failure(error),
        running: false,
      }));
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['list', entity.name] });
    }
  };

  const fields = [
    { value: '', label: t('importCsv.notImported') },
    ...target.writable.map((field) => ({ value: field.name, label: field.label })),
    ...target.unique
      .filter((field) => !target.writable.some((other) => other.name === field.name))
      .map((field) => ({ value: field.name, label: field.label })),
  ];
  const checked = check?.status === 'done' ? check.report : undefined;
  const good = checked ? checked.rows - checked.refused : 0;
  const finished = commit?.state && commit.state.done * BATCH_ROWS >= mappedRows.length && !commit.running;
  const labelOf = (name: string | undefined) =>
    fields.find((field) => field.value === name)?.label ?? name ?? '';

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('importCsv.title', { plural })}
      closeButtonProps={{ 'aria-label': t('importCsv.close') }}
    >
      <Stack gap="md">
        <div>
          <label htmlFor={fileId} className="nf-import-label">
            {t('importCsv.file')}
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${fileId}-hint`}
            disabled={reading || commit?.running}
            onChange={(event) => {
              void choose(event.currentTarget.files?.[0]);
              // The same file chosen again (corrected in place) is read again.
              event.currentTarget.value = '';
            }}
          />
          <Text size="xs" c="dimmed" id={`${fileId}-hint`}>
            {t('importCsv.fileHint')}
          </Text>
        </div>
        {reading ? (
          <Text size="sm" role="status">
            {t('importCsv.reading')}
          </Text>
        ) : null}
        {readError ? (
          <Alert color="red" role="alert">
            {readError}
          </Alert>
        ) : null}
        {loaded && !commit ? (
          <>
            <Text size="sm" role="status">
              {tn('importCsv.read', loaded.rows.length, {
                file: loaded.file,
                columns: loaded.headers.length,
              })}
            </Text>
            <Table withTableBorder aria-label={t('importCsv.columnsTitle')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('importCsv.column')}</Table.Th>
                  <Table.Th className="nf-import-sample">{t('importCsv.sample')}</Table.Th>
                  <Table.Th>{t('importCsv.field')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {loaded.headers.map((header, index) => (
                  // A file's columns keep their places: the place is the column.
                  // biome-ignore lint/suspicious/noArrayIndexKey: two columns may share a header
                  <Table.Tr key={`${index}-${header}`}>
                    <Table.Td>{header}</Table.Td>
                    <Table.Td className="nf-import-sample">{loaded.rows[0]?.[index] ?? ''}</Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`${t('importCsv.field')}: ${header}`}
                        data={fields}
                        value={mapping[index] ?? ''}
                        allowDeselect={false}
                        onChange={(value) => {
                          setCheck(undefined);
                          setMapping(mapping.map((field, at) => (at === index ? value || undefined : field)));
                          // A unique field given a column becomes what rows are matched on, if nothing is.
                          if (
                            !match &&
                            value &&
                            value !== entity.key &&
                            target.unique.some((field) => field.name === value)
                          ) {
                            setMatch(value);
                          }
                        }}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group grow align="flex-start">
              <Select
                label={t('importCsv.matchLabel', { singular })}
                data={[
                  { value: '', label: t('importCsv.matchNone', { singular }) },
                  ...target.unique
                    .filter((field) => mapping.includes(field.name))
                    .map((field) => ({ value: field.name, label: field.label })),
                ]}
                value={match}
                allowDeselect={false}
                onChange={(value) => {
                  setCheck(undefined);
                  setMatch(value ?? '');
                }}
              />
              <Radio.Group
                label={t('importCsv.existingLabel')}
                value={existing}
                onChange={(value) => {
                  setCheck(undefined);
                  setExisting(value === 'update' ? 'update' : 'skip');
                }}
              >
                <Group mt="xs">
                  <Radio value="skip" label={t('importCsv.skip')} disabled={!match} />
                  <Radio value="update" label={t('importCsv.update')} disabled={!match} />
                </Group>
              </Radio.Group>
            </Group>
            <Group>
              {/* A file still being read would be checked as the one before it: wait for it. */}
              <Button
                onClick={() => void runCheck()}
                loading={check?.status === 'running'}
                disabled={reading}
              >
                {t('importCsv.check')}
              </Button>
            </Group>
            {check?.status === 'running' ? (
              <Text size="sm" role="status">
                {tn('importCsv.checking', loaded.rows.length)}
              </Text>
            ) : null}
            {check?.status === 'failed' ? (
              <Alert color="red" role="alert">
                {check.message}
              </Alert>
            ) : null}
            {checked ? <CheckReport report={checked} labelOf={labelOf} /> : null}
            {checked && good > 0 ? (
              <Group>
                <Button onClick={() => void runCommit()}>
                  {checked.refused === 0 ? tn('importCsv.importAll', good) : tn('importCsv.importGood', good)}
                </Button>
              </Group>
            ) : null}
          </>
        ) : null}
        {commit ? (
          <CommitProgress
            commit={commit}
            total={mappedRows.length}
            finished={finished === true}
            labelOf={labelOf}
            onRetry={() => void runCommit()}
            onClose={onClose}
          />
        ) : null}
      </Stack>
    </Modal>
  );
}

function CheckReport({
  report,
  labelOf,
}: {
  report: ImportReport;
  labelOf(name: string | undefined): string;
}) {
  const { t } = useI18n();
  return (
    <Stack gap="xs">
      <Alert
        color={report.refused === 0 ? 'green' : 'yellow'}
        role="status"
        title={t('importCsv.checked', counts(report))}
      >
        {report.refused === 0 ? t('importCsv.clean') : t('importCsv.fixHint')}
      </Alert>
      <RowErrors report={report} labelOf={labelOf} />
    </Stack>
  );
}

/** Each refused row, its field and why; the columns left out and why. */
function RowErrors({ report, labelOf }: { report: ImportReport; labelOf(name: string | undefined): string }) {
  const { t } = useI18n();
  const shown = report.errors.slice(0, SHOWN_ERRORS);
  const more = report.errors.length - shown.length + report.errorsLeftOut;
  return (
    <>
      {shown.length > 0 ? (
        <div className="nf-import-errors">
          <Table withTableBorder aria-label={t('importCsv.errorsTitle')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('importCsv.row')}</Table.Th>
                <Table.Th>{t('importCsv.field')}</Table.Th>
                <Table.Th>{t('importCsv.message')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((error, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row may have two errors on one field
                <Table.Tr key={`${error.row}-${error.field ?? ''}-${index}`}>
                  <Table.Td>{error.row}</Table.Td>
                  <Table.Td>{error.field ? labelOf(error.field) : ''}</Table.Td>
                  <Table.Td>{error.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      ) : null}
      {more > 0 ? <Text size="sm">{t('importCsv.moreErrors', { count: more })}</Text> : null}
      {report.ignored.length > 0 ? (
        <Text size="sm" c="dimmed">
          {t('importCsv.ignoredTitle')}:{' '}
          {report.ignored.map((item) => `${item.column} (${item.reason})`).join('; ')}
        </Text>
      ) : null}
    </>
  );
}

function CommitProgress({
  commit,
  total,
  finished,
  labelOf,
  onRetry,
  onClose,
}: {
  commit: { state?: CommitState; failed?: string; running: boolean };
  total: number;
  finished: boolean;
  labelOf(name: string | undefined): string;
  onRetry(): void;
  onClose(): void;
}) {
  const { t } = useI18n();
  const progressId = useId();
  const done = Math.min(total, (commit.state?.done ?? 0) * BATCH_ROWS);
  const report = commit.state?.report;
  return (
    <Stack gap="xs">
      <Text size="sm" id={progressId} role="status">
        {finished && report
          ? t('importCsv.doneTitle', counts(report))
          : t('importCsv.importing', { done, count: total })}
      </Text>
      <Progress value={finished || total === 0 ? 100 : (done / total) * 100} aria-labelledby={progressId} />
      {commit.failed ? (
        <Alert color="red" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('importCsv.failed', { reason: commit.failed })}</Text>
            <Button size="xs" variant="default" onClick={onRetry}>
              {t('importCsv.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : null}
      {finished && report ? <RowErrors report={report} labelOf={labelOf} /> : null}
      {finished ? (
        <Group>
          <Button onClick={onClose}>{t('importCsv.close')}</Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function counts(report: ImportReport) {
  const { created, updated, skipped, refused } = report;
  return { created, updated, skipped, refused };
}
