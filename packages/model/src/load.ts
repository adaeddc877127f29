import { checkModelWithOffsets } from './check';
import { normalize } from './document/normalize';
import { readYaml } from './document/read-yaml';
import { type DocumentInput, documentSchema } from './document/schema';
import { schemaIssues } from './document/schema-issues';
import type { SourceDocument, SpecFormat } from './document/source';
import type { Issue, PathSegment, SourcePosition } from './issues';
import { hasErrors } from './issues';
import { readMarkdown } from './markdown/read';
import { MAX_MARKDOWN_BYTES } from './markdown/text-limits';
import { type Model, POINT_KEYS, type PointKey } from './model';

/**
 * A YAML or JSON specification larger than this is refused before parsing: it is not a hand-written
 * document (the rich example is 14 KiB; 1.3 MB of YAML takes about a second and 45 MB to load). The
 * Markdown reader has its own, smaller limit (MAX_MARKDOWN_BYTES), since its parser costs far more.
 */
export const MAX_SPEC_BYTES = 4 * 1024 * 1024;

export interface LoadOptions {
  /** Shown in issues as `file:line:column`; its extension picks the format unless `format` is given. */
  file?: string;
  format?: SpecFormat;
}

export interface Coverage {
  shown: PointKey[];
  notShown: PointKey[];
}

export interface LoadResult {
  /** True when there is a model and no issue is an error. */
  ok: boolean;
  /** Present whenever the document had a readable shape, even if its references are broken. */
  model?: Model;
  coverage?: Coverage;
  format: SpecFormat;
  /** Every problem, errors and warnings, ordered by position in the text. */
  issues: Issue[];
}

/**
 * Loads a specification from text: reads it (Markdown, YAML or JSON), validates its shape, normalizes
 * it into the model and checks its meaning. Never throws on bad input; every problem is an issue with
 * a position.
 *
 * @example
 * ```ts
 * const result = loadSpec(readFileSync('shop.md', 'utf8'), { file: 'shop.md' });
 * if (!result.ok) for (const issue of result.issues) console.log(issue.source, issue.message);
 * result.coverage; // { shown: ['product', ...], notShown: [...] }
 * ```
 */
