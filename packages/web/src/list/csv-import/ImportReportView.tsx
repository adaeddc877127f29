// What a check or an import found: the counts, every refused row with every fault (a page at a time,
// all of them reachable), the rows with errors as a file to mend and import again, and the columns left
// out. Formats its counts one way, in the person's language.
import { Alert, Button, Group, Pagination, Progress, Stack, Table, Text } from '@mantine/core';
import { faultyRowsCsv } from '@ninefold/model';
import { useId, useState } from 'react';
import { saveBlob } from '../../app/save-blob';
import type { ImportReport } from '../../data/data-provider';
import { addEnglish } from '../../i18n/catalogue';
import { importCsv } from '../../i18n/en/importCsv';
import { useI18n } from '../../i18n/I18nProvider';
import type { CsvFile } from './read-csv';
import type { BatchState } from './run-batches';

addEnglish('importCsv', importCsv);

/** Errors a page shows. */
const PAGE_ERRORS = 100;

export interface ReportContext {
  file: CsvFile;
  fileName: string;
  plural: string;
  singular: string;
  labelOf(name: string | undefined): string;
}

export function CheckReport({ report, context }: { report: ImportReport; context: ReportContext }) {
  const { t } = useI18n();
  const counts = useCounts(report);
  return (
    <Stack gap="xs">
      <Alert
        color={report.refused === 0 ? 'green' : 'yellow'}
        role="status"
        title={t('importCsv.checked', counts)}
      >
        {report.refused === 0 ? t('importCsv.clean') : t('importCsv.fixHint')}
      </Alert>
      <RowErrors report={report} context={context} />
    </Stack>
  );
}

/** Each refused row, its field and why; the file of those rows; the columns left out and why. */
function RowErrors({ report, context }: { report: ImportReport; context: ReportContext }) {
  const { t, tn } = useI18n();
  const [page, setPage] = useState(1);
  const pages = Math.ceil(report.errors.length / PAGE_ERRORS);
  const at = Math.min(page, Math.max(1, pages));
  const shown = report.errors.slice((at - 1) * PAGE_ERRORS, at * PAGE_ERRORS);
  const download = () => {
    const text = faultyRowsCsv(
      context.file.headers,
      report.errors,
      [...context.file.rows, ...context.file.faults],
      context.file.delimiter,
      t('importCsv.reasonsColumn'),
    );
    // With its mark, so that a spreadsheet opens it as UTF-8 whatever the file it came from was.
    saveBlob(
      new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }),
      t('importCsv.downloadName', { plural: context.plural }),
    );
  };
  return (
    <>
      {shown.length > 0 ? (
        <>
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
                    <Table.Td>{error.field ? context.labelOf(error.field) : ''}</Table.Td>
                    <Table.Td>{error.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          <Group justify="space-between" wrap="wrap">
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={at}
                onChange={setPage}
                size="sm"
                aria-label={t('importCsv.errorsPages')}
              />
            ) : (
              <span />
            )}
            <Button size="xs" variant="default" onClick={download}>
              {tn('importCsv.download', report.refused)}
            </Button>
          </Group>
        </>
      ) : null}
      {report.ignored.length > 0 ? (
        <Text size="sm" c="dimmed">
          {t('importCsv.ignoredTitle')}:{' '}
          {report.ignored.map((item) => `${item.column} (${item.reason})`).join('; ')}
        </Text>
      ) : null}
      {report.alreadyImported > 0 ? (
        <Text size="sm">
          {tn('importCsv.alreadyImported', report.alreadyImported, {
            singular: context.singular,
            plural: context.plural,
          })}
        </Text>
      ) : null}
      {report.unchanged > 0 ? (
        <Text size="sm">
          {tn('importCsv.unchanged', report.unchanged, {
            singular: context.singular,
            plural: context.plural,
          })}
        </Text>
      ) : null}
    </>
  );
}

export interface CommitView {
  state?: BatchState;
  failed?: string;
  running: boolean;
}

export function CommitProgress({
  commit,
  total,
  finished,
  context,
  onRetry,
  onClose,
}: {
  commit: CommitView;
  total: number;
  finished: boolean;
  context: ReportContext;
  onRetry(): void;
  onClose(): void;
}) {
  const { t, format } = useI18n();
  const progressId = useId();
  const done = Math.min(total, commit.state?.done ?? 0);
  const report = commit.state?.report;
  const counts = useCounts(report);
  return (
    <Stack gap="xs">
      <Text size="sm" id={progressId} role="status">
        {finished && report
          ? t('importCsv.doneTitle', counts)
          : t('importCsv.importing', { done: format.number(done), count: format.number(total) })}
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
      {finished && report ? <RowErrors report={report} context={context} /> : null}
      {finished ? (
        <Group>
          <Button onClick={onClose}>{t('importCsv.close')}</Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** The report's counts, written as the person's language writes numbers. */
function useCounts(report: ImportReport | undefined) {
  const { format } = useI18n();
  const { created = 0, updated = 0, skipped = 0, refused = 0 } = report ?? {};
  return {
    created: format.number(created),
    updated: format.number(updated),
    skipped: format.number(skipped),
    refused: format.number(refused),
  };
}
