import type { Nodes, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';

/**
 * A document's top-level blocks, as `fromMarkdown` makes them (with GFM tables), parsed section by
 * section: a section whose text is unchanged since the last document read is not parsed again. The
 * playground checks the whole document at each keystroke, and the parse was three quarters of that
 * check; a keystroke changes one section.
 *
 * The sections are cut only where cutting cannot change the parse: before a heading at the start of a
 * line, after a blank line, outside a fenced code block and an HTML comment. A document with what could
 * reach across such a line (a link reference definition, a fence inside a list or a quotation, an HTML
 * block that a blank line does not end) is parsed whole. `blocks.test.ts` holds the two parses equal,
 * positions included, on every document of the repository and on mutations of them. `parse` reads one
 * section; a test passes one that counts them.
 *
 * @example
 * ```ts
 * const blocks = markdownBlocks('# Shop\n\n## 1. Product\n\nA shop.\n');
 * blocks.map((block) => block.type); // ['heading', 'heading', 'paragraph']
 * ```
 */
export function markdownBlocks(
  source: string,
  parse: (text: string) => RootContent[] = parseWhole,
): RootContent[] {
  const sections = sectionsOf(source);
  const parsed = new Map<string, RootContent[]>();
  const blocks: RootContent[] = [];
  for (const section of sections) {
    const text = source.slice(section.offset, section.end);
    const made = parsed.get(text) ?? lastRead.get(text) ?? parse(text);
    parsed.set(text, made);
    for (const block of made) blocks.push(shifted(block, section.offset, section.line - 1));
  }
  // Only the last document's sections are kept: memory is one document's, and a second document read
  // between two keystrokes costs one parse of the first again.
  lastRead = parsed;
  return blocks;
}

let lastRead = new Map<string, RootContent[]>();

/** `fromMarkdown` with GFM tables, of one section or of a whole document. */
export function parseWhole(text: string): RootContent[] {
  // Only GFM tables: the convention needs nothing else from GFM, and autolink literals alone cost about a
  // third of the parse time while changing no text that the reader takes.
  return fromMarkdown(text, { extensions: [gfmTable()], mdastExtensions: [gfmTableFromMarkdown()] }).children;
}

interface Section {
  /** Where the section starts in the document (a line's start), and where it ends. */
  offset: number;
  end: number;
  /** Its first line, from 1. */
  line: number;
}

/** What may reach across a blank line and a heading, so that the document is parsed whole. */
const WHOLE_ONLY = [
  // A link reference definition is used anywhere in the document.
  /^ {0,3}\[[^\]\n]*\]:/m,
  // A fence inside a list item or a quotation: only fences at the start of a line are followed here.
  /^[ \t]+(?:`{3,}|~{3,})/m,
  // An HTML block other than a comment: some run to their end marker whatever lines come between, and
  // a fence's marker inside one is not a fence.
  /^ {0,3}<(?!!--)/m,
];

const HEADING = /^#{1,6}(?:[ \t]|$)/;
const BLANK = /^[ \t]*$/;
const FENCE = /^(`{3,}|~{3,})(.*)$/;

/** Where the document may be cut: see `markdownBlocks`. */
export function sectionsOf(source: string): Section[] {
  const whole = [{ offset: 0, end: source.length, line: 1 }];
  if (WHOLE_ONLY.some((pattern) => pattern.test(source))) return whole;
  const comments = commentRanges(source);
  let passed = 0;
  /** Whether an HTML comment (or what looks like one, in a code span) holds `offset`; asked in order. */
  const inComment = (offset: number) => {
    while (passed < comments.length && (comments[passed]?.[1] ?? 0) <= offset) passed++;
    return (comments[passed]?.[0] ?? Number.POSITIVE_INFINITY) < offset;
  };
  const sections: Section[] = [];
  let start = { offset: 0, line: 1 };
  let fence: { mark: string; length: number; from: number } | undefined;
  let previousBlank = false;
  let offset = 0;
  let line = 1;
  while (offset < source.length) {
    const newline = source.indexOf('\n', offset);
    const next = newline === -1 ? source.length : newline + 1;
    const text = source.slice(offset, newline === -1 ? source.length : newline).replace(/\r$/, '');
    const marker = FENCE.exec(text);
    // A fence's marker in a comment, or a comment in a fence: which one holds the other is left to the
    // whole parse.
    if (marker && inComment(offset)) return whole;
    if (fence !== undefined) {
      if (
        marker?.[1] !== undefined &&
        marker[1][0] === fence.mark &&
        marker[1].length >= fence.length &&
        BLANK.test(marker[2] ?? '')
      ) {
        if (/<!--|-->/.test(source.slice(fence.from, offset))) return whole;
        fence = undefined;
      }
    } else if (
      marker?.[1] !== undefined &&
      // A backtick fence's info string has no backtick; with one, the line is a paragraph's code span.
      !(marker[1][0] === '`' && (marker[2] ?? '').includes('`'))
    ) {
      fence = { mark: marker[1][0] as string, length: marker[1].length, from: offset };
    } else if (previousBlank && HEADING.test(text) && !inComment(offset)) {
      sections.push({ ...start, end: offset });
      start = { offset, line };
    }
    previousBlank = fence === undefined && BLANK.test(text) && !inComment(offset);
    offset = next;
    line++;
  }
  if (fence !== undefined && /<!--|-->/.test(source.slice(fence.from))) return whole;
  sections.push({ ...start, end: source.length });
  return sections;
}

/** Where the HTML comments are, `<!--` to `-->` (or to the end): no cut falls inside one. */
function commentRanges(source: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let from = source.indexOf('<!--');
  while (from !== -1) {
    const close = source.indexOf('-->', from + 4);
    const end = close === -1 ? source.length : close + 3;
    ranges.push([from, end]);
    from = source.indexOf('<!--', end);
  }
  return ranges;
}

/** A copy of a parsed block placed where its section is in the document; the parsed one is kept as it was. */
function shifted<T extends Nodes>(node: T, offset: number, lines: number): T {
  const copy = { ...node } as T & { children?: Nodes[] };
  if (node.position) {
    const { start, end } = node.position;
    copy.position = {
      start: { line: start.line + lines, column: start.column, offset: (start.offset ?? 0) + offset },
      end: { line: end.line + lines, column: end.column, offset: (end.offset ?? 0) + offset },
    };
  }
  if ('children' in node) copy.children = node.children.map((child) => shifted(child, offset, lines));
  return copy;
}
