import type { Heading, List, ListItem, Nodes, RootContent, Table, TableRow } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import { NOT_SHOWN_PATTERN } from './document-schema';
import type { Issue, IssueCode, PathSegment, Severity, SourcePosition } from './issues';
import { POINT_KEYS, type PointKey } from './model';
import type { SourceDocument } from './source';
import { suggest } from './suggest';

/**
 * Reads a nine-point Markdown specification into the authoring document (the YAML/JSON shape), following
 * the convention in `docs/spec-format.md`. Never throws: problems with the convention become issues, each
 * located at `file:line:column`, and every value it produces can be located again through `locate`.
 *
 * @example
 * ```ts
 * const source = readMarkdown('# Shop\n\n## 1. Product\n\nNot shown.\n', 'shop.md');
 * source.data; // { title: 'Shop', product: 'Not shown.' }
 * source.locate(['product']); // { file: 'shop.md', line: 5, column: 1 }
 * ```
 */
export function readMarkdown(text: string, file: string): SourceDocument {
  const reader = new Reader(asString(text), asString(file));
  const tooDeep = findExcessiveNesting(reader.source);
  if (tooDeep) {
    reader.issues.push({
      code: 'too-deep',
      severity: 'error',
      message: `Line ${tooDeep.line} is nested ${tooDeep.what}; a specification nests lists and quotes at most ${MAX_NESTING} levels and indents at most ${MAX_INDENT} columns.`,
      path: [],
      source: { file: reader.file, line: tooDeep.line, column: 1 },
      hint: 'flatten the list, or put long text in a code block',
    });
  } else {
    try {
      reader.read();
    } catch (error) {
      reader.internalError(error, []);
    }
  }
  return {
    format: 'markdown',
    file: reader.file,
    data: reader.data,
    issues: reader.issues,
    locate: (path, options) => reader.locate(path, options),
    locateInString: (path, offset) => reader.locateInString(path, offset),
  };
}

/**
 * Beyond these, the Markdown parser's time grows out of proportion (a staircase of 1,000 ever more indented
 * lines takes it about 40 s), and no specification a person writes comes near them.
 */
const MAX_NESTING = 64;
const MAX_INDENT = 256;

/** The first line that nests containers (list markers, quotes) or indents past the limits, if any. */
function findExcessiveNesting(text: string): { line: number; what: string } | undefined {
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    line++;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let indent = 0;
    let depth = 0;
    let i = start;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) indent++;
      else if (c === 9) indent += 4 - (indent % 4);
      else if (c === 62 || ((c === 45 || c === 42 || c === 43) && text.charCodeAt(i + 1) === 32)) depth++;
      else break;
      if (indent > MAX_INDENT) return { line, what: `more than ${MAX_INDENT} columns deep` };
      if (depth > MAX_NESTING) return { line, what: `more than ${MAX_NESTING} levels deep` };
    }
    start = end + 1;
  }
  return undefined;
}

/** Callers pass strings; anything else (from plain JavaScript) is read as text rather than crashing. */
function asString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : String(value);
  } catch {
    return '';
  }
}

// ------------------------------------------------------------------------------------------ located text

type Obj = Record<string, unknown>;

/** A part of a located string that came from one node of the source. */
interface Piece {
  /** Range in the string. */
  start: number;
  end: number;
  /** text and code map character by character; raw is a verbatim slice; opaque maps to its start only. */
  kind: 'text' | 'code' | 'raw' | 'opaque';
  /** Range of the node in the source text. */
  from: number;
  to: number;
}

interface TextRoot {
  value: string;
  pieces: Piece[];
  /** Source offset used when a character cannot be mapped (the enclosing node's start). */
  at: number;
}

/**
 * A string read from the Markdown, with the way back to the source for each character. Slicing and
 * trimming keep the mapping, so that a list element or an expression after `=` is located exactly.
 */
class Text {
  constructor(
    readonly root: TextRoot,
    readonly start: number,
    readonly end: number,
  ) {}

  get value(): string {
    return this.root.value.slice(this.start, this.end);
  }

  get length(): number {
    return this.end - this.start;
  }

  slice(from: number, to: number = this.length): Text {
    const a = Math.max(0, Math.min(from, this.length));
    const b = Math.max(a, Math.min(to, this.length));
    return new Text(this.root, this.start + a, this.start + b);
  }

  trim(): Text {
    const v = this.root.value;
    let a = this.start;
    let b = this.end;
    while (a < b && isSpace(v.charCodeAt(a))) a++;
    while (b > a && isSpace(v.charCodeAt(b - 1))) b--;
    return new Text(this.root, a, b);
  }

  indexOf(needle: string, from = 0): number {
    return this.value.indexOf(needle, from);
  }
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0;
}

/**
 * Splits at `separator` outside parentheses and brackets (and, for expressions, outside quotes), so that
 * `draft (Draft, first), paid` is two values. Reads only the inline text of one cell or list item.
 */
function splitTop(text: Text, separator: string, quotes = false): Text[] {
  const v = text.value;
  const parts: Text[] = [];
  let depth = 0;
  let quote = '';
  let last = 0;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (quotes && (c === '"' || c === "'")) quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === separator && depth === 0) {
      parts.push(text.slice(last, i));
      last = i + 1;
    }
  }
  parts.push(text.slice(last));
  return parts;
}

