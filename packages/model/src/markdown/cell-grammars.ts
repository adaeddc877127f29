import type { PathSegment } from '../issues';
import type { LocatedSource } from './located-source';
import { listOf, setOwn, splitTop, type Text } from './located-text';
import type { CellType } from './table-specs';
import {
  ACTION_ALIASES,
  didYouMeanWord,
  ERROR_ACTION_ALIASES,
  KIND_FORMS,
  KIND_SYNONYMS,
  KIND_WORDS,
  PAGINATION_PARAMS,
  RESPONSE_SHAPES,
  readNumber,
  SIMPLE_KINDS,
  word,
  yesOrNo,
} from './words';

// The grammars of the cells of the Markdown convention's tables (`enum: a (A), b`, `page: page, per_page`):
// each reads a located string, records where each part of its value came from, and reports what it
// cannot read.

type Obj = Record<string, unknown>;

/** What a cell grammar needs from the reader: to record where values came from, and to report issues. */
export type CellContext = Pick<LocatedSource, 'record' | 'textStart' | 'issue'>;

/**
 * Reads a non-empty cell (or property value) at `path`, records where its value came from, and returns
 * the value; undefined, with an issue where one is due, when there is none to take.
 */
type CellGrammar = (cx: CellContext, text: Text, path: PathSegment[], label: string) => unknown;

function unreadable(
  cx: CellContext,
  text: Text,
  path: readonly PathSegment[],
  message: string,
  hint?: string,
): void {
  cx.issue('unreadable-cell', 'error', message, path, text, hint);
}

/** Records the value's place and returns it. */
function located<T>(cx: CellContext, path: readonly PathSegment[], text: Text, value: T): T {
  cx.record(path, text);
  return value;
}

/**
 * The cell grammars, by the name a column or property gives as its type (`custom` cells are read by the
 * point's own code).
 *
 * @example
 * ```ts
 * CELL_GRAMMARS.errorAction(reader, cell, ['errors', 0, 'action'], 'Action'); // 'Try again' -> 'retry'
 * ```
 */
export const CELL_GRAMMARS: Record<Exclude<CellType, 'custom'>, CellGrammar> = {
  text: (cx, text, path) => located(cx, path, text, text.value),
  word: (cx, text, path) => located(cx, path, text, word(text.value)),
  upper: (cx, text, path) => located(cx, path, text, text.value.toUpperCase()),
  list: (cx, text, path) => located(cx, path, text, list(cx, text, path)),
  amount: (cx, text, path) => located(cx, path, text, readNumber(text.value) ?? text.value),
  yesno: (cx, text, path, label) => {
    const value = yesNo(cx, text, path, label);
    return value === undefined ? undefined : located(cx, path, text, value);
  },
  assignments: (cx, text, path) => {
    const assignments = readAssignments(cx, text, path);
    return Object.keys(assignments).length > 0 ? located(cx, path, text, assignments) : undefined;
  },
  statements: (cx, text, path) => {
    const statements = splitTop(text, ';', true)
      .map((part) => part.trim())
      .filter((part) => part.length > 0);
    statements.forEach((part, index) => {
      cx.record([...path, index], part);
    });
    return statements.length > 0
      ? located(
          cx,
          path,
          text,
          statements.map((part) => part.value),
        )
      : undefined;
  },
  events: (cx, text, path) => {
    // `Create`, `UPDATE`: the two writes in any case; anything else names a transition, as written.
    const events = list(cx, text, path).map((v) => (/^(create|update)$/i.test(v) ? v.toLowerCase() : v));
    return located(cx, path, text, events);
  },
  body: readBody,
  response: readResponse,
  pagination: readPagination,
  hiddenWhile: (cx, text, path, label) => {
    // The first colon ends the fields: a field name has none, and the condition may.
    const colon = text.value.indexOf(':');
    const fields = colon < 0 ? [] : list(cx, text.slice(0, colon), [...path, 'fields']);
    const when = colon < 0 ? undefined : text.slice(colon + 1).trim();
    if (fields.length === 0 || when === undefined || when.value === '') {
      unreadable(
        cx,
        text,
        path,
        `"${text.value}" in "${label}" is not fields and a condition; it is ignored.`,
        "Write the fields, a colon and the condition they are hidden under: author: `record.status == 'review'`.",
      );
      return undefined;
    }
    cx.record([...path, 'fields'], text.slice(0, colon));
    cx.record([...path, 'when'], when);
    return located(cx, path, text, { fields, when: when.value });
  },
  sortFields: (cx, text, path) => {
    const fields = list(cx, text, [...path, 'fields']);
    if (fields.length === 0) return undefined;
    cx.record([...path, 'fields'], text);
    return located(cx, path, text, { fields });
  },
  filterOps: (cx, text, path) => {
    const filters = listOf(text).map((item, i) => readFilter(cx, item, [...path, i]));
    return located(cx, path, text, filters);
  },
  search: readSearch,
  errorStatus: (cx, text, path) => {
    const n = readNumber(text.value);
    return located(cx, path, text, n !== undefined && Number.isInteger(n) ? n : text.value.toLowerCase());
  },
  errorAction: (cx, text, path) => {
    const w = word(text.value.replace(/\bthe\b/gi, ' '));
    return located(cx, path, text, ERROR_ACTION_ALIASES[w] ?? w);
  },
};