export function loadSpec(text: string, options: LoadOptions = {}): LoadResult {
  const file = options.file ?? 'spec';
  const format = options.format ?? detectFormat(file, text);
  const refused = refuse(text, file, format);
  if (refused) return { ok: false, format, issues: [refused] };

  let source: SourceDocument;
  try {
    source = read(text, file, format);
  } catch (error) {
    return { ok: false, format, issues: [internalIssue(error, file)] };
  }
  const issues = [...source.issues];
  if (source.data === undefined) return finish(false, format, issues);
  // Keep going past the reader's errors so that one run shows every mistake; only the follow-on issues
  // about something the reader already reported are left out.
  const flagged = source.issues.filter((issue) => issue.severity === 'error' && issue.path.length > 0);
  // A Markdown row with fewer cells than its header leaves values unread or in the wrong column: what
  // follows from that on the row (a field with no kind) is said at the row's own error, not on its own.
  const rowShapes = new RowShapeFollowOns(source);
  const alreadyReported = (path: Issue['path'], follows?: Issue) =>
    flagged.some((issue) => isPrefix(issue.path, path) || isPrefix(path, issue.path)) ||
    (follows !== undefined && rowShapes.fold(follows));

  const reserved = reservedNameIssues(source.data);
  for (const issue of reserved) issues.push({ ...issue, source: source.locate(issue.path, { key: true }) });
  if (reserved.length > 0) return finish(false, format, rowShapes.noted(issues));

  let data = source.data;
  let parsed = documentSchema.safeParse(data);
  for (let attempt = 0; !parsed.success && attempt < 3; attempt++) {
    const found = schemaIssues(parsed.error.issues, data);
    const fresh = found.filter((issue) => !alreadyReported(issue.path, issue));
    for (const issue of fresh) {
      const located = { ...issue, source: source.locate(issue.path, { key: pointsAtKey(issue) }) };
      issues.push(located);
      // A field that cannot be read (a kind misspelt in YAML) is set aside as the Markdown reader sets
      // aside a cell it cannot read: the rest is checked, and references to the field are said at it.
      if (isFieldPart(issue.path)) flagged.push(located);
    }
    if (fresh.some((issue) => !isFieldPart(issue.path)))
      return finish(false, format, rowShapes.noted(issues));
    // Every shape problem left is one the reader has reported already: set those items aside and check
    // the rest, so that the person sees the remaining mistakes now rather than one run later.
    const pruned = withoutItems(
      data,
      found.map((issue) => issue.path.slice(0, -1)),
    );
    if (pruned === undefined) return finish(false, format, rowShapes.noted(issues));
    data = pruned;
    parsed = documentSchema.safeParse(data);
  }
  if (!parsed.success) return finish(false, format, rowShapes.noted(issues));

  try {
    const { model, issues: normalizeIssues } = normalize(parsed.data as DocumentInput);
    const unreadFields = unreadableFields(flagged);
    for (const issue of normalizeIssues) {
      const located = { ...issue, source: issue.source ?? source.locate(issue.path) };
      issues.push(located);
      // A point missing (its heading broken, say) makes every reference into it fail: one cause.
      if (issue.code === 'missing-point') unreadFields.set(`point:${String(issue.path[0])}`, located);
    }
    for (const [field, cause] of rowShapes.unread)
      if (!unreadFields.has(field)) unreadFields.set(field, cause);
    const following = new Map<Issue, SourcePosition[]>();
    for (const { issue, offset, about } of checkModelWithOffsets(model)) {
      if (alreadyReported(issue.path, issue)) continue;
      const at = offset === undefined ? source.locate(issue.path) : source.locateInString(issue.path, offset);
      // A reference to a field the reader could not read fails only because of that: one cause, not many.
      const cause = about === undefined ? undefined : unreadFields.get(about);
      if (cause !== undefined) {
        following.set(cause, [...(following.get(cause) ?? []), ...(at ? [at] : [])]);
        continue;
      }
      issues.push({ ...issue, source: at });
    }
    const noted = rowShapes.noted(issues);
    foldInto(noted, following);
    const result = finish(!hasErrors(noted), format, noted, model);
    locators.set(result, source.locate);
    return result;
  } catch (error) {
    // Reaching here is a bug in Ninefold, not in the document; it still must not become a stack trace.
    issues.push(internalIssue(error, file));
    return finish(false, format, rowShapes.noted(issues));
  }
}

/**
 * A key "__proto__" cannot be kept in a plain object (assigning it changes the prototype), and the schema
 * validator skips it, so the item it names would vanish without a word. It is refused here, by path.
 */
function reservedNameIssues(data: unknown): Issue[] {
  const issues: Issue[] = [];
  const stack: Array<{ value: unknown; path: Issue['path'] }> = [{ value: data, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: Issue['path'] };
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) stack.push({ value: item, path: [...path, index] });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === '__proto__') {
        issues.push({
          code: 'invalid-name',
          severity: 'error',
          message: `"__proto__" is not allowed as a name${path.length ? ` in ${path.join('.')}` : ''}; choose another.`,
          path: [...path, key],
        });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return issues;
}

/** Issues about a name (an unknown key, an invalid name) point at the name, not at its value. */
function pointsAtKey(issue: Issue): boolean {
  return issue.code === 'unknown-key' || issue.code === 'invalid-name';
}

/** A copy of `data` without the items at `paths`; undefined when that would remove a whole point. */
function withoutItems(data: unknown, paths: Issue['path'][]): unknown {
  if (paths.some((path) => path.length < 2)) return undefined;
  const copy = structuredClone(data);
  for (const path of paths) {
    let parent: unknown = copy;
    for (const segment of path.slice(0, -1))
      parent = (parent as Record<string, unknown> | undefined)?.[segment];
    const last = path.at(-1);
    if (parent === null || typeof parent !== 'object' || last === undefined) return undefined;
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else delete (parent as Record<string, unknown>)[last];
  }
  return copy;
}