/** `a, b, c` -> the trimmed, non-empty elements. */
function listOf(text: Text): Text[] {
  return splitTop(text, ',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

// ------------------------------------------------------------------------------------------ cell grammars

/** Header and key matching: case, spaces, hyphens and underscores do not matter. */
function norm(name: string): string {
  return name.toLowerCase().replace(/[\s_\-?:.]+/g, '');
}

/**
 * The known name closest to a misspelt one: `suggest`, and also one swap of neighbouring letters
 * (`monye` -> `money`), which Levenshtein distance counts as two edits.
 */
function closest(name: string, known: readonly string[]): string | undefined {
  const best = suggest(name, known);
  if (best !== undefined) return best;
  const lower = name.toLowerCase();
  for (let i = 0; i + 1 < lower.length; i++) {
    const swapped = lower.slice(0, i) + lower.charAt(i + 1) + lower.charAt(i) + lower.slice(i + 2);
    const hit = known.find((k) => k.toLowerCase() === swapped);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

function didYouMeanWord(name: string, known: readonly string[]): string | undefined {
  const best = closest(name, known);
  return best === undefined ? undefined : `did you mean "${best}"?`;
}

/** `Page size` from `pageSize`, for messages. */
function labelOf(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const YES = new Set(['yes', 'true', 'y', 'x', '✓', '✔']);
const NO = new Set(['no', 'false', 'n']);

/** A JS-like number, also with group separators (`10,000`, `10_000`); otherwise undefined. */
function readNumber(text: string): number | undefined {
  let t = text.trim();
  if (/^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(t)) t = t.replaceAll(',', '');
  else if (/^[+-]?\d+(?:_\d+)+(?:\.\d+(?:_\d+)*)?$/.test(t)) t = t.replaceAll('_', '');
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return undefined;
  const value = Number(t);
  return Number.isFinite(value) ? value : undefined;
}

/** Lowercase, with runs of spaces as one hyphen: `Sign in` -> `sign-in`. */
function word(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, '-');
}

const KIND_WORDS = [
  'text',
  'number',
  'integer',
  'boolean',
  'date',
  'datetime',
  'markdown',
  'money',
  'file',
  'enum',
  'reference',
  'object',
  'list',
];
/** Common words from other languages that are not kinds, with the kind meant. */
const KIND_SYNONYMS: Record<string, string> = {
  string: 'text',
  str: 'text',
  int: 'integer',
  bool: 'boolean',
  float: 'number',
  decimal: 'number',
  double: 'number',
  timestamp: 'datetime',
  time: 'datetime',
  currency: 'money',
  price: 'money',
  image: 'file',
  select: 'enum',
  choice: 'enum',
  array: 'list of ...',
  ref: 'reference to ...',
};
/** How each kind word that takes more is written, for hints. */
const KIND_FORMS: Record<string, string> = {
  money: 'money EUR',
  file: 'file: image/png, application/pdf',
  enum: 'enum: draft, placed, paid',
  reference: 'reference to Customer',
  ref: 'ref Customer',
  object: 'object Address',
  list: 'list of text',
};
const SIMPLE_KINDS: Record<string, string> = {
  text: 'text',
  number: 'number',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  'date-time': 'datetime',
  'date and time': 'datetime',
  markdown: 'markdown',
};

const RESPONSE_SHAPES = ['one', 'array', 'envelope', 'none'];
const PAGINATION_PARAMS: Record<string, string[]> = {
  page: ['pageParam', 'sizeParam'],
  offset: ['offsetParam', 'limitParam'],
  cursor: ['cursorParam', 'sizeParam', 'nextField'],
  'link-header': ['sizeParam'],
  none: [],
};
const ACTION_ALIASES: Record<string, string> = {
  view: 'read',
  see: 'read',
  add: 'create',
  new: 'create',
  edit: 'update',
  change: 'update',
  remove: 'delete',
};
const ERROR_ACTION_ALIASES: Record<string, string> = {
  'try-again': 'retry',
  'reload-page': 'reload',
  'log-in': 'sign-in',
  login: 'sign-in',
  signin: 'sign-in',
  'fix-the-field': 'fix-field',
  'go-back-to-the-list': 'go-back',
};
const SIGN_IN_KINDS: Record<string, string> = {
  none: 'none',
  password: 'password',
  apikey: 'api-key',
  basic: 'basic',
  oidc: 'oidc',
  openid: 'oidc',
  openidconnect: 'oidc',
  oauth: 'oauth2',
  oauth2: 'oauth2',
  oauth20: 'oauth2',
};
const SIGN_IN_HEADINGS = new Set(['signin', 'signingin', 'authentication', 'login', 'loggingin', 'signon']);

// ------------------------------------------------------------------------------------------ tables and lists

/** How a cell (or property value) becomes a value. `custom` cells are read by the point's own code. */
type CellType = 'text' | 'word' | 'upper' | 'list' | 'yesno' | 'amount' | 'custom';

interface Column {
  key: string;
  label: string;
  type: CellType;
  required?: boolean;
  aliases?: string[];
}

interface TableSpec {
  /** For messages: `screens table`. */
  what: string;
  /** The first column that names each row; absent when every row is an entry (errors). */
  name?: { label: string; aliases?: string[]; optional?: boolean };
  columns: Column[];
}

interface Row {
  node: TableRow;
  name?: Text;
  cells: Map<string, Text>;
}

const col = (key: string, type: CellType, options: Partial<Column> = {}): Column => ({
  key,
  label: options.label ?? labelOf(key),
  type,
  ...options,
});

function columnNames(column: { key?: string; label: string; aliases?: string[] }): string[] {
  return [column.key ?? '', column.label, ...(column.aliases ?? [])].filter((n) => n !== '').map(norm);
}

/** The first column's header matches the name column, also in the plural (`Screens`). */
function namesFirstColumn(spec: TableSpec, header: string): boolean {
  if (!spec.name) return false;
  const h = norm(header);
  return columnNames(spec.name).some((n) => h === n || h === `${n}s`);
}

const SCREENS: TableSpec = {
  what: 'screens table',
  name: { label: 'Screen' },
  columns: [
    col('kind', 'word', { required: true }),
    col('route', 'text', { required: true }),
    col('entity', 'text'),
    col('title', 'text'),
    col('columns', 'list'),
    col('filters', 'list'),
    col('sort', 'list'),
    col('pageSize', 'amount'),
    col('fields', 'list'),
    col('tiles', 'list'),
    col('roles', 'list'),
    col('hidden', 'yesno'),
    col('component', 'text'),
    col('description', 'text'),
  ],
};

const FIELDS: TableSpec = {
  what: 'fields table',
  name: { label: 'Field' },
  columns: [
    col('kind', 'custom', { required: true, aliases: ['type'] }),
    col('label', 'text'),
    col('help', 'text'),
    col('format', 'text'),
    col('widget', 'text'),
    col('readOnly', 'yesno'),
    col('writeOnly', 'yesno'),
    col('derived', 'text'),
    col('default', 'custom'),
  ],
};

const STATES_TABLE: TableSpec = {
  what: 'states table',
  name: { label: 'State' },
  columns: [col('label', 'text'), col('tone', 'word'), col('final', 'yesno')],
};

const TRANSITIONS: TableSpec = {
  what: 'transitions table',
  name: { label: 'Transition' },
  columns: [
    col('label', 'text'),
    col('from', 'list', { required: true }),
    col('to', 'text', { required: true }),
    col('roles', 'list'),
    col('guard', 'text'),
    col('guardMessage', 'text'),
    col('call', 'text'),
    col('confirm', 'text'),
    col('set', 'custom', { aliases: ['sets', 'effects'] }),
  ],
};

const FIELD_CONSTRAINTS: TableSpec = {
  what: 'field constraints table',
  name: { label: 'Field' },
  columns: [
    col('required', 'yesno'),
    col('min', 'amount'),
    col('max', 'amount'),
    col('pattern', 'text'),
    col('unique', 'yesno'),
    col('message', 'text'),
  ],
};

const RULES: TableSpec = {
  what: 'rules table',
  name: { label: 'Rule', optional: true },
  columns: [
    col('entity', 'text', { required: true }),
    col('check', 'text', { required: true }),
    col('message', 'text', { required: true }),
    col('field', 'text'),
    col('on', 'custom'),
  ],
};

const ROLES_TABLE: TableSpec = {
  what: 'roles table',
  name: { label: 'Role' },
  columns: [col('label', 'text'), col('description', 'text')],
};

const PERMISSIONS: TableSpec = {
  what: 'permissions table',
  name: { label: 'Role' },
  columns: [
    col('entity', 'custom', { required: true }),
    col('actions', 'custom', { required: true }),
    col('where', 'text'),
    col('hidden', 'list'),
    col('readOnly', 'list'),
  ],
};

const CALLS: TableSpec = {
  what: 'calls table',
  name: { label: 'Call' },
  columns: [
    col('method', 'upper', { required: true }),
    col('path', 'text', { required: true }),
    col('purpose', 'word'),
    col('entity', 'text'),
    col('description', 'text'),
    col('body', 'custom'),
    col('response', 'custom'),
    col('pagination', 'custom'),
    col('sort', 'custom'),
    col('filters', 'custom'),
  ],
};

const ERRORS: TableSpec = {
  what: 'error catalogue table',
  columns: [
    col('status', 'custom'),
    col('type', 'text'),
    col('code', 'text'),
    col('field', 'text'),
    col('message', 'text', { required: true }),
    col('action', 'custom'),
  ],
};

const CONSTANTS: TableSpec = {
  what: 'constants table',
  name: { label: 'Name', aliases: ['constant'] },
  columns: [
    col('value', 'custom', { required: true }),
    col('unit', 'text'),
    col('meaning', 'text', { aliases: ['description'] }),
  ],
};

interface Property {
  key: string;
  label: string;
  type: CellType;
  aliases?: string[];
}

const prop = (key: string, type: CellType, label = labelOf(key), aliases: string[] = []): Property => ({
  key,
  label,
  type,
  aliases,
});

const PRODUCT_PROPERTIES = [
  prop('audience', 'list', 'For', ['audience', 'who']),
  prop('home', 'text'),
  prop('language', 'text'),
];
const ENTITY_PROPERTIES = [
  prop('label', 'text'),
  prop('plural', 'text'),
  prop('key', 'text'),
  prop('display', 'text', 'Display', ['label field', 'shown as', 'title field']),
  prop('embedded', 'yesno'),
];
const MACHINE_PROPERTIES = [prop('initial', 'text')];
const SIGN_IN_PROPERTIES = [
  prop('kind', 'custom'),
  prop('call', 'text'),
  prop('session', 'word'),
  prop('in', 'word'),
  prop('name', 'text'),
  prop('issuer', 'text'),
  prop('clientId', 'text', 'Client id'),
  prop('scopes', 'list'),
  prop('authorizationUrl', 'text', 'Authorization URL'),
  prop('tokenUrl', 'text', 'Token URL'),
];
const CALLS_PROPERTIES = [prop('baseUrl', 'text', 'Base URL')];

interface PropertyEntry {
  property: Property;
  key: Text;
  value: Text;
  /** Texts of a nested list under the item, for list-valued properties. */
  nested: Text[];
}

const POINT_LABELS: Record<PointKey, string> = {
  product: 'product',
  screens: 'screens',
  entities: 'entities',
  states: 'states',
  validation: 'validation',
  roles: 'roles',
  calls: 'calls',
  errors: 'errors',
  constants: 'constants',
};
const SECTION_LIST =
  '1 product, 2 screens, 3 entities, 4 states, 5 validation, 6 roles, 7 calls, 8 errors, 9 constants';
const SECTION_WORDS: Array<[string, number]> = [
  ['product', 1],
  ['screen', 2],
  ['route', 2],
  ['entit', 3],
  ['field', 3],
  ['state', 4],
  ['transition', 4],
  ['workflow', 4],
  ['validation', 5],
  ['rule', 5],
  ['role', 6],
  ['permission', 6],
  ['sign', 6],
  ['call', 7],
  ['api', 7],
  ['error', 8],
  ['constant', 9],
  ['limit', 9],
];

/** The number a `##` heading starts with (`4. States`, `4) Workflow`, `4 - States`), when it is 1 to 9. */
function sectionNumber(heading: string): number | undefined {
  const match = /^\s*(\d+)(.*)$/s.exec(heading);
  if (!match?.[1]) return undefined;
  const rest = match[2] ?? '';
  if (/^[.,]\d/.test(rest)) return undefined;
  const n = Number(match[1]);
  return n >= 1 && n <= 9 ? n : undefined;
}

interface Section {
  heading: Heading;
  number: number | undefined;
  blocks: RootContent[];
}

interface Subsection {
  heading: Heading;
  blocks: RootContent[];
}

interface Place {
  at?: SourcePosition;
  text?: Text;
  key?: SourcePosition;
}

function pathKey(path: readonly PathSegment[]): string {
  return JSON.stringify(path.map(String));
}

function describe(node: RootContent, inline: (node: Nodes) => string): string {
  switch (node.type) {
    case 'table': {
      const header = node.children[0]?.children[0];
      return `the table whose first column is "${header ? inline(header) : ''}"`;
    }
    case 'heading':
      return `the heading "${'#'.repeat(node.depth)} ${inline(node)}"`;
    case 'list':
      return 'a list';
    case 'paragraph':
      return 'a paragraph';
    case 'code':
      return 'a code block';
    case 'blockquote':
      return 'a quotation';
    default:
      return `a block (${node.type})`;
  }
}

// ------------------------------------------------------------------------------------------ the reader

class Reader {
  readonly issues: Issue[] = [];
  data: Obj | undefined;
  private readonly places = new Map<string, Place>();
  private readonly lineStarts: number[] = [0];
  private readonly notes = new Map<PointKey, RootContent[]>();
  /** Whether the section being read has a table, properties list or subsection that the point uses. */
  private structured = false;

  constructor(
    readonly source: string,
    readonly file: string,
  ) {
    for (let i = 0; i < source.length; i++) {
      const c = source.charCodeAt(i);
      if (c === 10) this.lineStarts.push(i + 1);
      else if (c === 13 && source.charCodeAt(i + 1) !== 10) this.lineStarts.push(i + 1);
    }
  }

  // ---------------------------------------------------------------------------------------- positions

  position(offset: number): SourcePosition {
    const o = Math.max(0, Math.min(offset, this.source.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= o) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: o - (this.lineStarts[lo] ?? 0) + 1 };
  }

  private startOf(node: Nodes | undefined): number {
    return node?.position?.start.offset ?? 0;
  }

  private endOf(node: Nodes | undefined): number {
    return node?.position?.end.offset ?? this.startOf(node);
  }

  at(node: Nodes | undefined): SourcePosition {
    if (node?.position?.start.offset === undefined && node?.position) {
      return { file: this.file, line: node.position.start.line, column: node.position.start.column };
    }
    return this.position(this.startOf(node));
  }

  /** The source offset of character `offset` of a located string. */
  private offsetIn(text: Text, offset: number): number {
    const index = text.start + Math.max(0, Math.min(offset, text.length));
    const pieces = text.root.pieces;
    let piece: Piece | undefined;
    for (const p of pieces) {
      if (p.start <= index && (index < p.end || (index === p.end && p === pieces[pieces.length - 1]))) {
        piece = p;
        break;
      }
      if (p.start > index) {
        piece = p;
        break;
      }
    }
    if (!piece) return text.root.at;
    if (index < piece.start) return piece.from;
    const k = index - piece.start;
    switch (piece.kind) {
      case 'raw':
        return piece.from + k;
      case 'opaque':
        return piece.from;
      case 'text':
      case 'code':
        return this.mapInNode(piece, text.root.value.slice(piece.start, piece.end), k) ?? piece.from;
    }
  }

  /**
   * Walks the node's source and its value side by side up to character `k` of the value. Escapes (`\|`
   * in a table, `\*`) take two source characters for one; a code span's backticks and its stripped space
   * are skipped. Returns undefined when the two cannot be aligned (entities such as `&amp;`).
   */
  private mapInNode(piece: Piece, value: string, k: number): number | undefined {
    const src = this.source;
    let i = piece.from;
    let end = piece.to;
    if (piece.kind === 'code') {
      let ticks = 0;
      while (src[i + ticks] === '`') ticks++;
      i += ticks;
      end -= ticks;
      const inner = src.slice(i, end);
      const edge = (c: string | undefined) => c === ' ' || c === '\n' || c === '\r';
      if (inner.length >= 2 && edge(inner[0]) && edge(inner[inner.length - 1]) && inner.trim() !== '') i++;
    }
    let afterNewline = false;
    let j = 0;
    while (j < k) {
      if (i >= end) return undefined;
      const c = value[j];
      const s = src[i];
      if (s === c || (piece.kind === 'code' && c === ' ' && (s === '\n' || s === '\r'))) {
        afterNewline = s === '\n' || s === '\r';
        i++;
        j++;
      } else if (s === '\\' && src[i + 1] === c) {
        afterNewline = false;
        i += 2;
        j++;
      } else if (afterNewline && (s === ' ' || s === '\t')) {
        i++;
      } else {
        return undefined;
      }
    }
    return i;
  }

  /** Where a located string starts: at the backtick when it starts with a code span. */
  private textStart(text: Text): SourcePosition {
    const piece = text.root.pieces.find((p) => p.start === text.start);
    if (piece && (piece.kind === 'code' || piece.kind === 'opaque')) return this.position(piece.from);
    return this.position(this.offsetIn(text, 0));
  }

  record(path: readonly PathSegment[], at: Text | SourcePosition | undefined, key?: SourcePosition): void {
    const place: Place = {};
    if (at instanceof Text) place.text = at;
    else if (at) place.at = at;
    if (key) place.key = key;
    this.places.set(pathKey(path), place);
  }

  private placeAt(place: Place): SourcePosition | undefined {
    if (place.text) return this.textStart(place.text);
    return place.at ? { ...place.at } : undefined;
  }

  locate(path: readonly PathSegment[], options?: { key?: boolean }): SourcePosition | undefined {
    try {
      for (let n = path.length; n >= 0; n--) {
        const place = this.places.get(pathKey(path.slice(0, n)));
        if (!place) continue;
        if (options?.key && n === path.length && place.key) return { ...place.key };
        const at = this.placeAt(place);
        if (at) return at;
      }
    } catch {
      // A lookup must never fail the caller; fall through to the start of the file.
    }
    return { file: this.file, line: 1, column: 1 };
  }

  locateInString(path: readonly PathSegment[], offset: number): SourcePosition | undefined {
    try {
      const place = this.places.get(pathKey(path));
      const text = place?.text;
      if (text && Number.isFinite(offset) && offset >= 0 && offset <= text.length) {
        return this.position(this.offsetIn(text, offset));
      }
    } catch {
      // Fall back to the string's own position.
    }
    return this.locate(path);
  }

  // ---------------------------------------------------------------------------------------- issues

  issue(
    code: IssueCode,
    severity: Severity,
    message: string,
    path: readonly PathSegment[],
    at: SourcePosition | Text | undefined,
    hint?: string,
  ): void {
    const source = at instanceof Text ? this.textStart(at) : at;
    const issue: Issue = { code, severity, message, path: [...path] };
    if (source) issue.source = source;
    if (hint) issue.hint = hint;
    this.issues.push(issue);
  }

  internalError(error: unknown, path: readonly PathSegment[], at?: SourcePosition): void {
    const detail = error instanceof Error ? error.message : String(error);
    this.issue(
      'syntax',
      'error',
      `Ninefold could not read this part of the document because of an internal error (${detail}).`,
      path,
      at ?? { file: this.file, line: 1, column: 1 },
      'Please report this as a bug, with the document.',
    );
  }

  private unused(point: PointKey, node: RootContent, why: string, hint?: string): void {
    this.issue(
      'unused-content',
      'warning',
      `In section ${POINT_KEYS.indexOf(point) + 1} (${POINT_LABELS[point]}), ${describe(node, (n) => this.plain(n))} is not used: ${why}`,
      [point],
      this.at(node),
      hint,
    );
  }

  // ---------------------------------------------------------------------------------------- text

  /** The text of an inline container, like mdast-util-to-string, with the mapping back to the source. */
  inline(node: Nodes): Text {
    const pieces: Piece[] = [];
    let value = '';
    const stack: Nodes[] = [node];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      if (n.type === 'text' || n.type === 'inlineCode') {
        pieces.push({
          start: value.length,
          end: value.length + n.value.length,
          kind: n.type === 'text' ? 'text' : 'code',
          from: this.startOf(n),
          to: this.endOf(n),
        });
        value += n.value;
      } else if (n.type === 'break') {
        value += ' ';
      } else if ('value' in n && typeof n.value === 'string') {
        pieces.push({
          start: value.length,
          end: value.length + n.value.length,
          kind: 'opaque',
          from: this.startOf(n),
          to: this.endOf(n),
        });
        value += n.value;
      } else if ((n.type === 'image' || n.type === 'imageReference') && n.alt) {
        pieces.push({
          start: value.length,
          end: value.length + n.alt.length,
          kind: 'opaque',
          from: this.startOf(n),
          to: this.endOf(n),
        });
        value += n.alt;
      } else if ('children' in n) {
        const children = n.children as Nodes[];
        for (let i = children.length - 1; i >= 0; i--) {
          const child = children[i];
          if (child) stack.push(child);
        }
      }
    }
    // A soft line break inside a value reads as a space (same length, so the mapping holds).
    value = value.replace(/\r\n?|\n/g, (m) => ' '.repeat(m.length));
    return new Text({ value, pieces, at: this.startOf(node) }, 0, value.length);
  }

  plain(node: Nodes): string {
    return this.inline(node).trim().value;
  }

  /** The original source of prose blocks, joined by a blank line, so that their formatting survives. */
  prose(blocks: readonly RootContent[]): Text {
    const pieces: Piece[] = [];
    let value = '';
    for (const block of blocks) {
      if (value !== '') value += '\n\n';
      const from = this.startOf(block);
      const to = this.endOf(block);
      pieces.push({ start: value.length, end: value.length + (to - from), kind: 'raw', from, to });
      value += this.source.slice(from, to);
    }
    return new Text({ value, pieces, at: this.startOf(blocks[0]) }, 0, value.length);
  }

  // ---------------------------------------------------------------------------------------- the document

  read(): void {
    if (this.source.trim() === '') {
      this.issue('empty-file', 'error', 'The file is empty.', [], this.position(0));
      return;
    }
    // Only GFM tables: the convention needs nothing else from GFM, and autolink literals alone cost about a
    // third of the parse time while changing no text that the reader takes.
    const tree = fromMarkdown(this.source, {
      extensions: [gfmTable()],
      mdastExtensions: [gfmTableFromMarkdown()],
    });
    const data: Obj = {};
    this.data = data;
    this.record([], this.position(0));

    let title: Heading | undefined;
    const sections: Section[] = [];
    let current: Section | undefined;
    for (const node of tree.children) {
      if (node.type === 'heading' && node.depth === 1) {
        if (title === undefined) {
          title = node;
        } else {
          this.issue(
            'extra-title',
            'warning',
            `The document has more than one title; "${this.plain(node)}" is ignored and "${this.plain(title)}" is used.`,
            ['title'],
            this.at(node),
            'Use "#" for the title only, and "##" for the nine sections.',
          );
        }
        continue;
      }
      if (node.type === 'heading' && node.depth === 2) {
        current = { heading: node, number: sectionNumber(this.plain(node)), blocks: [] };
        sections.push(current);
        continue;
      }
      // HTML comments are notes to the authors, never content.
      if (node.type === 'html' && node.value.trimStart().startsWith('<!--')) continue;
      // Content before the first section is a preface: read by people, not by Ninefold.
      current?.blocks.push(node);
    }

    const titleText = title ? this.inline(title).trim() : undefined;
    if (titleText && titleText.length > 0) {
      data.title = titleText.value;
      this.record(['title'], titleText, this.at(title));
    } else {
      this.issue(
        'missing-title',
        'error',
        'The document has no title: it should start with "# " and the name of the product.',
        ['title'],
        title ? this.at(title) : this.position(0),
        'Write the title on the first line, for example "# Corner Shop".',
      );
    }

    const seen = new Map<number, Section>();
    let highest = 0;
    const values = new Map<PointKey, unknown>();
    for (const section of sections) {
      const n = section.number;
      const headingText = this.plain(section.heading);
      if (n === undefined) {
        const lower = headingText.toLowerCase();
        const guess = SECTION_WORDS.find(([w]) => lower.includes(w));
        this.issue(
          'unknown-section',
          'error',
          `The section "## ${headingText}" has no number from 1 to 9, so Ninefold cannot tell which point it is; its content is ignored.`,
          [],
          this.at(section.heading),
          guess
            ? `did you mean "## ${guess[1]}. ${headingText}"? The sections are numbered ${SECTION_LIST}.`
            : `Start the heading with the point's number: ${SECTION_LIST}.`,
        );
        continue;
      }
      const key = POINT_KEYS[n - 1] as PointKey;
      const first = seen.get(n);
      if (first) {
        this.issue(
          'duplicate-section',
          'error',
          `Section ${n} (${POINT_LABELS[key]}) appears twice; this second one is ignored (the first is at line ${this.at(first.heading).line}).`,
          [key],
          this.at(section.heading),
          'Merge the two sections into one.',
        );
        continue;
      }
      seen.set(n, section);
      if (n < highest) {
        this.issue(
          'section-order',
          'warning',
          `Section ${n} (${POINT_LABELS[key]}) comes after section ${highest}; the sections should be in order from 1 to 9.`,
          [key],
          this.at(section.heading),
          'It is still read; move it so that readers find the points in the usual order.',
        );
      }
      highest = Math.max(highest, n);
      this.record([key], this.at(section.heading), this.at(section.heading));
      try {
        const value = this.readSection(key, section);
        if (value !== undefined) values.set(key, value);
      } catch (error) {
        this.internalError(error, [key], this.at(section.heading));
      }
    }

    for (const key of POINT_KEYS) {
      if (values.has(key)) data[key] = values.get(key);
    }
    const notes: Obj = {};
    for (const key of POINT_KEYS) {
      const blocks = this.notes.get(key);
      if (!blocks || blocks.length === 0) continue;
      const text = this.prose(blocks);
      notes[key] = text.value;
      this.record(['notes', key], text);
    }
    if (Object.keys(notes).length > 0) {
      data.notes = notes;
      const firstNote = Object.keys(notes)[0] ?? '';
      this.record(['notes'], this.locate(['notes', firstNote]));
    }
  }

  private readSection(key: PointKey, section: Section): unknown {
    const blocks = section.blocks.filter((b) => b.type !== 'thematicBreak');
    const first = blocks[0];
    // An empty section is left out, so that the check reports the point as missing (at this heading).
    if (!first) return undefined;
    if (first.type === 'paragraph') {
      const text = this.inline(first).trim();
      if (NOT_SHOWN_PATTERN.test(text.value)) {
        this.record([key], text, this.at(section.heading));
        const rest = blocks[1];
        if (rest) {
          this.unused(
            key,
            rest,
            `the section says "not shown", so the ${blocks.length - 1} block(s) after it are ignored.`,
            'Remove "not shown" to use the content, or remove the content.',
          );
        }
        return text.value;
      }
    }
    this.structured = false;
    const value = this.readPoint(key, blocks, section);
    // Prose alone (a misspelt "not shown", say) is no content: the point counts as missing, and the
    // prose is still kept as notes.
    return key === 'product' || this.structured ? value : undefined;
  }

  private readPoint(key: PointKey, blocks: readonly RootContent[], section: Section): unknown {
    switch (key) {
      case 'product':
        return this.readProduct(blocks);
      case 'screens':
        return this.readScreens(blocks);
      case 'entities':
        return this.readEntities(blocks);
      case 'states':
        return this.readStates(blocks);
      case 'validation':
        return this.readValidation(blocks);
      case 'roles':
        return this.readRoles(blocks, section);
      case 'calls':
        return this.readCalls(blocks);
      case 'errors':
        return this.readErrors(blocks);
      case 'constants':
        return this.readConstants(blocks);
    }
  }

  private note(key: PointKey, block: RootContent): void {
    const list = this.notes.get(key) ?? [];
    list.push(block);
    this.notes.set(key, list);
  }

  /** Blocks before the first `###`, then one group per `###`. Deeper headings stay with the blocks. */
  private subsections(blocks: readonly RootContent[]): { intro: RootContent[]; subs: Subsection[] } {
    const intro: RootContent[] = [];
    const subs: Subsection[] = [];
    let current: Subsection | undefined;
    for (const block of blocks) {
      if (block.type === 'heading' && block.depth === 3) {
        current = { heading: block, blocks: [] };
        subs.push(current);
      } else if (current) current.blocks.push(block);
      else intro.push(block);
    }
    return { intro, subs };
  }

  /** In points without subsections, a `###` is reported and what follows it is read as usual. */
  private flatten(key: PointKey, blocks: readonly RootContent[]): RootContent[] {
    const out: RootContent[] = [];
    for (const block of blocks) {
      if (block.type === 'heading' && block.depth === 3) {
        this.unused(
          key,
          block,
          'this point has no subsections; the heading is ignored and what follows it is read as part of the section.',
          'Remove the heading, or use "####" for a heading that belongs to the notes.',
        );
      } else out.push(block);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------- generic tables

  private readTable(table: Table, spec: TableSpec, path: readonly PathSegment[]): Row[] {
    this.structured = true;
    const [header, ...body] = table.children;
    if (!header) return [];
    const keys: Array<string | undefined> = [];
    const seen = new Set<string>();
    const known = spec.columns.flatMap((c) => columnNames(c).map((n) => [n, c] as const));
    header.children.forEach((cell, index) => {
      if (index === 0 && spec.name) {
        keys.push(undefined);
        return;
      }
      const text = this.plain(cell);
      const n = norm(text);
      const column = known.find(([name]) => name === n)?.[1];
      if (!column) {
        keys.push(undefined);
        if (text === '') return;
        const names = known.map(([name]) => name);
        const best = closest(n, names);
        const bestColumn = best === undefined ? undefined : known.find(([name]) => name === best)?.[1];
        this.issue(
          'unknown-column',
          'error',
          `The ${spec.what} has a column "${text}" that Ninefold does not know; its cells are ignored.`,
          [...path],
          this.at(cell),
          bestColumn
            ? `did you mean "${bestColumn.label}"?`
            : `The columns are: ${[spec.name?.label, ...spec.columns.map((c) => c.label)].filter(Boolean).join(', ')}.`,
        );
        return;
      }
      if (seen.has(column.key)) {
        keys.push(undefined);
        this.issue(
          'duplicate-key',
          'error',
          `The ${spec.what} has the column "${column.label}" twice; the second one is ignored.`,
          [...path],
          this.at(cell),
        );
        return;
      }
      seen.add(column.key);
      keys.push(column.key);
    });
    for (const column of spec.columns) {
      if (column.required && !seen.has(column.key)) {
        this.issue(
          'missing-column',
          'error',
          `The ${spec.what} has no "${column.label}" column, which every row needs.`,
          [...path],
          this.at(header),
          `Add a "${column.label}" column.`,
        );
      }
    }

    const rows: Row[] = [];
    for (const row of body) {
      const texts = row.children.map((cell) => this.inline(cell).trim());
      if (texts.every((t) => t.length === 0)) continue;
      const cells = new Map<string, Text>();
      texts.forEach((text, index) => {
        if (index === 0 && spec.name) return;
        const key = keys[index];
        if (text.length === 0) return;
        if (index >= keys.length) {
          this.issue(
            'unused-content',
            'warning',
            `A row of the ${spec.what} has more cells than the header has columns; "${text.value}" is ignored.`,
            [...path],
            this.at(row.children[index]),
          );
          return;
        }
        if (key) cells.set(key, text);
      });
      const entry: Row = { node: row, cells };
      if (spec.name) {
        const name = texts[0];
        if (!name || name.length === 0) {
          if (!spec.name.optional) {
            this.issue(
              'missing-key',
              'error',
              `A row of the ${spec.what} has no name in its first column ("${spec.name.label}"); the row is ignored.`,
              [...path],
              this.at(row),
              `Write the name in the "${spec.name.label}" column.`,
            );
            continue;
          }
        } else entry.name = name;
      }
      rows.push(entry);
    }
    return rows;
  }

  /** Adds a named item to a map once; the same name again is reported and ignored. */
  private addNamed(map: Obj, name: Text, value: Obj | unknown, path: readonly PathSegment[], what: string) {
    if (Object.hasOwn(map, name.value)) {
      this.issue(
        'duplicate-name',
        'error',
        `There are two ${what} named "${name.value}"; the second one is ignored.`,
        [...path, name.value],
        name,
      );
      return false;
    }
    map[name.value] = value;
    return true;
  }

  /** Sets a simply typed cell or property value, with its position. Returns false when absent. */
  private setSimple(
    target: Obj,
    path: readonly PathSegment[],
    key: string,
    type: CellType,
    text: Text | undefined,
    label: string,
  ): void {
    if (!text || text.length === 0) return;
    const at = [...path, key];
    switch (type) {
      case 'text':
      case 'custom':
        target[key] = text.value;
        this.record(at, text);
        return;
      case 'word':
        target[key] = word(text.value);
        this.record(at, text);
        return;
      case 'upper':
        target[key] = text.value.toUpperCase();
        this.record(at, text);
        return;
      case 'list':
        target[key] = this.list(text, at);
        this.record(at, text);
        return;
      case 'amount': {
        const n = readNumber(text.value);
        target[key] = n ?? text.value;
        this.record(at, text);
        return;
      }
      case 'yesno': {
        const b = this.yesNo(text, at, label);
        if (b !== undefined) {
          target[key] = b;
          this.record(at, text);
        }
        return;
      }
    }
  }

  private fillRow(target: Obj, row: Row, spec: TableSpec, path: readonly PathSegment[]): void {
    for (const column of spec.columns) {
      if (column.type === 'custom') continue;
      this.setSimple(target, path, column.key, column.type, row.cells.get(column.key), column.label);
    }
  }

  private list(text: Text, path: readonly PathSegment[]): string[] {
    const items = listOf(text);
    items.forEach((item, i) => {
      this.record([...path, i], item);
    });
    return items.map((item) => item.value);
  }

  private yesNo(text: Text, path: readonly PathSegment[], label: string): boolean | undefined {
    const v = text.value.trim().toLowerCase();
    if (YES.has(v)) return true;
    if (NO.has(v)) return false;
    this.issue(
      'unreadable-cell',
      'error',
      `"${text.value}" in "${label}" is not yes or no; it is ignored.`,
      path,
      text,
      'Write yes or no (also true/false, y/n, or x / ✓ for yes).',
    );
    return undefined;
  }

  private unreadable(text: Text, path: readonly PathSegment[], message: string, hint?: string): void {
    this.issue('unreadable-cell', 'error', message, path, text, hint);
  }

  // ---------------------------------------------------------------------------------------- properties lists

  private propertyKey(item: ListItem): { key: Text; value: Text } | undefined {
    const first = item.children[0];
    if (first?.type !== 'paragraph') return undefined;
    const text = this.inline(first);
    const colon = text.indexOf(':');
    if (colon <= 0) return undefined;
    return { key: text.slice(0, colon).trim(), value: text.slice(colon + 1).trim() };
  }

  /** A list is a properties list when one of its items starts with a known key and a colon. */
  private isProperties(list: List, properties: readonly Property[]): boolean {
    const names = properties.flatMap((p) => columnNames(p));
    return list.children.some((item, index) => {
      const kv = this.propertyKey(item);
      if (!kv || kv.key.length > 40) return false;
      const n = norm(kv.key.value);
      if (n === '') return false;
      return names.includes(n) || (index === 0 && closest(n, names) !== undefined);
    });
  }

  private readProperties(
    list: List,
    properties: readonly Property[],
    path: readonly PathSegment[],
    found: Map<string, PropertyEntry>,
  ): void {
    this.structured = true;
    const known = properties.flatMap((p) => columnNames(p).map((n) => [n, p] as const));
    for (const item of list.children) {
      const kv = this.propertyKey(item);
      if (!kv || kv.key.length === 0) {
        const first = item.children[0];
        this.issue(
          'unreadable-cell',
          'error',
          `The list item "${first ? this.plain(first) : ''}" should read "Key: value"; it is ignored.`,
          [...path],
          this.at(item),
          `The keys here are: ${properties.map((p) => p.label).join(', ')}.`,
        );
        continue;
      }
      const n = norm(kv.key.value);
      const property = known.find(([name]) => name === n)?.[1];
      if (!property) {
        const best = closest(
          n,
          known.map(([name]) => name),
        );
        const bestProperty = best === undefined ? undefined : known.find(([name]) => name === best)?.[1];
        this.issue(
          'unknown-key',
          'error',
          `"${kv.key.value}" is not a property Ninefold knows here; it is ignored.`,
          [...path],
          kv.key,
          bestProperty
            ? `did you mean "${bestProperty.label}"?`
            : `The keys here are: ${properties.map((p) => p.label).join(', ')}.`,
        );
        continue;
      }
      if (found.has(property.key)) {
        this.issue(
          'duplicate-key',
          'error',
          `"${property.label}" is given twice; the second one is ignored.`,
          [...path, property.key],
          kv.key,
        );
        continue;
      }
      const nested: Text[] = [];
      for (const child of item.children.slice(1)) {
        if (child.type === 'list' && property.type === 'list') {
          for (const sub of child.children) {
            const para = sub.children[0];
            if (para?.type === 'paragraph') nested.push(this.inline(para).trim());
          }
        } else {
          this.issue(
            'unused-content',
            'warning',
            `The content under "${property.label}" is not used: a property's value is the text after the colon.`,
            [...path, property.key],
            this.at(child),
          );
        }
      }
      found.set(property.key, { property, key: kv.key, value: kv.value, nested });
    }
  }

  /** Applies simply typed properties to a target object. */
  private applyProperties(target: Obj, path: readonly PathSegment[], found: Map<string, PropertyEntry>) {
    for (const [key, entry] of found) {
      const at = [...path, key];
      if (entry.property.type === 'list') {
        const values = [...listOf(entry.value), ...entry.nested.filter((t) => t.length > 0)];
        if (values.length === 0) continue;
        target[key] = values.map((v) => v.value);
        values.forEach((v, i) => {
          this.record([...at, i], v);
        });
        this.record(at, entry.value.length > 0 ? entry.value : values[0], this.textStart(entry.key));
        continue;
      }
      if (entry.property.type === 'custom') continue;
      this.setSimple(target, path, key, entry.property.type, entry.value, entry.property.label);
      const place = this.places.get(pathKey(at));
      if (place) place.key = this.textStart(entry.key);
    }
  }

  // ---------------------------------------------------------------------------------------- 1. product

  private readProduct(input: readonly RootContent[]): Obj {
    const product: Obj = {};
    const found = new Map<string, PropertyEntry>();
    const prose: RootContent[] = [];
    let summary: Text | undefined;
    for (const block of input) {
      if (block.type === 'paragraph' && summary === undefined) {
        summary = this.inline(block).trim();
        if (summary.length > 0) {
          product.summary = summary.value;
          this.record(['product', 'summary'], summary);
        }
      } else if (block.type === 'list' && this.isProperties(block, PRODUCT_PROPERTIES)) {
        this.readProperties(block, PRODUCT_PROPERTIES, ['product'], found);
      } else if (block.type === 'table') {
        this.unused('product', block, 'point 1 has no tables.', 'Use a list of "Key: value" items instead.');
      } else {
        prose.push(block);
      }
    }
    this.applyProperties(product, ['product'], found);
    if (prose.length > 0) {
      const text = this.prose(prose);
      product.description = text.value;
      this.record(['product', 'description'], text);
    }
    return product;
  }

  // ---------------------------------------------------------------------------------------- 2. screens

  private readScreens(input: readonly RootContent[]): Obj {
    const screens: Obj = {};
    for (const block of this.flatten('screens', input)) {
      if (block.type === 'table') {
        if (!this.tableIs(block, SCREENS, 'screens')) continue;
        for (const row of this.readTable(block, SCREENS, ['screens'])) {
          if (!row.name) continue;
          const screen: Obj = {};
          if (!this.addNamed(screens, row.name, screen, ['screens'], 'screens')) continue;
          const path = ['screens', row.name.value];
          this.record(path, row.name, this.textStart(row.name));
          this.fillRow(screen, row, SCREENS, path);
        }
      } else {
        this.note('screens', block);
      }
    }
    return screens;
  }

  /** Checks the first column; an unknown one is reported as unused, with a hint. */
  private tableIs(table: Table, spec: TableSpec | readonly TableSpec[], point: PointKey): boolean {
    const specs = Array.isArray(spec) ? spec : [spec as TableSpec];
    const header = table.children[0]?.children[0];
    const text = header ? this.plain(header) : '';
    if (specs.some((s) => namesFirstColumn(s, text))) return true;
    const labels = [...new Set(specs.map((s) => s.name?.label ?? ''))];
    const best = closest(
      norm(text),
      labels.map((l) => norm(l)),
    );
    const bestLabel = labels.find((l) => norm(l) === best);
    this.unused(
      point,
      table,
      `tables here start with a column ${labels.map((l) => `"${l}"`).join(' or ')}.`,
      bestLabel ? `did you mean "${bestLabel}"?` : undefined,
    );
    return false;
  }

  // ---------------------------------------------------------------------------------------- 3. entities

  private readEntities(input: readonly RootContent[]): Obj {
    const entities: Obj = {};
    const { intro, subs } = this.subsections(input);
    for (const block of intro) {
      if (block.type === 'table' || (block.type === 'list' && this.isProperties(block, ENTITY_PROPERTIES))) {
        this.unused(
          'entities',
          block,
          'it comes before the first entity.',
          'Put it under a "### Name" heading that names the entity.',
        );
      } else this.note('entities', block);
    }
    for (const sub of subs) {
      const name = this.inline(sub.heading).trim();
      if (name.length === 0) {
        this.issue(
          'missing-key',
          'error',
          'An entity heading "###" has no name; its content is ignored.',
          ['entities'],
          this.at(sub.heading),
        );
        continue;
      }
      this.structured = true;
      const entity: Obj = {};
      if (!this.addNamed(entities, name, entity, ['entities'], 'entities')) continue;
      const path = ['entities', name.value];
      this.record(path, this.at(sub.heading), this.textStart(name));
      try {
        this.readEntity(entity, sub, path);
      } catch (error) {
        this.internalError(error, path, this.at(sub.heading));
      }
    }
    return entities;
  }

  private readEntity(entity: Obj, sub: Subsection, path: PathSegment[]): void {
    const found = new Map<string, PropertyEntry>();
    const prose: RootContent[] = [];
    const fields: Obj = {};
    let fieldsAt: SourcePosition | undefined;
    for (const block of sub.blocks) {
      if (block.type === 'table') {
        if (!this.tableIs(block, FIELDS, 'entities')) continue;
        fieldsAt ??= this.at(block);
        for (const row of this.readTable(block, FIELDS, [...path, 'fields'])) {
          if (!row.name) continue;
          const field: Obj = {};
          if (!this.addNamed(fields, row.name, field, [...path, 'fields'], `fields of ${path[1]}`)) continue;
          const fieldPath = [...path, 'fields', row.name.value];
          this.record(fieldPath, row.name, this.textStart(row.name));
          this.readField(field, row, fieldPath);
        }
      } else if (block.type === 'list' && this.isProperties(block, ENTITY_PROPERTIES)) {
        this.readProperties(block, ENTITY_PROPERTIES, path, found);
      } else {
        prose.push(block);
      }
    }
    this.applyProperties(entity, path, found);
    if (prose.length > 0) {
      const text = this.prose(prose);
      entity.description = text.value;
      this.record([...path, 'description'], text);
    }
    entity.fields = fields;
    this.record([...path, 'fields'], fieldsAt ?? this.at(sub.heading));
  }

  private readField(field: Obj, row: Row, path: PathSegment[]): void {
    const kind = row.cells.get('kind');
    if (kind) Object.assign(field, this.readType(kind, path));
    this.fillRow(field, row, FIELDS, path);
    const def = row.cells.get('default');
    if (def) {
      const at = [...path, 'default'];
      const k = field.kind;
      if (k === 'number' || k === 'integer' || k === 'money') {
        field.default = readNumber(def.value) ?? def.value;
        this.record(at, def);
      } else if (k === 'boolean') {
        const b = this.yesNo(def, at, 'Default');
        if (b !== undefined) {
          field.default = b;
          this.record(at, def);
        }
      } else {
        field.default = def.value;
        this.record(at, def);
      }
    }
  }

  /**
   * The kind grammar: `text`, `money EUR`, `enum: a (A), b`, `reference to Customer`, `list of object Line`...
   * `list of` nests without recursion, so that no cell can exhaust the stack.
   */
  private readType(text: Text, path: readonly PathSegment[]): Obj {
    let rest = text;
    const levels: Text[] = [];
    for (;;) {
      const m = /^list\s+of\s+/i.exec(rest.value);
      if (!m) break;
      levels.push(rest);
      rest = rest.slice(m[0].length);
    }
    const innerPath = [...path, ...levels.map(() => 'of')];
    const inner = this.readScalarType(rest, innerPath, text);
    if (!inner) return {};
    let type = inner;
    for (let i = levels.length - 1; i >= 0; i--) {
      const levelPath = [...path, ...levels.slice(0, i).map(() => 'of')];
      this.record([...levelPath, 'kind'], levels[i]);
      this.record([...levelPath, 'of'], levels[i + 1] ?? rest);
      type = { kind: 'list', of: type };
    }
    return type;
  }

  private readScalarType(text: Text, path: readonly PathSegment[], whole: Text): Obj | undefined {
    const value = text.value.trim();
    const lower = value.toLowerCase().replace(/\s+/g, ' ');
    const kindAt = [...path, 'kind'];
    const simple = SIMPLE_KINDS[lower];
    if (simple) {
      this.record(kindAt, text);
      return { kind: simple };
    }
    let m = /^money(?:\s*\(\s*([a-z]{3})\s*\)|\s+([a-z]{3}))?$/i.exec(value);
    if (m) {
      this.record(kindAt, text);
      const currency = m[1] ?? m[2];
      if (!currency) return { kind: 'money' };
      const index = value.lastIndexOf(currency);
      this.record([...path, 'currency'], text.slice(index, index + 3));
      return { kind: 'money', currency: currency.toUpperCase() };
    }
    m = /^file(?:\s*:(.*))?$/is.exec(value);
    if (m) {
      this.record(kindAt, text);
      if (m[1] === undefined || m[1].trim() === '') return { kind: 'file' };
      const accept = this.list(text.slice(text.indexOf(':') + 1), [...path, 'accept']);
      return { kind: 'file', accept };
    }
    m = /^enum\s*:(.*)$/is.exec(value);
    if (m) {
      this.record(kindAt, text);
      const items = listOf(text.slice(text.indexOf(':') + 1));
      if (items.length === 0) {
        this.unreadable(
          whole,
          kindAt,
          `"${whole.value}" lists no values.`,
          'Write the values after the colon: "enum: draft, placed, paid".',
        );
        return undefined;
      }
      const values = items.map((item, i) => this.enumValue(item, [...path, 'values', i]));
      this.record([...path, 'values'], items[0]);
      return { kind: 'enum', values };
    }
    m = /^(?:(?:reference(?:\s+to)?|ref(?:\s+to)?)\s+|(?:->|→)\s*)(\S+)$/i.exec(value);
    if (m?.[1]) {
      this.record(kindAt, text);
      this.record([...path, 'entity'], text.trim().slice(value.length - m[1].length));
      return { kind: 'reference', entity: m[1] };
    }
    m = /^object\s+(\S+)$/i.exec(value);
    if (m?.[1]) {
      this.record(kindAt, text);
      this.record([...path, 'entity'], text.trim().slice(value.length - m[1].length));
      return { kind: 'object', entity: m[1] };
    }
    const firstWord = lower.split(/[\s:(]/)[0] ?? lower;
    const form = KIND_FORMS[firstWord];
    const synonym = KIND_SYNONYMS[firstWord];
    let hint: string | undefined;
    if (form) hint = `write it as "${form}".`;
    else if (synonym) hint = `did you mean "${synonym}"?`;
    else hint = didYouMeanWord(firstWord, KIND_WORDS);
    this.unreadable(
      whole,
      kindAt,
      `The kind "${whole.value}" is not one Ninefold can read; the field has no kind.`,
      hint ??
        'The kinds are: text, number, integer, money, boolean, date, datetime, markdown, file, enum: a, b, reference to Entity, object Entity, list of <kind>.',
    );
    return undefined;
  }

  /** `draft` -> 'draft'; `draft (Draft order)` -> { value: 'draft', label: 'Draft order' }. */
  private enumValue(item: Text, path: readonly PathSegment[]): unknown {
    const v = item.value;
    const open = v.indexOf('(');
    if (open > 0 && v.endsWith(')')) {
      const value = item.slice(0, open).trim();
      const label = item.slice(open + 1, v.length - 1).trim();
      if (value.length > 0) {
        this.record(path, item);
        this.record([...path, 'value'], value);
        if (label.length === 0) return { value: value.value };
        this.record([...path, 'label'], label);
        return { value: value.value, label: label.value };
      }
    }
    this.record(path, item);
    return v;
  }

  // ---------------------------------------------------------------------------------------- 4. states

  private readStates(input: readonly RootContent[]): Obj {
    const machines: Obj = {};
    const { intro, subs } = this.subsections(input);
    for (const block of intro) {
      if (block.type === 'table' || (block.type === 'list' && this.isProperties(block, MACHINE_PROPERTIES))) {
        this.unused(
          'states',
          block,
          'it comes before the first state machine.',
          'Put it under a "### Entity.field" heading, for example "### Order.status".',
        );
      } else this.note('states', block);
    }
    for (const sub of subs) {
      const name = this.inline(sub.heading).trim();
      if (name.length === 0) {
        this.issue(
          'missing-key',
          'error',
          'A state machine heading "###" has no name; its content is ignored.',
          ['states'],
          this.at(sub.heading),
          'Name it after the field that holds the state, for example "### Order.status".',
        );
        continue;
      }
      this.structured = true;
      const machine: Obj = {};
      if (!this.addNamed(machines, name, machine, ['states'], 'state machines')) continue;
      const path = ['states', name.value];
      this.record(path, this.at(sub.heading), this.textStart(name));
      try {
        this.readMachine(machine, sub, path);
      } catch (error) {
        this.internalError(error, path, this.at(sub.heading));
      }
    }
    return machines;
  }

  private readMachine(machine: Obj, sub: Subsection, path: PathSegment[]): void {
    const found = new Map<string, PropertyEntry>();
    let states: Obj | undefined;
    const transitions: Obj = {};
    let transitionsAt: SourcePosition | undefined;
    for (const block of sub.blocks) {
      if (block.type === 'table') {
        if (!this.tableIs(block, [STATES_TABLE, TRANSITIONS], 'states')) continue;
        const header = block.children[0]?.children[0];
        if (header && namesFirstColumn(STATES_TABLE, this.plain(header))) {
          if (!states) this.record([...path, 'states'], this.at(block));
          states ??= {};
          for (const row of this.readTable(block, STATES_TABLE, [...path, 'states'])) {
            if (!row.name) continue;
            const state: Obj = {};
            if (!this.addNamed(states, row.name, state, [...path, 'states'], 'states')) continue;
            const statePath = [...path, 'states', row.name.value];
            this.record(statePath, row.name, this.textStart(row.name));
            this.fillRow(state, row, STATES_TABLE, statePath);
          }
        } else {
          transitionsAt ??= this.at(block);
          for (const row of this.readTable(block, TRANSITIONS, [...path, 'transitions'])) {
            if (!row.name) continue;
            const transition: Obj = {};
            const where = [...path, 'transitions'];
            if (!this.addNamed(transitions, row.name, transition, where, 'transitions')) continue;
            const tPath = [...where, row.name.value];
            this.record(tPath, row.name, this.textStart(row.name));
            this.fillRow(transition, row, TRANSITIONS, tPath);
            const set = row.cells.get('set');
            if (set) {
              const assignments = this.readAssignments(set, [...tPath, 'set']);
              if (Object.keys(assignments).length > 0) {
                transition.set = assignments;
                this.record([...tPath, 'set'], set);
              }
            }
          }
        }
      } else if (block.type === 'list' && this.isProperties(block, MACHINE_PROPERTIES)) {
        this.readProperties(block, MACHINE_PROPERTIES, path, found);
      } else {
        this.note('states', block);
      }
    }
    this.applyProperties(machine, path, found);
    if (states) machine.states = states;
    machine.transitions = transitions;
    this.record([...path, 'transitions'], transitionsAt ?? this.at(sub.heading));
  }

  /** `paidAt = now; paidBy = user.id`: split at `;`, then at the first `=` that is not `==`, `!=`, `<=`, `>=`. */
  private readAssignments(text: Text, path: readonly PathSegment[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const raw of splitTop(text, ';', true)) {
      const part = raw.trim();
      if (part.length === 0) continue;
      const v = part.value;
      let eq = -1;
      for (let i = 0; i < v.length; i++) {
        if (v[i] !== '=') continue;
        const before = v[i - 1];
        const after = v[i + 1];
        if (after === '=') {
          i++;
          continue;
        }
        if (before === '=' || before === '!' || before === '<' || before === '>') continue;
        eq = i;
        break;
      }
      const field = eq > 0 ? part.slice(0, eq).trim() : undefined;
      const expression = eq > 0 ? part.slice(eq + 1).trim() : undefined;
      if (!field || !expression || field.length === 0 || expression.length === 0) {
        this.unreadable(
          part,
          path,
          `"${v}" is not an assignment "field = expression".`,
          'Write each effect as "field = expression", separated by ";": "paidAt = now; paidBy = user.id".',
        );
        continue;
      }
      if (Object.hasOwn(out, field.value)) {
        this.issue(
          'duplicate-key',
          'error',
          `The field "${field.value}" is set twice; the second one is ignored.`,
          [...path, field.value],
          field,
        );
        continue;
      }
      out[field.value] = expression.value;
      this.record([...path, field.value], expression, this.textStart(field));
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------- 5. validation

  private readValidation(input: readonly RootContent[]): Obj {
    const validation: Obj = {};
    let fields: Obj | undefined;
    let rules: unknown[] | undefined;
    for (const block of this.flatten('validation', input)) {
      if (block.type === 'table') {
        if (!this.tableIs(block, [FIELD_CONSTRAINTS, RULES], 'validation')) continue;
        const header = block.children[0]?.children[0];
        if (header && namesFirstColumn(FIELD_CONSTRAINTS, this.plain(header))) {
          if (!fields) this.record(['validation', 'fields'], this.at(block));
          fields ??= {};
          for (const row of this.readTable(block, FIELD_CONSTRAINTS, ['validation', 'fields'])) {
            if (!row.name) continue;
            const constraints: Obj = {};
            if (!this.addNamed(fields, row.name, constraints, ['validation', 'fields'], 'constraints for'))
              continue;
            const path = ['validation', 'fields', row.name.value];
            this.record(path, row.name, this.textStart(row.name));
            this.fillRow(constraints, row, FIELD_CONSTRAINTS, path);
          }
        } else {
          if (!rules) this.record(['validation', 'rules'], this.at(block));
          rules ??= [];
          for (const row of this.readTable(block, RULES, ['validation', 'rules'])) {
            const rule: Obj = {};
            const path = ['validation', 'rules', rules.length];
            rules.push(rule);
            this.record(path, row.name ?? this.at(row.node));
            if (row.name) {
              rule.name = row.name.value;
              this.record([...path, 'name'], row.name);
            }
            this.fillRow(rule, row, RULES, path);
            const on = row.cells.get('on');
            if (on) {
              rule.on = this.list(on, [...path, 'on']).map((v) => v.toLowerCase());
              this.record([...path, 'on'], on);
            }
          }
        }
      } else {
        this.note('validation', block);
      }
    }
    if (fields) validation.fields = fields;
    if (rules) validation.rules = rules;
    return validation;
  }

  // ---------------------------------------------------------------------------------------- 6. roles

  private readRoles(input: readonly RootContent[], section: Section): Obj {
    const result: Obj = {};
    const roles: Obj = {};
    const defined = new Set<string>();
    const grantsSeen = new Set<string>();
    let rolesAt: SourcePosition | undefined;
    let signIn: Obj | undefined;
    const { intro, subs } = this.subsections(input);

    const readBlocks = (blocks: readonly RootContent[], inSignIn: boolean) => {
      for (const block of blocks) {
        if (block.type === 'table') {
          if (!this.tableIs(block, [ROLES_TABLE, PERMISSIONS], 'roles')) continue;
          rolesAt ??= this.at(block);
          const header = block.children[0];
          const hasEntity = header?.children.slice(1).some((cell) => norm(this.plain(cell)) === 'entity');
          if (hasEntity) this.readPermissions(block, roles, grantsSeen);
          else this.readRoleTable(block, roles, defined);
        } else if (block.type === 'list' && this.isProperties(block, SIGN_IN_PROPERTIES)) {
          if (inSignIn && signIn) this.readSignIn(block, signIn);
          else
            this.unused(
              'roles',
              block,
              'sign-in properties belong under a "### Sign-in" heading.',
              'Add "### Sign-in" above the list.',
            );
        } else {
          this.note('roles', block);
        }
      }
    };

    readBlocks(intro, false);
    for (const sub of subs) {
      const heading = this.plain(sub.heading);
      const isSignIn = SIGN_IN_HEADINGS.has(heading.toLowerCase().replace(/[^a-z]/g, ''));
      if (isSignIn && signIn) {
        this.issue(
          'duplicate-name',
          'error',
          'There are two sign-in subsections; the second one is ignored.',
          ['roles', 'signIn'],
          this.at(sub.heading),
        );
        continue;
      }
      if (isSignIn) {
        this.structured = true;
        signIn = {};
        this.record(['roles', 'signIn'], this.at(sub.heading), this.at(sub.heading));
      }
      readBlocks(sub.blocks, isSignIn);
    }
    if (signIn) result.signIn = signIn;
    else if (this.structured)
      this.issue(
        'missing-key',
        'error',
        'Section 6 (roles) has no "### Sign-in" subsection, so Ninefold does not know how people sign in.',
        ['roles', 'signIn'],
        this.at(section.heading),
        'Add "### Sign-in" with "- Kind: none" when nobody signs in, or "- Kind: password", "- Kind: oidc", ...',
      );
    result.roles = roles;
    this.record(['roles', 'roles'], rolesAt ?? this.at(section.heading));
    return result;
  }

  private readSignIn(list: List, signIn: Obj): void {
    const found = new Map<string, PropertyEntry>();
    const path = ['roles', 'signIn'];
    this.readProperties(list, SIGN_IN_PROPERTIES, path, found);
    for (const key of found.keys()) {
      if (Object.hasOwn(signIn, key)) {
        const entry = found.get(key);
        this.issue(
          'duplicate-key',
          'error',
          `"${entry?.property.label}" is given twice; the second one is ignored.`,
          [...path, key],
          entry?.key,
        );
        found.delete(key);
      }
    }
    const kind = found.get('kind');
    if (kind && kind.value.length > 0) {
      const known = SIGN_IN_KINDS[norm(kind.value.value)];
      signIn.kind = known ?? word(kind.value.value);
      this.record([...path, 'kind'], kind.value, this.textStart(kind.key));
    }
    this.applyProperties(signIn, path, found);
  }

  private readRoleTable(table: Table, roles: Obj, defined: Set<string>): void {
    for (const row of this.readTable(table, ROLES_TABLE, ['roles', 'roles'])) {
      if (!row.name) continue;
      const name = row.name.value;
      const path = ['roles', 'roles', name];
      if (defined.has(name)) {
        this.issue(
          'duplicate-name',
          'error',
          `There are two roles named "${name}"; the second one is ignored.`,
          path,
          row.name,
        );
        continue;
      }
      defined.add(name);
      const role = (roles[name] as Obj | undefined) ?? {};
      roles[name] = role;
      this.record(path, row.name, this.textStart(row.name));
      this.fillRow(role, row, ROLES_TABLE, path);
    }
  }

  private readPermissions(table: Table, roles: Obj, seen: Set<string>): void {
    for (const row of this.readTable(table, PERMISSIONS, ['roles', 'roles'])) {
      if (!row.name) continue;
      const name = row.name.value;
      const entity = row.cells.get('entity');
      if (!entity) {
        this.issue(
          'missing-key',
          'error',
          `A permission of the role "${name}" names no entity; the row is ignored.`,
          ['roles', 'roles', name, 'can'],
          row.name,
        );
        continue;
      }
      const path = ['roles', 'roles', name, 'can', entity.value];
      const id = JSON.stringify([name, entity.value]);
      if (seen.has(id)) {
        this.issue(
          'duplicate-name',
          'error',
          `The role "${name}" has two rows for "${entity.value}"; the second one is ignored.`,
          path,
          entity,
        );
        continue;
      }
      seen.add(id);
      if (!Object.hasOwn(roles, name)) {
        roles[name] = {};
        this.record(['roles', 'roles', name], row.name, this.textStart(row.name));
      }
      const role = roles[name] as Obj;
      if (!role.can) this.record(['roles', 'roles', name, 'can'], row.name);
      const can = (role.can as Obj | undefined) ?? {};
      role.can = can;

      const actionsText = row.cells.get('actions');
      const actions = actionsText ? this.readActions(actionsText, path) : undefined;
      const grant: Obj = {};
      if (actions !== undefined) grant.actions = actions;
      this.fillRow(grant, row, PERMISSIONS, path);
      const onlyActions = Object.keys(grant).every((k) => k === 'actions') && actions !== undefined;
      if (onlyActions) {
        can[entity.value] = actions;
        this.record(path, actionsText, this.textStart(entity));
        if (Array.isArray(actions)) {
          // The bare form is the array itself: its elements sit one level up from `actions`.
          actions.forEach((_, i) => {
            const place = this.places.get(pathKey([...path, 'actions', i]));
            if (place) this.places.set(pathKey([...path, i]), place);
          });
        }
      } else {
        can[entity.value] = grant;
        this.record(path, entity, this.textStart(entity));
        if (actionsText) this.record([...path, 'actions'], actionsText);
      }
    }
  }

  /** `all`, or a list of read/create/update/delete (also view, add, edit, remove ...). */
  private readActions(text: Text, path: readonly PathSegment[]): unknown {
    if (text.value.trim().toLowerCase() === 'all') return 'all';
    const items = listOf(text);
    return items.map((item, i) => {
      this.record([...path, 'actions', i], item);
      const w = item.value.toLowerCase();
      return ACTION_ALIASES[w] ?? w;
    });
  }

  // ---------------------------------------------------------------------------------------- 7. calls

  private readCalls(input: readonly RootContent[]): Obj {
    const calls: Obj = {};
    const operations: Obj = {};
    const found = new Map<string, PropertyEntry>();
    let operationsAt: SourcePosition | undefined;
    for (const block of this.flatten('calls', input)) {
      if (block.type === 'table') {
        if (!this.tableIs(block, CALLS, 'calls')) continue;
        operationsAt ??= this.at(block);
        for (const row of this.readTable(block, CALLS, ['calls', 'operations'])) {
          if (!row.name) continue;
          const call: Obj = {};
          if (!this.addNamed(operations, row.name, call, ['calls', 'operations'], 'calls')) continue;
          const path = ['calls', 'operations', row.name.value];
          this.record(path, row.name, this.textStart(row.name));
          this.fillRow(call, row, CALLS, path);
          this.readCallCells(call, row, path);
        }
      } else if (block.type === 'list' && this.isProperties(block, CALLS_PROPERTIES)) {
        this.readProperties(block, CALLS_PROPERTIES, ['calls'], found);
      } else {
        this.note('calls', block);
      }
    }
    this.applyProperties(calls, ['calls'], found);
    calls.operations = operations;
    this.record(['calls', 'operations'], operationsAt ?? this.locate(['calls']));
    return calls;
  }

  private readCallCells(call: Obj, row: Row, path: PathSegment[]): void {
    const body = row.cells.get('body');
    if (body) {
      const value = this.readBody(body, [...path, 'body']);
      if (value !== undefined) call.body = value;
    }
    const response = row.cells.get('response');
    if (response) {
      const value = this.readResponse(response, [...path, 'response']);
      if (value !== undefined) call.response = value;
    }
    const pagination = row.cells.get('pagination');
    if (pagination) {
      const value = this.readPagination(pagination, [...path, 'pagination']);
      if (value !== undefined) call.pagination = value;
    }
    const sort = row.cells.get('sort');
    if (sort) {
      const fields = this.list(sort, [...path, 'sort', 'fields']);
      if (fields.length > 0) {
        call.sort = { fields };
        this.record([...path, 'sort'], sort);
        this.record([...path, 'sort', 'fields'], sort);
      }
    }
    const filters = row.cells.get('filters');
    if (filters) {
      const items = listOf(filters);
      call.filters = items.map((item, i) => {
        const at = [...path, 'filters', i];
        this.record(at, item);
        const m = /^(\S+?)\s*\(\s*([^()]*?)\s*\)$/.exec(item.value);
        if (!m?.[1] || !m[2]) return item.value;
        this.record([...at, 'field'], item.slice(0, m[1].length));
        this.record([...at, 'op'], item.slice(item.value.indexOf('(') + 1).trim());
        return { field: m[1], op: m[2].toLowerCase() };
      });
      this.record([...path, 'filters'], filters);
    }
  }

  /** `Order`, `Order (multipart)`, `Order: name, email`, `Order (form): name, email`. */
  private readBody(text: Text, path: readonly PathSegment[]): unknown {
    const m = /^([^\s(:]+)\s*(?:\(\s*([^()]*?)\s*\))?\s*(?::(.*))?$/s.exec(text.value);
    if (!m?.[1]) {
      this.unreadable(
        text,
        path,
        `The body "${text.value}" cannot be read.`,
        'Write the entity, optionally an encoding and fields: "Order", "Order (multipart)", "Order: name, email".',
      );
      return undefined;
    }
    this.record(path, text);
    const entity = m[1];
    if (m[2] === undefined && m[3] === undefined) return entity;
    const body: Obj = { entity };
    this.record([...path, 'entity'], text.slice(0, entity.length));
    if (m[2] !== undefined && m[2] !== '') {
      body.encoding = m[2].toLowerCase();
      this.record([...path, 'encoding'], text.slice(text.indexOf('(') + 1).trim());
    }
    if (m[3] !== undefined) {
      const colon = text.value.lastIndexOf(':');
      const fields = this.list(text.slice(colon + 1), [...path, 'fields']);
      if (fields.length > 0) {
        body.fields = fields;
        this.record([...path, 'fields'], text.slice(colon + 1).trim());
      }
    }
    return body;
  }

  /** `one`, `array`, `none`, `one Order`, `array of Order`, `envelope: items, total`, `envelope Order: items`. */
  private readResponse(text: Text, path: readonly PathSegment[]): unknown {
    const m = /^([a-z-]+)(?:\s+of)?(?:\s+([^\s:]+))?\s*(?::(.*))?$/is.exec(text.value);
    const shape = m?.[1]?.toLowerCase();
    const hint =
      'Write one, array, none, "one Order", "array Order", or "envelope: items, total" (the names of the fields holding the records and the total).';
    if (!m || !shape || !RESPONSE_SHAPES.includes(shape)) {
      const did = shape ? didYouMeanWord(shape, RESPONSE_SHAPES) : undefined;
      this.unreadable(text, path, `The response "${text.value}" cannot be read.`, did ?? hint);
      return undefined;
    }
    const response: Obj = { shape };
    this.record(path, text);
    this.record([...path, 'shape'], text.slice(0, shape.length));
    if (m[2]) {
      if (shape === 'none') {
        this.unreadable(text, path, `The response "${text.value}" says none but names an entity.`, hint);
        return undefined;
      }
      response.entity = m[2];
      const index = text.value.indexOf(m[2], shape.length);
      this.record([...path, 'entity'], text.slice(index, index + m[2].length));
    }
    if (m[3] !== undefined) {
      const names = listOf(text.slice(text.value.indexOf(':') + 1));
      if (shape !== 'envelope' || names.length === 0 || names.length > 2) {
        this.unreadable(
          text,
          path,
          `The response "${text.value}" cannot be read: only an envelope names fields, the records first and then the total.`,
          hint,
        );
        return undefined;
      }
      const [items, total] = names;
      if (items) {
        response.items = items.value;
        this.record([...path, 'items'], items);
      }
      if (total) {
        response.total = total.value;
        this.record([...path, 'total'], total);
      }
    }
    return response;
  }

  /** `page`, `page: page, per_page`, `offset: offset, limit`, `cursor: after, first, next`, `link-header: per_page`. */
  private readPagination(text: Text, path: readonly PathSegment[]): unknown {
    const colon = text.indexOf(':');
    const head = (colon >= 0 ? text.slice(0, colon) : text).trim();
    const style = word(head.value);
    const slots = PAGINATION_PARAMS[style];
    if (!slots) {
      this.unreadable(
        text,
        path,
        `The pagination "${text.value}" cannot be read: "${head.value}" is not a pagination style.`,
        didYouMeanWord(style, Object.keys(PAGINATION_PARAMS)) ??
          'The styles are page, offset, cursor, link-header and none.',
      );
      return undefined;
    }
    this.record(path, text);
    const params = colon >= 0 ? listOf(text.slice(colon + 1)) : [];
    if (params.length === 0) return style;
    if (params.length > slots.length) {
      this.unreadable(
        text,
        path,
        `The pagination "${text.value}" names ${params.length} parameters; "${style}" has ${slots.length === 0 ? 'none' : `at most ${slots.length} (${slots.join(', ')})`}.`,
        'For example "page: page, per_page", "offset: offset, limit", "cursor: after, first, next" or "link-header: per_page".',
      );
      return undefined;
    }
    const pagination: Obj = { style };
    this.record([...path, 'style'], head);
    params.forEach((param, i) => {
      const slot = slots[i] as string;
      pagination[slot] = param.value;
      this.record([...path, slot], param);
    });
    return pagination;
  }

  // ---------------------------------------------------------------------------------------- 8. errors

  private readErrors(input: readonly RootContent[]): unknown[] {
    const errors: unknown[] = [];
    for (const block of this.flatten('errors', input)) {
      if (block.type === 'table') {
        for (const row of this.readTable(block, ERRORS, ['errors'])) {
          const entry: Obj = {};
          const path = ['errors', errors.length];
          errors.push(entry);
          this.record(path, this.at(row.node));
          const status = row.cells.get('status');
          if (status) {
            const n = readNumber(status.value);
            entry.status = n !== undefined && Number.isInteger(n) ? n : status.value.toLowerCase();
            this.record([...path, 'status'], status);
          }
          this.fillRow(entry, row, ERRORS, path);
          const action = row.cells.get('action');
          if (action) {
            const w = word(action.value.replace(/\bthe\b/gi, ' '));
            entry.action = ERROR_ACTION_ALIASES[w] ?? w;
            this.record([...path, 'action'], action);
          }
        }
      } else {
        this.note('errors', block);
      }
    }
    return errors;
  }

  // ---------------------------------------------------------------------------------------- 9. constants

  private readConstants(input: readonly RootContent[]): Obj {
    const constants: Obj = {};
    for (const block of this.flatten('constants', input)) {
      if (block.type === 'table') {
        if (!this.tableIs(block, CONSTANTS, 'constants')) continue;
        for (const row of this.readTable(block, CONSTANTS, ['constants'])) {
          if (!row.name) continue;
          const path = ['constants', row.name.value];
          if (Object.hasOwn(constants, row.name.value)) {
            this.addNamed(constants, row.name, undefined, ['constants'], 'constants');
            continue;
          }
          const valueText = row.cells.get('value');
          const value = valueText ? this.constantValue(valueText.value) : undefined;
          const details: Obj = {};
          this.fillRow(details, row, CONSTANTS, path);
          const bare = Object.keys(details).length === 0 && value !== undefined;
          const constant = bare ? value : { ...(value === undefined ? {} : { value }), ...details };
          if (!this.addNamed(constants, row.name, constant, ['constants'], 'constants')) continue;
          if (bare) {
            this.record(path, valueText, this.textStart(row.name));
          } else {
            this.record(path, row.name, this.textStart(row.name));
            if (valueText) this.record([...path, 'value'], valueText);
          }
        }
      } else {
        this.note('constants', block);
      }
    }
    return constants;
  }

  private constantValue(text: string): number | string | boolean {
    const n = readNumber(text);
    if (n !== undefined) return n;
    const lower = text.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    return text;
  }
}
