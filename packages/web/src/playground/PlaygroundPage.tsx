import { Alert, Button, Group, Loader, Menu, NativeSelect, Text, TextInput, Title } from '@mantine/core';
import type { Model, SpecFormat } from '@ninefold/model';
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { saveBlob } from '../app/save-blob';
import { ImportEntries } from './ImportEntries';
import { IssueList } from './IssueList';
import { PreviewClient } from './PreviewClient';
import { readDraft, writeDraft } from './playground-draft';
import { isLargeText, SpecEditor } from './SpecEditor';
import { linkFragment, openFragment } from './share-link';
import { formatOfFile, looksLikeOpenApiText, STARTING_POINTS } from './starting-points';
import { type ImportAnswer, useChecker } from './useChecker';
import './playground.css';

/** What the page starts with: a shared link, else the draft, else the rich example. */
export interface PlaygroundStart {
  text: string;
  format: SpecFormat;
  /** Why the page did not open what the address asked for, or that a draft was set aside. */
  notice?: string;
  /** A draft the shared link took the place of, offered back. */
  setAside?: { text: string; format: SpecFormat };
}

/** Chooses the first text: the link in the address, the draft kept in this browser, or the rich example. */
export async function playgroundStart(hash: string): Promise<PlaygroundStart> {
  const draft = readDraft();
  if (hash.length > 1) {
    const opened = await openFragment(hash);
    if (opened.ok) {
      const setAside =
        draft && draft.text !== opened.text ? { setAside: { text: draft.text, format: draft.format } } : {};
      return { text: opened.text, format: opened.format, ...setAside };
    }
    if (opened.message) {
      const fallback = draft ?? (await richExample());
      return { ...fallback, notice: `The shared link could not be opened. ${opened.message}` };
    }
  }
  return draft ?? richExample();
}

async function richExample(): Promise<{ text: string; format: SpecFormat }> {
  const rich = STARTING_POINTS[0];
  return rich ? { text: await rich.load(), format: rich.format } : { text: '', format: 'markdown' };
}

const NO_RECORDS = {};

/** How long typing pauses before the draft is written. */
const DRAFT_DELAY_MS = 400;

/**
 * The playground: the nine points as text beside the client they describe, running on a prototype API
 * in the tab. Checking runs in a worker as the person types; the preview keeps the last text without
 * errors while the text is broken. The text is kept as a draft, can be opened from and saved to a file,
 * and shared as a link that carries it.
 */
/** A line above the editor: what happened, and the one thing to do about it, if any. */
interface Notice {
  tone: 'red' | 'blue' | 'yellow';
  text: string;
  action?: { label: string; run: () => void };
}

