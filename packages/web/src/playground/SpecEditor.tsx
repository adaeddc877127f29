import { autocompletion } from '@codemirror/autocomplete';
import { markdown } from '@codemirror/lang-markdown';
import { yaml } from '@codemirror/lang-yaml';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import type { Issue, SpecFormat } from '@ninefold/model';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import schema from '../../../../schema/ninefold.schema.json';
import { markdownCompletion, yamlCompletion } from './editor-completion';

export interface SpecEditorProps {
  /** The text to show; a value other than the last one typed replaces the document (a file opened). */
  text: string;
  format: SpecFormat;
  /** The last check's issues, drawn at their line and column. */
  issues: readonly Issue[];
  onChange(text: string): void;
}

/**
 * The specification's text in CodeMirror 6: Markdown or YAML highlighting, completion (the sections and
 * table headers of the Markdown convention, the JSON Schema's keys and values for YAML), and each issue
 * of the last check underlined at its place, with its hint.
 */
export function SpecEditor({ text, format, issues, onChange }: SpecEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const language = useRef(new Compartment());
  const typed = useRef(text);
  /**
   * Texts this editor sent up and the page may still hand back, one render late. Such an echo is no new
   * text: replacing the document with it undid the keys typed since, and on a loaded machine the two
   * went back and forth until React stopped them ("Maximum update depth exceeded").
   */
  const sent = useRef(new Set<string>());
  const changed = useRef(onChange);
  changed.current = onChange;

  // The editor is made once; format, text and issues reach it through the effects below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: made once, as said above
  useEffect(() => {
    if (!host.current) return;
    const created = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: typed.current,
        extensions: [
          basicSetup,
          lintGutter(),
          language.current.of(languageOf(format, isLargeText(typed.current))),
          EditorView.lineWrapping,
          // An explicit tabindex (the editable content is in the tab order anyway) lets checkers such as axe
          // see that the scrolling area holds something the keyboard reaches.
          EditorView.contentAttributes.of({ 'aria-label': 'Specification text', tabindex: '0' }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            typed.current = update.state.doc.toString();
            sent.current.add(typed.current);
            // Echoes come back within a few renders; the oldest are forgotten.
            if (sent.current.size > 64) sent.current.delete(sent.current.values().next().value as string);
            changed.current(typed.current);
          }),
        ],
      }),
    });
    view.current = created;
    // Keys typed in the text are the editor's: the preview's shortcuts (Ctrl+K opens its search) listen on
    // the document and must not answer them.
    const keep = (event: KeyboardEvent) => event.stopPropagation();
    const element = host.current;
    element.addEventListener('keydown', keep);
    return () => {
      element.removeEventListener('keydown', keep);
      created.destroy();
      view.current = null;
    };
  }, []);

  // A new text (a file opened) and a new format in one step: a large text never meets the highlighter,
  // as it would if the format's language were set first on the old text and then given the new one.
  const shownFormat = useRef(format);
  useEffect(() => {
    const current = view.current;
    if (!current) return;
    const replaced = text !== typed.current && !sent.current.has(text);
    if (!replaced && format === shownFormat.current) return;
    shownFormat.current = format;
    if (replaced) {
      typed.current = text;
      sent.current.clear();
    }
    current.dispatch({
      ...(replaced ? { changes: { from: 0, to: current.state.doc.length, insert: text } } : {}),
      effects: language.current.reconfigure(languageOf(format, isLargeText(text))),
    });
  }, [text, format]);

  useEffect(() => {
    const current = view.current;
    if (!current) return;
    current.dispatch(setDiagnostics(current.state, diagnosticsOf(current.state, issues)));
  }, [issues]);

  return <div ref={host} className="nf-playground-editor" />;
}

/**
 * Above this many characters the text is shown without syntax highlighting: parsing GitHub's imported
 * description (2.2 MB of YAML) for colours held the page for 100 to 200 ms at a time. Completion and
 * the issues of the check (made in the worker) stay.
 */
export const LARGE_TEXT = 400_000;

export function isLargeText(text: string): boolean {
  return text.length > LARGE_TEXT;
}

function languageOf(format: SpecFormat, plain: boolean) {
  if (plain) {
    return autocompletion({
      override: [
        format === 'markdown'
          ? markdownCompletion
          : yamlCompletion(schema as unknown as Parameters<typeof yamlCompletion>[0]),
      ],
    });
  }
  return format === 'markdown'
    ? [markdown(), autocompletion({ override: [markdownCompletion] })]
    : [
        yaml(),
        autocompletion({
          override: [yamlCompletion(schema as unknown as Parameters<typeof yamlCompletion>[0])],
        }),
      ];
}

/** Issues at their line and column, to the end of the word there (or of the line). */
function diagnosticsOf(state: EditorState, issues: readonly Issue[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    if (!issue.source) continue;
    const lineNumber = Math.min(Math.max(issue.source.line, 1), state.doc.lines);
    const line = state.doc.line(lineNumber);
    const from = Math.min(line.from + Math.max(issue.source.column - 1, 0), line.to);
    const word = /^[^\s|]+/.exec(state.doc.sliceString(from, line.to))?.[0].length ?? 0;
    out.push({
      from,
      to: word > 0 ? from + word : line.to,
      severity: issue.severity === 'error' ? 'error' : 'warning',
      message: issue.hint ? `${issue.message} ${issue.hint}` : issue.message,
      source: issue.code,
    });
  }
  return out;
}