function list(cx: CellContext, text: Text, path: readonly PathSegment[]): string[] {
  const items = listOf(text);
  items.forEach((item, i) => {
    cx.record([...path, i], item);
  });
  return items.map((item) => item.value);
}

function yesNo(
  cx: CellContext,
  text: Text,
  path: readonly PathSegment[],
  label: string,
): boolean | undefined {
  const value = yesOrNo(text.value);
  if (value === undefined) {
    unreadable(
      cx,
      text,
      path,
      `"${text.value}" in "${label}" is not yes or no; it is ignored.`,
      'Write yes or no (also true/false, y/n, or x / ✓ for yes).',
    );
  }
  return value;
}

/**
 * The kind grammar: `text`, `money EUR`, `enum: a (A), b`, `reference to Customer`, `list of object Line`...
 * `list of` nests without recursion, so that no cell can exhaust the stack.
 */
export function readType(cx: CellContext, text: Text, path: readonly PathSegment[]): Obj {
  let rest = text;
  const levels: Text[] = [];
  for (;;) {
    const m = /^list\s+of\s+/i.exec(rest.value);
    if (!m) break;
    levels.push(rest);
    rest = rest.slice(m[0].length);
  }
  const innerPath = [...path, ...levels.map(() => 'of')];
  const inner = readScalarType(cx, rest, innerPath, text);
  if (!inner) return {};
  let type = inner;
  for (let i = levels.length - 1; i >= 0; i--) {
    const levelPath = [...path, ...levels.slice(0, i).map(() => 'of')];
    cx.record([...levelPath, 'kind'], levels[i]);
    cx.record([...levelPath, 'of'], levels[i + 1] ?? rest);
    type = { kind: 'list', of: type };
  }
  return type;
}

