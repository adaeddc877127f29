/**
 * Problems found while loading and checking a specification. Loaders never throw on bad input: they
 * return issues, each with a code, a path into the document and, where known, a source position.
 *
 * @example
 * ```ts
 * const issue: Issue = {
 *   code: 'unknown-entity',
 *   severity: 'error',
 *   message: 'Screen "orders" names entity "Ordr", which is not defined.',
 *   path: ['screens', 'orders', 'entity'],
 *   hint: 'did you mean "Order"?',
 *   source: { file: 'shop.yaml', line: 12, column: 13 },
 * };
 * ```
 */
export interface Issue {
  code: IssueCode;
  severity: Severity;
  message: string;
  /** Path into the authoring document: keys and array indexes. */
  path: PathSegment[];
  source?: SourcePosition;
  hint?: string;
}

export type Severity = 'error' | 'warning';
export type PathSegment = string | number;

export interface SourcePosition {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

/** Every issue code, so that tools and tests can rely on them. */
export const ISSUE_CODES = [
  // reading the text
  'unreadable-file',
  'empty-file',
  'binary-file',
  'syntax',
  'duplicate-key',
  'too-large',
  'too-deep',
  'cycle',
  'refused-reference',
  // shape of the document
  'invalid-type',
  'invalid-value',
  'unknown-key',
  'invalid-name',
  'missing-key',
  'missing-point',
  // Markdown convention
  'missing-title',
  'extra-title',
  'unknown-section',
  'duplicate-section',
  'section-order',
  'unknown-column',
  'missing-column',
  'unreadable-cell',
  'cell-count',
  'broken-table',
  'unused-content',
  // meaning
  'unknown-reference',
  'duplicate-name',
  'conflicting-route',
  'invalid-route',
  'invalid-path',
  'unreachable-state',
  'invalid-expression',
  'not-shown-reference',
  'kind-mismatch',
  'invalid-pattern',
  'unoffered-grant',
  // the team's extension module (docs/extending.md)
  'unknown-override',
  'missing-override',
  'extension-error',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/** `file:line:column`, or the file alone when the position is unknown. */
export function formatLocation(issue: Issue, fallbackFile: string): string {
  if (!issue.source) return fallbackFile;
  return `${issue.source.file}:${issue.source.line}:${issue.source.column}`;
}

/** JSON Pointer (RFC 6901) of a path, as used in reports and problem details. */
export function toPointer(path: readonly PathSegment[]): string {
  return path.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/**
 * The segments of a JSON Pointer, unescaped: `/lines/0/quantity` -> `['lines', '0', 'quantity']`; the
 * empty pointer (the whole document) has none.
 */
export function fromPointer(pointer: string): string[] {
  if (!pointer.startsWith('/')) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
}