function isPrefix(prefix: Issue['path'], path: Issue['path']): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => String(segment) === String(path[i]));
}

function read(text: string, file: string, format: SpecFormat): SourceDocument {
  switch (format) {
    case 'markdown':
      return readMarkdown(text, file);
    case 'yaml':
    case 'json':
      return readYaml(text, file, format);
  }
}

/** Kept beside each result rather than in it, so that results stay plain data to compare and serialize. */
const locators = new WeakMap<LoadResult, SourceDocument['locate']>();

/**
 * Where a path of the authoring document (`['entities', 'Product', 'fields', 'stock']`) sits in the text a
 * result was loaded from, for checks made after loading (an extension module's, in the command line);
 * undefined for a result without a model, or from another loader.
 */
export function locateIn(result: LoadResult, path: readonly PathSegment[]): SourcePosition | undefined {
  return locators.get(result)?.(path);
}

function finish(ok: boolean, format: SpecFormat, issues: Issue[], model?: Model): LoadResult {
  const ordered = issues
    .map((issue, index) => ({ issue, index }))
    .sort((a, b) => compare(a.issue.source, b.issue.source) || a.index - b.index)
    .map(({ issue }) => issue);
  return model
    ? { ok, model, coverage: coverageOf(model), format, issues: ordered }
    : { ok, format, issues: ordered };
}

function compare(a: SourcePosition | undefined, b: SourcePosition | undefined): number {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  return a.line - b.line || a.column - b.column;
}

/** Which of the nine points the model shows, in point order. */
export function coverageOf(model: Model): Coverage {
  return {
    shown: POINT_KEYS.filter((key) => model[key].shown),
    notShown: POINT_KEYS.filter((key) => !model[key].shown),
  };
}

/** The format named by the file's extension, else sniffed from the text. */
export function detectFormat(file: string, text: string): SpecFormat {
  const extension = file.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (extension === 'md' || extension === 'markdown') return 'markdown';
  if (extension === 'yaml' || extension === 'yml') return 'yaml';
  if (extension === 'json') return 'json';
  const start = text.trimStart();
  if (start.startsWith('{')) return 'json';
  if (/^#\s/.test(start)) return 'markdown';
  return 'yaml';
}

/** Text that is not a specification at all gets one clear issue instead of a cascade of parse errors. */
function refuse(text: string, file: string, format: SpecFormat): Issue | undefined {
  const at = { file, line: 1, column: 1 };
  const limit = format === 'markdown' ? MAX_MARKDOWN_BYTES : MAX_SPEC_BYTES;
  if (text.length > limit) {
    return {
      code: 'too-large',
      severity: 'error',
      message: `The file is ${sizeText(text.length)}; a ${format === 'markdown' ? 'Markdown' : 'YAML or JSON'} specification may be at most ${sizeText(limit)}.`,
      path: [],
      source: at,
      hint:
        format === 'markdown'
          ? 'write a specification this large in YAML, or check that this is the right file'
          : 'a specification this large is generated, not written: split it, or check that this is the right file',
    };
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0 || countReplacementCharacters(text) > Math.max(8, text.length / 100)) {
    return {
      code: 'binary-file',
      severity: 'error',
      message:
        'The file is not text (it holds binary data); a specification is a Markdown, YAML or JSON text file.',
      path: [],
      source: at,
    };
  }
  if (text.trim() === '') {
    return {
      code: 'empty-file',
      severity: 'error',
      message: 'The file is empty.',
      path: [],
      source: at,
      hint: 'start with "# Product name" and nine "## N." sections, or see examples/empty.md',
    };
  }
  return undefined;
}

function sizeText(length: number): string {
  return length >= 1024 * 1024
    ? `${(length / 1024 / 1024).toFixed(1)} MiB`
    : `${Math.ceil(length / 1024)} KiB`;
}

function countReplacementCharacters(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) count++;
  return count;
}

function internalIssue(error: unknown, file: string): Issue {
  return {
    code: 'syntax',
    severity: 'error',
    message: `Ninefold could not read this document because of an internal error (${error instanceof Error ? error.message : String(error)}). Please report it with the file.`,
    path: [],
    source: { file, line: 1, column: 1 },
  };
}