function readScalarType(
  cx: CellContext,
  text: Text,
  path: readonly PathSegment[],
  whole: Text,
): Obj | undefined {
  const value = text.value.trim();
  const lower = value.toLowerCase().replace(/\s+/g, ' ');
  const kindAt = [...path, 'kind'];
  const simple = SIMPLE_KINDS[lower];
  if (simple) {
    cx.record(kindAt, text);
    return { kind: simple };
  }
  let m = /^money(?:\s*\(\s*([a-z]{3})\s*\)|\s+([a-z]{3}))?$/i.exec(value);
  if (m) {
    cx.record(kindAt, text);
    const currency = m[1] ?? m[2];
    if (!currency) return { kind: 'money' };
    const index = value.lastIndexOf(currency);
    cx.record([...path, 'currency'], text.slice(index, index + 3));
    return { kind: 'money', currency: currency.toUpperCase() };
  }
  m = /^file(?:\s*:(.*))?$/is.exec(value);
  if (m) {
    cx.record(kindAt, text);
    if (m[1] === undefined || m[1].trim() === '') return { kind: 'file' };
    const accept = list(cx, text.slice(text.indexOf(':') + 1), [...path, 'accept']);
    return { kind: 'file', accept };
  }
  m = /^enum\s*:(.*)$/is.exec(value);
  if (m) {
    cx.record(kindAt, text);
    const items = listOf(text.slice(text.indexOf(':') + 1));
    if (items.length === 0) {
      unreadable(
        cx,
        whole,
        kindAt,
        `"${whole.value}" lists no values.`,
        'Write the values after the colon: "enum: draft, placed, paid".',
      );
      return undefined;
    }
    const values = items.map((item, i) => enumValue(cx, item, [...path, 'values', i]));
    cx.record([...path, 'values'], items[0]);
    return { kind: 'enum', values };
  }
  m = /^(?:(?:reference(?:\s+to)?|ref(?:\s+to)?)\s+|(?:->|→)\s*)(\S+)$/i.exec(value);
  if (m?.[1]) {
    cx.record(kindAt, text);
    cx.record([...path, 'entity'], text.trim().slice(value.length - m[1].length));
    return { kind: 'reference', entity: m[1] };
  }
  m = /^object\s+(\S+)$/i.exec(value);
  if (m?.[1]) {
    cx.record(kindAt, text);
    cx.record([...path, 'entity'], text.trim().slice(value.length - m[1].length));
    return { kind: 'object', entity: m[1] };
  }
  const firstWord = lower.split(/[\s:(]/)[0] ?? lower;
  const form = KIND_FORMS[firstWord];
  const synonym = KIND_SYNONYMS[firstWord];
  let hint: string | undefined;
  if (form) hint = `write it as "${form}".`;
  else if (synonym) hint = `did you mean "${synonym}"?`;
  else hint = didYouMeanWord(firstWord, KIND_WORDS);
  unreadable(
    cx,
    whole,
    kindAt,
    `The kind "${whole.value}" is not one Ninefold can read; the field has no kind.`,
    hint ??
      'The kinds are: text, number, integer, money, boolean, date, datetime, markdown, file, enum: a, b, reference to Entity, object Entity, list of <kind>.',
  );
  return undefined;
}

/** `draft` -> 'draft'; `draft (Draft order)` -> { value: 'draft', label: 'Draft order' }. */
function enumValue(cx: CellContext, item: Text, path: readonly PathSegment[]): unknown {
  const v = item.value;
  const open = v.indexOf('(');
  if (open > 0 && v.endsWith(')')) {
    const value = item.slice(0, open).trim();
    const label = item.slice(open + 1, v.length - 1).trim();
    if (value.length > 0) {
      cx.record(path, item);
      cx.record([...path, 'value'], value);
      if (label.length === 0) return { value: value.value };
      cx.record([...path, 'label'], label);
      return { value: value.value, label: label.value };
    }
  }
  cx.record(path, item);
  return v;
}

/** `paidAt = now; paidBy = user.id`: split at `;`, then at the first `=` that is not `==`, `!=`, `<=`, `>=`. */
function readAssignments(cx: CellContext, text: Text, path: readonly PathSegment[]): Record<string, string> {
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
      unreadable(
        cx,
        part,
        path,
        `"${v}" is not an assignment "field = expression".`,
        'Write each effect as "field = expression", separated by ";": "paidAt = now; paidBy = user.id".',
      );
      continue;
    }
    if (Object.hasOwn(out, field.value)) {
      cx.issue(
        'duplicate-key',
        'error',
        `The field "${field.value}" is set twice; the second one is ignored.`,
        [...path, field.value],
        field,
      );
      continue;
    }
    setOwn(out, field.value, expression.value);
    cx.record([...path, field.value], expression, cx.textStart(field));
  }
  return out;
}

/** `all`, or a list of read/create/update/delete (also view, add, edit, remove ...). */
export function readActions(cx: CellContext, text: Text, path: readonly PathSegment[]): unknown {
  if (text.value.trim().toLowerCase() === 'all') return 'all';
  const items = listOf(text);
  return items.map((item, i) => {
    cx.record([...path, 'actions', i], item);
    const w = item.value.toLowerCase();
    return ACTION_ALIASES[w] ?? w;
  });
}

/** `status (eq)` -> { field: 'status', op: 'eq' }; a field alone stays a string. */
function readFilter(cx: CellContext, item: Text, path: readonly PathSegment[]): unknown {
  cx.record(path, item);
  const m = /^(\S+?)\s*\(\s*([^()]*?)\s*\)$/.exec(item.value);
  if (!m?.[1] || !m[2]) return item.value;
  cx.record([...path, 'field'], item.slice(0, m[1].length));
  cx.record([...path, 'op'], item.slice(item.value.indexOf('(') + 1).trim());
  return { field: m[1], op: m[2].toLowerCase() };
}

/** `q`, or `q: name, email` (the parameter, then the fields the prototype API searches). */
function readSearch(cx: CellContext, text: Text, path: readonly PathSegment[]): unknown {
  const colon = text.indexOf(':');
  const param = (colon >= 0 ? text.slice(0, colon) : text).trim();
  if (param.value === '' || /\s/.test(param.value)) {
    unreadable(
      cx,
      text,
      path,
      `The search "${text.value}" cannot be read.`,
      'Write the query parameter ("q"), optionally with the fields it searches: "q: name, email".',
    );
    return undefined;
  }
  cx.record(path, text);
  if (colon < 0) return param.value;
  cx.record([...path, 'param'], param);
  const fields = list(cx, text.slice(colon + 1), [...path, 'fields']);
  return fields.length > 0 ? { param: param.value, fields } : { param: param.value };
}

