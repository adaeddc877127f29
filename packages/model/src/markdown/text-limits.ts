/**
 * Beyond these, the Markdown parser's time and memory grow out of proportion, and no specification a
 * person writes comes near them:
 * - a staircase of 1,000 ever more indented lines takes the parser about 40 s;
 * - one line of 100,000 `*a` (or `[a]`) never finishes: its emphasis and link resolution is quadratic in
 *   the marks of one paragraph or cell, and 10,000 characters keep any line under a tenth of a second;
 * - the parser keeps several hundred bytes per byte of text (0.94 MB took 6.7 s and 850 MB; 465 KiB
 *   passed a 256 MB heap, 283 KiB took 1.9 s), so a document is at most 200 KiB: some 3,500 lines,
 *   fourteen times the rich example. A larger specification is better written in YAML (4 MiB).
 */
export const MAX_NESTING = 64;
export const MAX_INDENT = 256;
export const MAX_MARKDOWN_LINE = 10_000;
export const MAX_MARKDOWN_BYTES = 200 * 1024;

export interface TextLimitOverflow {
  code: 'too-large' | 'too-deep';
  line: number;
  column: number;
  message: string;
  hint: string;
}

/**
 * The first place where a Markdown text passes a limit that keeps its parsing fast and small, if any:
 * a line too long, or nesting too deep. One pass over the text, before it is parsed.
 *
 * @example
 * ```ts
 * findTextLimitOverflow('- a\n'); // undefined
 * findTextLimitOverflow('>'.repeat(65)); // { line: 1, column: 1, message: 'Line 1 is nested more than 64 levels deep; …' }
 * ```
 */
export function findTextLimitOverflow(text: string): TextLimitOverflow | undefined {
  let line = 0;
  let start = 0;
  while (start <= text.length) {
    line++;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > MAX_MARKDOWN_LINE) {
      return {
        code: 'too-large',
        line,
        column: MAX_MARKDOWN_LINE + 1,
        message: `Line ${line} is ${(end - start).toLocaleString('en')} characters long; a line of a Markdown specification may be at most ${MAX_MARKDOWN_LINE.toLocaleString('en')}.`,
        hint: 'break the text into several lines, or move long content to a file of its own',
      };
    }
    let indent = 0;
    let depth = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 32) indent++;
      else if (c === 9) indent += 4 - (indent % 4);
      else if (c === 62 || ((c === 45 || c === 42 || c === 43) && text.charCodeAt(i + 1) === 32)) depth++;
      else break;
      const what =
        indent > MAX_INDENT
          ? `more than ${MAX_INDENT} columns deep`
          : depth > MAX_NESTING
            ? `more than ${MAX_NESTING} levels deep`
            : undefined;
      if (what) {
        return {
          code: 'too-deep',
          line,
          column: 1,
          message: `Line ${line} is nested ${what}; a specification nests lists and quotes at most ${MAX_NESTING} levels and indents at most ${MAX_INDENT} columns.`,
          hint: 'flatten the list, or put long text in a code block',
        };
      }
    }
    start = end + 1;
  }
  return undefined;
}
