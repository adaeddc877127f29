import type { Paragraph, RootContent, TableRow } from 'mdast';

export interface TableShapeProblem {
  code: 'cell-count' | 'broken-table';
  message: string;
  hint: string;
  node: TableRow | Paragraph;
}

/**
 * Tables whose shape would lose rows or cells without a word: GitHub's Markdown ends a table at a blank
 * line and reads the rows after it as a paragraph, pads a short row and drops a long row's extra cells.
 * In the rich example, one blank line dropped 12 of 16 field constraints that way.
 *
 * @example
 * ```ts
 * tableShapeProblems(fromMarkdown('| a | b |\n| - | - |\n| 1 |', { ... }).children, text);
 * // [{ code: 'cell-count', message: 'This row has 1 cell and the table's header has 2: …', … }]
 * ```
 */
export function tableShapeProblems(blocks: readonly RootContent[], source: string): TableShapeProblem[] {
  const problems: TableShapeProblem[] = [];
  let previous: RootContent | undefined;
  for (const block of blocks) {
    if (block.type === 'table') {
      const width = block.children[0]?.children.length ?? 0;
      for (const row of block.children.slice(1)) {
        const cells = row.children.length;
        if (cells === width) continue;
        problems.push(
          cells > width
            ? {
                code: 'cell-count',
                message: `This row has ${cells} cells and the table's header has ${width}: the cells past the header's columns would be lost.`,
                hint: 'remove the extra cells, add a column to the header, or write a | inside a cell as \\|',
                node: row,
              }
            : {
                code: 'cell-count',
                message: `This row has ${cells} cell${cells === 1 ? '' : 's'} and the table's header has ${width}: which column each value belongs to cannot be told.`,
                hint: 'give the row one cell per column, leaving the ones that do not apply empty ("| |")',
                node: row,
              },
        );
      }
    } else if (block.type === 'paragraph' && looksLikeTableRows(block, source)) {
      const afterTable = previous?.type === 'table';
      const blankLine = (block.position?.start.line ?? 2) - 1;
      problems.push({
        code: 'broken-table',
        message: afterTable
          ? `These rows are cut off from the table above by a blank line (line ${blankLine}), so they would be read as prose and lost.`
          : 'These lines look like the rows of a table, but the table has no header and separator line (| --- |), so they would be read as prose.',
        hint: afterTable
          ? 'remove the blank line between the table and these rows'
          : 'start the table with a header row and a line such as "| --- | --- |"',
        node: block,
      });
    }
    previous = block;
  }
  return problems;
}

/** A paragraph whose every line starts and ends with "|": rows of a table that did not become one. */
function looksLikeTableRows(block: Paragraph, source: string): boolean {
  const from = block.position?.start.offset;
  const to = block.position?.end.offset;
  if (from === undefined || to === undefined) return false;
  return source
    .slice(from, to)
    .split('\n')
    .every((line) => {
      const trimmed = line.trim();
      return trimmed.length > 1 && trimmed.startsWith('|') && trimmed.endsWith('|');
    });
}
