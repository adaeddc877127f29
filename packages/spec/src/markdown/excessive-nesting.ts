/**
 * Beyond these, the Markdown parser's time grows out of proportion (a staircase of 1,000 ever more indented
 * lines takes it about 40 s), and no specification a person writes comes near them.
 */
export const MAX_NESTING = 64;
export const MAX_INDENT = 256;

/**
 * The first line that nests containers (list markers, quotes) or indents past the limits, if any.
 *
 * @example
 * ```ts
 * findExcessiveNesting('- a\n'); // undefined
 * findExcessiveNesting('>'.repeat(65)); // { line: 1, what: 'more than 64 levels deep' }
 * ```
 */
export function findExcessiveNesting(text: string): { line: number; what: string } | undefined {
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
