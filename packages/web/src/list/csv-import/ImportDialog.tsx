// Importing a CSV file into a list: choose the file (read in a worker), see how it is read and change
// it, say which column is which field, check every row as the API would write it (dry runs, in parts),
// then import in keyed parts with a progress bar, and end with a report. Loaded when the person asks.
import { Alert, Button, Group, Modal, Radio, Select, Stack, Table, Text } from '@mantine/core';
import { type CsvEncoding, type CsvFormat, type Entity, entityLabel, entityPlural } from '@ninefold/model';
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
import { fileCheck, fileFormat, mappedColumns } from './file-check';
import { CheckReport, CommitProgress, type CommitView, type ReportContext } from './ImportReportView';
import { firstMatches, importTarget } from './import-plan';
import { ENCODING_CHOICES, ReadAsPanel } from './ReadAsPanel';
import type { CsvFile, CsvRead, ReadChoices } from './read-csv';
import { runBatches, type SendableRow } from './run-batches';

addEnglish('importCsv', importCsv);

export type CsvReader = (file: File, choices: ReadChoices) => Promise<CsvRead>;

/** Reads in a worker, so that 100,000 rows never freeze the page. */
const workerReader: CsvReader = (file, choices) =>
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
    worker.postMessage({ file, choices });
  });

type Check =
  | { status: 'running'; done: number; total: number }
  | { status: 'done'; report: ImportReport }
  | { status: 'failed'; message: string };

interface Loaded {
  source: File;
  read: CsvFile;
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
  const [readError, setReadError] = useState<{ message: string; file?: File }>();
  const [loaded, setLoaded] = useState<Loaded>();
  const [mapping, setMapping] = useState<Array<string | undefined>>([]);
  const [match, setMatch] = useState<string>('');
  const [existing, setExisting] = useState<'skip' | 'update'>('skip');
  const [chosenFormat, setChosenFormat] = useState<Partial<CsvFormat>>({});
  const [check, setCheck] = useState<Check>();
  const [commit, setCommit] = useState<CommitView>();
  const importKey = useRef('');
  const plan = useRef<ReturnType<typeof fileCheck>>(undefined);

  const choose = async (file: File | undefined, choices: ReadChoices = {}) => {
    if (!file) return;
    setReading(true);
    setReadError(undefined);
    setCheck(undefined);
    setCommit(undefined);
    const result = await read(file, choices);
    setReading(false);
    if (!result.ok) {
      setLoaded(undefined);
      // Bytes that did not decode as found: the person may say the file's encoding and read it again.
      setReadError({ message: result.message, ...(result.encodingFault ? { file } : {}) });
      return;
    }
    const { ok: _ok, ...csv } = result;
    setLoaded({ source: file, read: csv });
    // The same columns again (the file corrected and chosen anew): the person's choices stay.
    if (loaded && loaded.read.headers.join('\u0000') === result.headers.join('\u0000')) return;
    setChosenFormat({});
    const matches = firstMatches(target, result.headers);
    setMapping(matches);
    // Matched at first on a unique field the file holds: the same file run again then makes nothing twice.
    const unique = target.unique.filter((field) => matches.includes(field.name));
    setMatch((unique.find((field) => field.name !== entity.key) ?? unique[0])?.name ?? '');
  };