/** The field a path is in or at, as `Entity.field` (`entities.Order.fields.total.kind` -> `Order.total`). */
function fieldOfPath(path: Issue['path']): string | undefined {
  const [point, entity, fieldsKey, field] = path;
  return point === 'entities' &&
    fieldsKey === 'fields' &&
    typeof entity === 'string' &&
    typeof field === 'string'
    ? `${entity}.${field}`
    : undefined;
}

/** A path inside one field of an entity (`entities.Order.fields.total.kind`), not the field list itself. */
function isFieldPart(path: Issue['path']): boolean {
  return path.length > 4 && path[0] === 'entities' && path[2] === 'fields';
}

/**
 * The fields the reader could not read, as `Entity.field`, with the reader's issue about each: a kind it
 * could not read leaves the field out of the model, and every reference to it then fails too.
 */
function unreadableFields(flagged: Issue[]): Map<string, Issue> {
  const fields = new Map<string, Issue>();
  for (const issue of flagged) {
    const key = fieldOfPath(issue.path);
    if (key !== undefined && !fields.has(key)) fields.set(key, issue);
  }
  return fields;
}

const MAX_PLACES = 8;

/** Says at each cause where the references that follow from it are, instead of an error for each. */
function foldInto(issues: Issue[], following: Map<Issue, SourcePosition[]>): void {
  for (const [cause, places] of following) {
    // The cause itself, or its copy with notes of its own (`RowShapeFollowOns.noted`): the same place.
    const index = issues.findIndex(
      (issue) => issue === cause || (issue.code === cause.code && issue.source === cause.source),
    );
    if (index < 0) continue;
    // A missing point can have a hundred: the first few say where to look.
    const shown = [...places]
      .sort(compare)
      .slice(0, MAX_PLACES)
      .map((place) => `${place.line}:${place.column}`);
    const where = [...shown, ...(places.length > MAX_PLACES ? ['…'] : [])].join(', ');
    const count =
      places.length === 1 ? 'one reference to it fails' : `${places.length} references to it fail`;
    const note = `${count} until it is read${where ? ` (at ${where})` : ''}`;
    const found = issues[index] as Issue;
    issues[index] = { ...found, hint: found.hint ? `${found.hint}; ${note}` : note };
  }
}

/**
 * The follow-on issues of Markdown rows whose cells do not match their header (`cell-count`): an issue
 * located on such a row is noted in the row's error instead of standing as an error of its own.
 */
class RowShapeFollowOns {
  private readonly rows = new Map<number, { cause: Issue; following: string[] }>();

  constructor(private readonly source: SourceDocument) {
    for (const issue of source.issues) {
      if (issue.code === 'cell-count' && issue.source)
        this.rows.set(issue.source.line, { cause: issue, following: [] });
    }
  }

  /**
   * Whether the issue is on such a row; if so, it is noted there, and a field it leaves unread is one
   * (see `unreadFields`) whose references fail only because of the row.
   */
  fold(issue: Issue): boolean {
    if (this.rows.size === 0) return false;
    const line = this.source.locate(issue.path)?.line;
    const row = line === undefined ? undefined : this.rows.get(line);
    if (!row) return false;
    row.following.push(issue.message);
    const field = fieldOfPath(issue.path);
    if (field !== undefined) this.unread.set(field, row.cause);
    return true;
  }

  /** The fields such rows left unread, as `Entity.field`, with each row's error. */
  readonly unread = new Map<string, Issue>();

  /** The issues, with each row's error saying what follows from it until the row is mended. */
  noted(issues: Issue[]): Issue[] {
    if (this.rows.size === 0) return issues;
    return issues.map((issue) => {
      const row = issue.code === 'cell-count' && issue.source ? this.rows.get(issue.source.line) : undefined;
      if (!row || row.following.length === 0) return issue;
      const note = `until it is, ${row.following.map((message) => lowerFirst(message).replace(/\.$/, '')).join('; ')}`;
      return { ...issue, hint: issue.hint ? `${issue.hint}; ${note}` : note };
    });
  }
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}
