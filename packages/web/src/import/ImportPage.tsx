import { Alert, Button, Group, Input, Paper, Progress, Stack, Text, TextInput, Title } from '@mantine/core';
import { exhaustiveSwitchError, type Issue } from '@ninefold/model';
import { type DragEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { IssueItems } from '../app/IssueItems';
import { useSearchParams } from '../app/router';
import { useSpec } from '../app/SpecContext';
import { useDocumentTitle } from '../app/useDocumentTitle';
import { addEnglish } from '../i18n/catalogue';
import { importer } from '../i18n/en/importer';
import { useI18n } from '../i18n/I18nProvider';
import { IMPORT_STAGES, type ImportedDocument, type ImportRequest } from './protocol';
import { type ImportState, useImport, type WorkerFactory } from './useImport';

addEnglish('importer', importer);

/** Issues listed in full; a large document's others are counted. */
const LISTED_ISSUES = 50;

/**
 * Imports an OpenAPI document in the page, in a Web Worker, with its progress in view, then offers a
 * preview of the client it yields. `?url=/openapi.json` starts on a document of this site at once, and
 * `&open=1` opens the preview as soon as the import succeeds.
 */
export function ImportPage({ createWorker }: { createWorker?: WorkerFactory }) {
  const { t } = useI18n();
  const { openPreview } = useSpec();
  const { state, start, cancel } = useImport(createWorker);
  const [search] = useSearchParams();
  const linked = search.get('url');
  const openAtOnce = search.get('open') === '1';
  const [address, setAddress] = useState(linked ?? '');
  const [addressError, setAddressError] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const fileId = useId();
  useDocumentTitle(t('importer.title'));

  const startAddress = (value: string): boolean => {
    const url = sameSiteUrl(value);
    if (url === undefined) {
      setAddressError(t('importer.urlInvalid'));
      return false;
    }
    setAddressError(undefined);
    start({ kind: 'url', url });
    return true;
  };

  // A link to this page names its document: read it once, as the page opens.
  const startedFromLink = useRef(false);
  useEffect(() => {
    if (linked && !startedFromLink.current) {
      startedFromLink.current = true;
      startAddress(linked);
    }
  });

  useEffect(() => {
    if (openAtOnce && state.kind === 'done' && state.result.ok && state.result.modelJson && openPreview) {
      openPreview({ file: state.result.file, model: JSON.parse(state.result.modelJson) });
    }
  }, [openAtOnce, state, openPreview]);

  const startFile = (file: File | null) => {
    if (file) start({ kind: 'file', file, name: file.name } satisfies ImportRequest);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    startFile(event.dataTransfer.files[0] ?? null);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    startAddress(address);
  };
  const working = state.kind === 'working';

  return (
    <Stack gap="md" maw={760}>
      <Title order={1} size="h2">
        {t('importer.title')}
      </Title>
      <Text>{t('importer.intro')}</Text>
      <Paper
        withBorder
        p="md"
        className={dragging ? 'nf-drop nf-drop-active' : 'nf-drop'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <Stack gap="sm">
          {/* The browser's own file input: the keyboard, screen readers and drivers all know it. */}
          <Input.Wrapper label={t('importer.fileLabel')} description={t('importer.dropHint')} id={fileId}>
            <input
              id={fileId}
              type="file"
              className="nf-file-input"
              accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
              onChange={(event) => {
                startFile(event.currentTarget.files?.[0] ?? null);
                // Choosing the same file again must start again.
                event.currentTarget.value = '';
              }}
              disabled={working}
            />
          </Input.Wrapper>
          <form onSubmit={onSubmit}>
            <Group align="flex-end" gap="sm">
              <TextInput
                label={t('importer.urlLabel')}
                value={address}
                onChange={(event) => setAddress(event.currentTarget.value)}
                error={addressError}
                disabled={working}
                placeholder="/openapi.json"
                style={{ flex: 1 }}
              />
              <Button type="submit" variant="default" disabled={working}>
                {t('importer.urlRead')}
              </Button>
            </Group>
          </form>
        </Stack>
      </Paper>
      <ImportStatus state={state} onCancel={cancel} />
    </Stack>
  );
}

function ImportStatus({ state, onCancel }: { state: ImportState; onCancel: () => void }) {
  const { t } = useI18n();
  switch (state.kind) {
    case 'idle':
      return null;
    case 'working':
      return <ImportProgress state={state} onCancel={onCancel} />;
    case 'cancelled':
      return <Text role="status">{t('importer.cancelled')}</Text>;
    case 'failed':
      return (
        <Alert color="red" title={t('importer.failedTitle')} role="alert">
          {state.cause === 'worker' ? t('importer.workerFailed', { reason: state.message }) : state.message}
        </Alert>
      );
    case 'done':
      return <ImportResult result={state.result} />;
    default:
      return exhaustiveSwitchError(state);
  }
}

function ImportProgress({
  state,
  onCancel,
}: {
  state: Extract<ImportState, { kind: 'working' }>;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const seconds = useSecondsSince(state.started);
  const step = IMPORT_STAGES.indexOf(state.stage);
  const share =
    state.stage === 'download' && state.total !== undefined && state.loaded !== undefined
      ? Math.min(1, state.loaded / state.total)
      : 0;
  const percent = Math.round(((step + share) / IMPORT_STAGES.length) * 100);
  const label = t('importer.step', { step: step + 1, stage: t(`importer.stage_${state.stage}`) });
  const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
  return (
    <Stack gap="xs">
      <Text role="status" aria-live="polite">
        {label}
      </Text>
      <Progress value={percent} aria-label={label} animated striped size="lg" />
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {state.loaded !== undefined && state.stage === 'download'
            ? state.total !== undefined
              ? t('importer.downloaded', { loaded: mb(state.loaded), total: mb(state.total) })
              : t('importer.downloadedNoTotal', { loaded: mb(state.loaded) })
            : null}{' '}
          {t('importer.elapsed', { seconds })}
        </Text>
        <Button variant="default" size="xs" onClick={onCancel}>
          {t('importer.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

function ImportResult({ result }: { result: ImportedDocument }) {
  const { t, tn, format } = useI18n();
  const { openPreview } = useSpec();
  const { modelJson, sizes } = result;
  const seconds = (result.millis / 1000).toFixed(1);
  const ready = result.ok && modelJson !== undefined;
  return (
    <Stack gap="sm">
      <Alert
        color={ready ? 'green' : 'red'}
        role={ready ? 'status' : 'alert'}
        title={
          ready
            ? t('importer.importedTitle', { file: result.file, version: result.version, seconds })
            : t('importer.importedWithErrorsTitle', { file: result.file })
        }
      >
        {modelJson !== undefined ? (
          <Text size="sm">
            {t('importer.summary', {
              entities: format.number(sizes.entities),
              screens: format.number(sizes.screens),
              calls: format.number(sizes.calls),
              mapped: format.number(result.counts.mapped),
              inferred: format.number(result.counts.inferred),
              notShown: format.number(result.counts.notShown),
              skipped: format.number(result.counts.skipped),
            })}{' '}
            {result.coverage ? t('importer.coverage', { shown: result.coverage.shown.length }) : null}
          </Text>
        ) : null}
      </Alert>
      {ready && openPreview ? (
        <Group>
          <Button onClick={() => openPreview({ file: result.file, model: JSON.parse(modelJson) })}>
            {t('importer.open')}
          </Button>
        </Group>
      ) : null}
      {result.issues.length > 0 ? <IssueList issues={result.issues} /> : null}
      {result.issues.length > LISTED_ISSUES ? (
        <Text size="sm">{tn('importer.issuesMore', result.issues.length - LISTED_ISSUES)}</Text>
      ) : null}
    </Stack>
  );
}

function IssueList({ issues }: { issues: Issue[] }) {
  const { t } = useI18n();
  return (
    <>
      <Title order={2} size="h4">
        {t('importer.issuesTitle')}
      </Title>
      <IssueItems
        label={t('importer.issuesTitle')}
        issues={issues.slice(0, LISTED_ISSUES).map(({ severity, message, source }) => ({
          severity,
          message,
          ...(source ? { source: `${source.file}:${source.line}:${source.column}` } : {}),
        }))}
      />
    </>
  );
}

/** Whole seconds since a moment, ticking while shown: the page visibly keeps working. */
function useSecondsSince(started: number): string {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return (Math.max(0, now - started) / 1000).toFixed(1);
}

/** An address on this site, absolute; undefined for anything else, which the page's policy would block. */
export function sameSiteUrl(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  try {
    const url = new URL(trimmed, document.baseURI);
    return url.origin === window.location.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}