  const columns = useMemo(() => mappedColumns(entity, mapping), [entity, mapping]);
  const detected = useMemo(() => (loaded ? fileFormat(loaded.read, columns) : undefined), [loaded, columns]);
  const open = detected?.unsure.filter((part) => chosenFormat[part.part] === undefined) ?? [];
  const format: CsvFormat | undefined =
    detected && open.length === 0 ? { ...detected.format, ...chosenFormat } : undefined;
  const params = { entity: entity.name, existing, ...(match ? { match } : {}) };
  const failure = (error: unknown) => errorMessage(errorView(model, error, entity.name), i18n);
  const send = (part: SendableRow[], dryRun: boolean, idempotencyKey?: string) => {
    if (!importRows || !format) throw new Error('nothing to send with');
    return importRows({
      ...params,
      format,
      rows: part.map((row) => row.values),
      rowNumbers: part.map((row) => row.row),
      firstRow: part[0]?.row ?? 2,
      dryRun,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
  };

  const runCheck = async () => {
    if (!loaded || !format) return;
    setCommit(undefined);
    const { sendable, report } = fileCheck(model, entity, loaded.read, columns, format, true);
    setCheck({ status: 'running', done: 0, total: sendable.length });
    try {
      const state = await runBatches(
        (part) => send(part, true),
        sendable,
        undefined,
        report,
        (next) => setCheck({ status: 'running', done: next.done, total: sendable.length }),
      );
      setCheck({ status: 'done', report: state.report });
    } catch (error) {
      setCheck({ status: 'failed', message: failure(error) });
    }
  };

  const runCommit = async () => {
    if (!loaded || !format) return;
    const from = commit?.state;
    // Read once for the import and kept for a retry, which must send the very same parts.
    if (!from || !plan.current) {
      importKey.current = `import-${crypto.randomUUID()}`;
      plan.current = fileCheck(model, entity, loaded.read, columns, format, false);
    }
    const sendable = plan.current;
    setCommit({ ...(from ? { state: from } : {}), running: true });
    try {
      const state = await runBatches(
        (part, start) => send(part, false, `${importKey.current}-${start}`),
        sendable.sendable,
        from,
        sendable.report,
        (next) => setCommit({ state: next, running: true }),
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
  const total = plan.current?.sendable.length ?? 0;
  const finished = commit?.state !== undefined && commit.state.done >= total && !commit.running;
  const context: ReportContext | undefined = loaded
    ? {
        file: loaded.read,
        fileName: loaded.source.name,
        plural,
        singular,
        labelOf: (name) => fields.find((field) => field.value === name)?.label ?? name ?? '',
      }
    : undefined;
  const rowCount = loaded ? loaded.read.rows.length + loaded.read.faults.length : 0;
  const changed = () => {
    setCheck(undefined);
  };

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
            accept=".csv,.txt,text/csv"
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
            {readError.message}
          </Alert>
        ) : null}
        {readError?.file ? (
          <Select
            label={t('importCsv.encoding')}
            placeholder={t('importCsv.choose')}
            data={ENCODING_CHOICES}
            value={null}
            onChange={(value) =>
              value && readError.file && void choose(readError.file, { encoding: value as CsvEncoding })
            }
          />
        ) : null}
        {loaded && context && detected && !commit ? (
          <>
            <Text size="sm" role="status">
              {tn('importCsv.read', rowCount, {
                file: loaded.source.name,
                columns: loaded.read.headers.length,
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
                {loaded.read.headers.map((header, index) => (
                  // A file's columns keep their places: the place is the column.
                  // biome-ignore lint/suspicious/noArrayIndexKey: two columns may share a header
                  <Table.Tr key={`${index}-${header}`}>
                    <Table.Td>{header}</Table.Td>
                    <Table.Td className="nf-import-sample">
                      {loaded.read.rows[0]?.cells[index] ?? ''}
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`${t('importCsv.field')}: ${header}`}
                        data={fields}
                        value={mapping[index] ?? ''}
                        allowDeselect={false}
                        onChange={(value) => {
                          changed();
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
            <ReadAsPanel
              entity={entity}
              file={loaded.read}
              columns={columns}
              detected={detected}
              chosen={chosenFormat}
              format={format}
              disabled={reading || check?.status === 'running'}
              onRead={(choices) => void choose(loaded.source, choices)}
              onFormat={(next) => {
                changed();
                setChosenFormat(next);
              }}
            />
            <Group grow align="flex-start" wrap="wrap">
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
                  changed();
                  setMatch(value ?? '');
                }}
              />
              <Radio.Group
                label={t('importCsv.existingLabel')}
                value={existing}
                onChange={(value) => {
                  changed();
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
              {/* A file still being read would be checked as the one before it: wait for it. A format
                  left open is asked first. */}
              <Button
                onClick={() => void runCheck()}
                loading={check?.status === 'running'}
                disabled={reading || !format}
              >
                {t('importCsv.check')}
              </Button>
            </Group>
            {check?.status === 'running' ? (
              <Text size="sm" role="status">
                {t('importCsv.checkingProgress', {
                  done: i18n.format.number(check.done),
                  count: i18n.format.number(check.total),
                })}
              </Text>
            ) : null}
            {check?.status === 'failed' ? (
              <Alert color="red" role="alert">
                {check.message}
              </Alert>
            ) : null}
            {checked ? <CheckReport report={checked} context={context} /> : null}
            {checked && good > 0 ? (
              <Group>
                <Button onClick={() => void runCommit()}>
                  {checked.refused === 0 ? tn('importCsv.importAll', good) : tn('importCsv.importGood', good)}
                </Button>
              </Group>
            ) : null}
          </>
        ) : null}
        {commit && context ? (
          <CommitProgress
            commit={commit}
            total={total}
            finished={finished}
            context={context}
            onRetry={() => void runCommit()}
            onClose={onClose}
          />
        ) : null}
      </Stack>
    </Modal>
  );
}
