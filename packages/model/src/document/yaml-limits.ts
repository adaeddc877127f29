import { isAlias, isCollection, isNode, isPair, type Node } from 'yaml';
import type { Issue, SourcePosition } from '../issues';

// The limits a YAML or JSON text is held to, before and after it is parsed (see readYaml).

/** Line and column of an offset, counted in the text itself (before any parser has seen it). */
export function plainPosition(text: string, offset: number, file: string): SourcePosition {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { file, line, column: offset - start + 1 };
}

/** Nesting past this is refused before parsing; within it, the parsed tree is held to `maxDepth`. */
export const PARSER_DEPTH_GUARD = 1_000;

/**
 * The offset where flow brackets (`[`, `{`) nest, or a line indents, past `limit`, if anywhere. Quoted
 * strings and comments are skipped. One pass over the text, with no recursion.
 */
export function nestingBeyond(text: string, limit: number): number | undefined {
  let depth = 0;
  let quote = 0;
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      lineStart = true;
      indent = 0;
      continue;
    }
    if (lineStart) {
      if (c === 32 || c === 45) {
        if (++indent > limit) return i;
        continue;
      }
      lineStart = false;
    }
    if (quote !== 0) {
      if (c === 92 && quote === 34) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 34 || c === 39) {
      const before = text.charCodeAt(i - 1);
      // A quote opens a string only where a value starts, not inside a plain word (don't, it's).
      if (
        i === 0 ||
        before === 32 ||
        before === 91 ||
        before === 123 ||
        before === 44 ||
        before === 58 ||
        before === 10
      )
        quote = c;
    } else if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return undefined;
}

/**
 * Nesting deeper than `maxDepth` (MAX_YAML_DEPTH for a specification), and aliases inside the node they name (`product: &s [*s]`), which
 * would make the data a cycle that no later step could walk. Walked with a stack, not recursion, so
 * that a deep document is reported rather than overflowing.
 */
export function shapeLimitIssues(
  root: Node | null,
  position: (offset: number) => SourcePosition,
  maxDepth: number,
): Issue[] {
  const anchored = new Map<string, Node[]>();
  const aliases: Node[] = [];
  const stack: Array<{ node: unknown; depth: number }> = root ? [{ node: root, depth: 0 }] : [];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { node, depth } = entry;
    if (isAlias(node)) {
      aliases.push(node);
      continue;
    }
    if (!isNode(node)) continue;
    if (node.anchor) {
      const same = anchored.get(node.anchor);
      if (same) same.push(node);
      else anchored.set(node.anchor, [node]);
    }
    if (!isCollection(node)) continue;
    if (depth >= maxDepth) {
      return [
        {
          code: 'too-deep',
          severity: 'error',
          message: `The document nests more than ${maxDepth} levels deep here.`,
          path: [],
          source: position(node.range?.[0] ?? 0),
        },
      ];
    }
    for (const item of node.items) {
      if (isPair(item))
        stack.push({ node: item.key, depth: depth + 1 }, { node: item.value, depth: depth + 1 });
      else stack.push({ node: item, depth: depth + 1 });
    }
  }
  for (const alias of aliases) {
    if (!isAlias(alias) || !alias.range) continue;
    const at = alias.range[0];
    // An alias names the last anchor of its name before it.
    let target: Node | undefined;
    for (const candidate of anchored.get(alias.source) ?? []) {
      const start = candidate.range?.[0] ?? Number.POSITIVE_INFINITY;
      if (start < at && (target?.range?.[0] ?? -1) < start) target = candidate;
    }
    if (target?.range && at < target.range[2]) {
      return [
        {
          code: 'cycle',
          severity: 'error',
          message: `The alias *${alias.source} is inside the value it names, so that value would contain itself without end.`,
          path: [],
          source: position(at),
          hint: 'write the value out, or point the alias at a value it is not part of',
        },
      ];
    }
  }
  return [];
}