export function PlaygroundPage({ start }: { start: PlaygroundStart }) {
  const [text, setText] = useState(start.text);
  const [format, setFormat] = useState<SpecFormat>(start.format);
  const [role, setRole] = useState<string | undefined>(undefined);
  const [notice, setNotice] = useState<Notice | undefined>(
    start.notice ? { tone: 'yellow', text: start.notice } : undefined,
  );
  const [setAside, setSetAside] = useState(start.setAside);
  const [share, setShare] = useState<{ url: string } | { tooLong: string } | undefined>(undefined);
  const [report, setReport] = useState<ImportAnswer | undefined>(undefined);
  const [draftFailed, setDraftFailed] = useState(false);
  const [dragging, setDragging] = useState(false);
  const checked = useChecker(text, format);
  const fileInput = useRef<HTMLInputElement>(null);

  // Kept as a draft a moment after typing stops.
  useEffect(() => {
    const timer = setTimeout(() => setDraftFailed(!writeDraft({ text, format })), DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, format]);

  const roles = useMemo(() => rolesOf(checked.model), [checked.model]);
  const chosenRole = role !== undefined && roles.names.includes(role) ? role : roles.names[0];

  // Another document (a file, a starting point) starts the preview afresh at its home: the screen at
  // hand belonged to the old one, whose "/customers/new" the new one may not have.
  const [documentCount, setDocumentCount] = useState(0);
  const replaceText = useCallback((next: string, nextFormat: SpecFormat) => {
    setFormat(nextFormat);
    setText(next);
    setShare(undefined);
    setDocumentCount((count) => count + 1);
  }, []);

  // What a file replaced, so that opening one never loses the text being edited without a way back.
  const current = useRef({ text, format });
  current.current = { text, format };
  const openedFile = useCallback(
    (name: string, next: string, nextFormat: SpecFormat) => {
      const before = current.current;
      replaceText(next, nextFormat);
      if (before.text.trim() === '' || before.text === next) {
        setNotice(undefined);
        return;
      }
      setNotice({
        tone: 'blue',
        text: `${name} is open in place of the text you were editing.`,
        action: {
          label: 'Bring my text back',
          run: () => {
            replaceText(before.text, before.format);
            setNotice(undefined);
          },
        },
      });
    },
    [replaceText],
  );

  // The text typed is checked at once, and reaches the page's state as a transition. Urgent, on a busy
  // machine each key's commit had the next key's update pending: React took more than 50 in a row for an
  // endless loop and refused the update (error 185, in 3 of 12 runs of a line typed with the processor
  // slowed twelvefold; none in 12 after), and the page kept the text a key behind the editor's.
  const check = checked.check;
  const onEdit = useCallback(
    (next: string) => {
      check(next, current.current.format);
      startTransition(() => {
        setText(next);
        setShare(undefined);
      });
    },
    [check],
  );

  const openFile = useCallback(
    async (file: File) => {
      setReport(undefined);
      const head = await file.slice(0, 4096).text();
      if (looksLikeOpenApiText(head)) {
        setNotice({ tone: 'blue', text: `Importing ${file.name}…` });
        const answer = await checked.importOpenApi(file, file.name);
        if (answer.kind === 'failed' || answer.text === undefined) {
          setNotice({
            tone: 'red',
            text: `${file.name} could not be imported: ${answer.kind === 'failed' ? answer.message : (answer.issues[0]?.message ?? 'the document has no usable shape')}`,
          });
          return;
        }
        setReport(answer);
        openedFile(file.name, answer.text, 'yaml');
        return;
      }
      const content = await file.text();
      openedFile(file.name, content, formatOfFile(file.name, content));
    },
    [checked.importOpenApi, openedFile],
  );

  // A file dropped anywhere on the page opens: a specification as it is, an OpenAPI document imported.
  useEffect(() => {
    const over = (event: DragEvent) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      // Before the editor sees it, which would paste the file's text where it was dropped.
      event.preventDefault();
      event.stopPropagation();
      setDragging(false);
      void openFile(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop, true);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop, true);
    };
  }, [openFile]);

  const makeLink = async () => {
    const link = await linkFragment(text, format);
    if (!link.ok) {
      setShare({
        tooLong: `This text makes a link of ${link.length.toLocaleString('en')} characters, more than the ${link.limit.toLocaleString('en')} a link may carry. Download the file and share that instead.`,
      });
      return;
    }
    const url = new URL(window.location.href);
    url.hash = link.fragment;
    window.history.replaceState(null, '', url);
    setShare({ url: url.href });
    await navigator.clipboard?.writeText(url.href).catch(() => {});
  };

  const download = async (as: SpecFormat) => {
    const name = `${fileStem(checked.model)}.${as === 'markdown' ? 'md' : as === 'json' ? 'json' : 'yaml'}`;
    let body = text;
    if (as !== format && as !== 'json') {
      const converted = await checked.convert(text, format, as);
      if (converted.kind === 'failed') {
        setNotice({ tone: 'red', text: converted.message });
        return;
      }
      body = converted.text;
      if (converted.lost.length > 0) {
        setNotice({
          tone: 'yellow',
          text: `The Markdown format cannot hold ${converted.lost.length} part${converted.lost.length === 1 ? '' : 's'} of this specification, left out of ${name}: ${converted.lost.slice(0, 3).join('; ')}${converted.lost.length > 3 ? '; …' : ''}. Download it as YAML to keep everything.`,
        });
      }
    }
    saveBlob(new Blob([body], { type: as === 'markdown' ? 'text/markdown' : 'text/yaml' }), name);
  };

  const errors = checked.issues.filter((issue) => issue.severity === 'error').length;
  return (
    <div className="nf-playground" data-dragging={dragging || undefined}>
      <header className="nf-playground-bar">
        <Title order={1} size="h4">
          Ninefold playground
        </Title>
        <Group gap="xs" wrap="wrap">
          <Menu>
            <Menu.Target>
              <Button variant="default" size="xs">
                Start from…
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {STARTING_POINTS.map((point) => (
                <Menu.Item
                  key={point.id}
                  onClick={() => void point.load().then((loaded) => replaceText(loaded, point.format))}
                >
                  {point.label}
                </Menu.Item>
              ))}
              <Menu.Item onClick={() => fileInput.current?.click()}>
                A file, or an OpenAPI document…
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <input
            ref={fileInput}
            type="file"
            hidden
            accept=".md,.markdown,.yaml,.yml,.json"
            aria-label="Open a specification or OpenAPI file"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) void openFile(file);
              event.currentTarget.value = '';
            }}
          />
          <Menu>
            <Menu.Target>
              <Button variant="default" size="xs">
                Download
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => void download(format)}>
                As it is ({format === 'markdown' ? '.md' : format === 'json' ? '.json' : '.yaml'})
              </Menu.Item>
              <Menu.Item onClick={() => void download(format === 'markdown' ? 'yaml' : 'markdown')}>
                {format === 'markdown' ? 'As YAML (.yaml)' : 'As Markdown (.md)'}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Button size="xs" onClick={() => void makeLink()}>
            Share link
          </Button>
          {roles.names.length > 0 ? (
            // The label beside the list, not above it: the bar stays one row high.
            <div className="nf-playground-role">
              <Text size="sm" component="label" htmlFor="nf-playground-role">
                See it as
              </Text>
              <NativeSelect
                id="nf-playground-role"
                size="xs"
                value={chosenRole ?? ''}
                onChange={(event) => setRole(event.currentTarget.value)}
                data={roles.names.map((name) => ({ value: name, label: roles.labels.get(name) ?? name }))}
              />
            </div>
          ) : null}
        </Group>
      </header>
      <div className="nf-playground-notices">
        {notice ? (
          <Alert
            color={notice.tone}
            withCloseButton
            onClose={() => setNotice(undefined)}
            closeButtonLabel="Dismiss"
          >
            {notice.text}
            {notice.action ? (
              <Button variant="default" size="xs" ml="sm" onClick={notice.action.run}>
                {notice.action.label}
              </Button>
            ) : null}
          </Alert>
        ) : null}
        {setAside ? (
          <Alert
            color="blue"
            withCloseButton
            onClose={() => setSetAside(undefined)}
            closeButtonLabel="Dismiss"
          >
            <Group gap="xs">
              <Text size="sm">
                The shared link opened in place of your draft, which is kept until you type.
              </Text>
              <Button
                size="compact-xs"
                variant="light"
                onClick={() => {
                  replaceText(setAside.text, setAside.format);
                  setSetAside(undefined);
                }}
              >
                Back to my draft
              </Button>
            </Group>
          </Alert>
        ) : null}
        {share && 'url' in share ? (
          <Alert color="green" withCloseButton onClose={() => setShare(undefined)} closeButtonLabel="Dismiss">
            <TextInput
              size="xs"
              label="Link to this text (copied)"
              readOnly
              value={share.url}
              onFocus={(event) => event.currentTarget.select()}
            />
          </Alert>
        ) : null}
        {share && 'tooLong' in share ? (
          <Alert
            color="yellow"
            withCloseButton
            onClose={() => setShare(undefined)}
            closeButtonLabel="Dismiss"
          >
            <Group gap="xs">
              <Text size="sm">{share.tooLong}</Text>
              <Button size="compact-xs" variant="light" onClick={() => void download(format)}>
                Download
              </Button>
            </Group>
          </Alert>
        ) : null}
        {report ? (
          <Alert color="blue" withCloseButton onClose={() => setReport(undefined)} closeButtonLabel="Dismiss">
            Imported {report.file} (OpenAPI {report.version}) in {report.millis} ms: {report.counts.mapped}{' '}
            mapped, {report.counts.inferred} inferred, {report.counts.notShown} not shown,{' '}
            {report.counts.skipped} skipped, {report.issues.length} issues.
            <ImportEntries entries={report.entries} total={report.counts.inferred + report.counts.skipped} />
          </Alert>
        ) : null}
        {draftFailed ? (
          <Alert color="yellow">This browser does not keep a draft here; download the text to keep it.</Alert>
        ) : null}
      </div>
      <main className="nf-playground-panes">
        <section className="nf-playground-source" aria-label="Specification">
          <SpecEditor text={text} format={format} issues={checked.issues} onChange={onEdit} />
          <div className="nf-playground-status" role="status" aria-label="Checking the text">
            {checked.failure ? (
              <Text size="sm" c="red">
                {checked.failure}
              </Text>
            ) : (
              <Text size="sm" c="dimmed">
                {checked.busy ? <Loader size={10} mr={6} /> : null}
                {isLargeText(text)
                  ? 'Shown without colours, so that typing this much text stays quick. '
                  : ''}
                {errors > 0
                  ? `${errors} error${errors === 1 ? '' : 's'}: the preview shows the last text without errors.`
                  : checked.ok
                    ? `No errors${checked.coverage ? `, ${checked.coverage.shown.length} of 9 points shown` : ''}${checked.millis === undefined ? '' : ` (checked in ${checked.millis} ms)`}.`
                    : ''}
              </Text>
            )}
          </div>
          <IssueList issues={checked.issues} />
        </section>
        <section className="nf-playground-preview" aria-label="Client preview">
          {checked.model ? (
            <PreviewClient
              key={documentCount}
              model={checked.model}
              role={chosenRole}
              seeded={checked.records ?? NO_RECORDS}
            />
          ) : (
            <Text c="dimmed" p="md">
              {checked.busy ? 'Checking the text…' : 'The preview starts once the text has no errors.'}
            </Text>
          )}
        </section>
      </main>
    </div>
  );
}

function rolesOf(model: Model | undefined): { names: string[]; labels: Map<string, string> } {
  if (!model?.roles.shown) return { names: [], labels: new Map() };
  return {
    names: model.roles.roles.map((role) => role.name),
    labels: new Map(model.roles.roles.map((role) => [role.name, role.label ?? role.name])),
  };
}

function fileStem(model: Model | undefined): string {
  const title = model?.title
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return title || 'specification';
}