/** `Order`, `Order (multipart)`, `Order: name, email`, `Order (form): name, email`. */
function readBody(cx: CellContext, text: Text, path: readonly PathSegment[]): unknown {
  const m = /^([^\s(:]+)\s*(?:\(\s*([^()]*?)\s*\))?\s*(?::(.*))?$/s.exec(text.value);
  if (!m?.[1]) {
    unreadable(
      cx,
      text,
      path,
      `The body "${text.value}" cannot be read.`,
      'Write the entity, optionally an encoding and fields: "Order", "Order (multipart)", "Order: name, email".',
    );
    return undefined;
  }
  cx.record(path, text);
  const entity = m[1];
  if (m[2] === undefined && m[3] === undefined) return entity;
  const body: Obj = { entity };
  cx.record([...path, 'entity'], text.slice(0, entity.length));
  if (m[2] !== undefined && m[2] !== '') {
    body.encoding = m[2].toLowerCase();
    cx.record([...path, 'encoding'], text.slice(text.indexOf('(') + 1).trim());
  }
  if (m[3] !== undefined) {
    const colon = text.value.lastIndexOf(':');
    const fields = list(cx, text.slice(colon + 1), [...path, 'fields']);
    if (fields.length > 0) {
      body.fields = fields;
      cx.record([...path, 'fields'], text.slice(colon + 1).trim());
    }
  }
  return body;
}

/** `one`, `array`, `none`, `one Order`, `array of Order`, `envelope: items, total`, `envelope Order: items`. */
function readResponse(cx: CellContext, text: Text, path: readonly PathSegment[]): unknown {
  const m = /^([a-z-]+)(?:\s+of)?(?:\s+([^\s:]+))?\s*(?::(.*))?$/is.exec(text.value);
  const shape = m?.[1]?.toLowerCase();
  const hint =
    'Write one, array, none, "one Order", "array Order", or "envelope: items, total" (the names of the fields holding the records and the total).';
  if (!m || !shape || !RESPONSE_SHAPES.includes(shape)) {
    const did = shape ? didYouMeanWord(shape, RESPONSE_SHAPES) : undefined;
    unreadable(cx, text, path, `The response "${text.value}" cannot be read.`, did ?? hint);
    return undefined;
  }
  const response: Obj = { shape };
  cx.record(path, text);
  cx.record([...path, 'shape'], text.slice(0, shape.length));
  if (m[2]) {
    if (shape === 'none') {
      unreadable(cx, text, path, `The response "${text.value}" says none but names an entity.`, hint);
      return undefined;
    }
    response.entity = m[2];
    const index = text.value.indexOf(m[2], shape.length);
    cx.record([...path, 'entity'], text.slice(index, index + m[2].length));
  }
  if (m[3] !== undefined) {
    const names = listOf(text.slice(text.value.indexOf(':') + 1));
    if (shape !== 'envelope' || names.length === 0 || names.length > 2) {
      unreadable(
        cx,
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
      cx.record([...path, 'items'], items);
    }
    if (total) {
      response.total = total.value;
      cx.record([...path, 'total'], total);
    }
  }
  return response;
}

/** `page`, `page: page, per_page`, `offset: offset, limit`, `cursor: after, first, next`, `link-header: per_page`. */
function readPagination(cx: CellContext, text: Text, path: readonly PathSegment[]): unknown {
  const colon = text.indexOf(':');
  const head = (colon >= 0 ? text.slice(0, colon) : text).trim();
  const style = word(head.value);
  const slots = PAGINATION_PARAMS[style];
  if (!slots) {
    unreadable(
      cx,
      text,
      path,
      `The pagination "${text.value}" cannot be read: "${head.value}" is not a pagination style.`,
      didYouMeanWord(style, Object.keys(PAGINATION_PARAMS)) ??
        'The styles are page, offset, cursor, link-header and none.',
    );
    return undefined;
  }
  cx.record(path, text);
  const params = colon >= 0 ? listOf(text.slice(colon + 1)) : [];
  if (params.length === 0) return style;
  if (params.length > slots.length) {
    unreadable(
      cx,
      text,
      path,
      `The pagination "${text.value}" names ${params.length} parameters; "${style}" has ${slots.length === 0 ? 'none' : `at most ${slots.length} (${slots.join(', ')})`}.`,
      'For example "page: page, per_page", "offset: offset, limit", "cursor: after, first, next" or "link-header: per_page".',
    );
    return undefined;
  }
  const pagination: Obj = { style };
  cx.record([...path, 'style'], head);
  params.forEach((param, i) => {
    const slot = slots[i] as string;
    pagination[slot] = param.value;
    cx.record([...path, slot], param);
  });
  return pagination;
}

export function constantValue(text: string): number | string | boolean {
  const n = readNumber(text);
  if (n !== undefined) return n;
  const lower = text.trim().toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return text;
}
