import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  Scalar,
  type YAMLError,
} from 'yaml';
import type { Issue, PathSegment, SourcePosition } from '../issues';
import type { SourceDocument, SpecFormat } from './source';
import { nestingBeyond, PARSER_DEPTH_GUARD, plainPosition, shapeLimitIssues } from './yaml-limits';

/** Aliases may not expand a document past this many nodes: a "billion laughs" file must not hang us. */
export const MAX_ALIAS_COUNT = 1_000;
/**
 * Deeper nesting than this is refused. A specification nests a handful of levels (point, item, field,
 * options); beyond this it is a generated or hostile file, and every later walk would pay for it.
 */
export const MAX_YAML_DEPTH = 64;

/**
 * Reads YAML (or JSON, which is YAML too) into the authoring document, keeping the parsed node tree so
 * that any path can be traced back to `file:line:column`. Never throws.
 *
 * @example
 * ```ts
 * const source = readYaml('title: Shop\nstates: not shown\n', 'shop.yaml');
 * source.data; // { title: 'Shop', states: 'not shown' }
 * source.locate(['states']); // { file: 'shop.yaml', line: 2, column: 9 }
 * ```
 */
export function readYaml(
  text: string,
  file: string,
  format: SpecFormat = 'yaml',
  limits: { maxDepth?: number } = {},
): SourceDocument {
  const maxDepth = limits.maxDepth ?? MAX_YAML_DEPTH;
  const lineCounter = new LineCounter();
  const position = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col };
  };
  // The parser recurses per level, and a stack overflow deep inside it can take the process down with
  // it (V8 compiling a regular expression with no stack left is fatal, not a RangeError): text nested
  // past any limit is refused before it is parsed.
  const tooDeep = nestingBeyond(text, PARSER_DEPTH_GUARD);
  if (tooDeep !== undefined) {
    return {
      format,
      file,
      data: undefined,
      issues: [
        {
          code: 'too-deep',
          severity: 'error',
          message: `The document nests more than ${PARSER_DEPTH_GUARD.toLocaleString('en')} levels deep here, far past the ${maxDepth} a document may.`,
          path: [],
          source: plainPosition(text, tooDeep, file),
        },
      ],
      locate: () => ({ file, line: 1, column: 1 }),
      locateInString: () => ({ file, line: 1, column: 1 }),
    };
  }
  const doc = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    keepSourceTokens: false,
  });
  const issues: Issue[] = [
    ...syntaxIssues(doc.errors, position),
    ...doc.warnings.map((warning) => yamlIssue(warning, 'warning', position)),
  ];

  let data: unknown;
  if (doc.errors.length === 0)
    issues.push(...shapeLimitIssues(doc.contents as Node | null, position, maxDepth));
  if (doc.errors.length === 0 && !issues.some((issue) => issue.severity === 'error')) {
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      // toJS throws only for alias bombs and similar resource limits; report it as the syntax problem it is.
      issues.push({
        code: 'syntax',
        severity: 'error',
        message: `The document could not be read: ${error instanceof Error ? error.message : String(error)}`,
        path: [],
        source: position(0),
      });
    }
  }

  const find = (
    path: readonly PathSegment[],
  ): { node: Node | undefined; key: Node | undefined; complete: boolean } => {
    let node: Node | undefined = (doc.contents as Node | null) ?? undefined;
    let key: Node | undefined;
    let found = 0;
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (!pair) break;
        key = isScalar(pair.key) ? pair.key : undefined;
        node = (pair.value as Node | null) ?? key;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment];
        if (item === undefined || isPair(item)) break;
        key = undefined;
        node = item as Node;
      } else {
        break;
      }
      found++;
    }
    return { node, key, complete: found === path.length };
  };

  const start = (node: Node | undefined): SourcePosition | undefined =>
    node?.range ? position(node.range[0]) : undefined;

  return {
    format,
    file,
    data,
    issues,
    locate(path, options) {
      const { node, key, complete } = find(path);
      // A key that is missing belongs to its parent: point at the parent's own key, where a person looks,
      // rather than at the first line of the parent's value.
      const preferKey = options?.key || !complete;
      return (preferKey ? start(key) : undefined) ?? start(node) ?? position(0);
    },
    locateInString(path, offset) {
      const { node } = find(path);
      if (!isScalar(node) || !node.range || typeof node.value !== 'string') return start(node) ?? position(0);
      const shift = stringContentShift(node);
      if (shift === undefined || offset > node.value.length) return start(node);
      // A plain or quoted single-line scalar maps characters one to one (escapes aside).
      if (node.value.slice(0, offset).includes('\n')) return start(node);
      return position(node.range[0] + shift + offset);
    },
  };
}

/** How many characters precede a scalar's content in the source, when it is written on one line. */
function stringContentShift(node: Scalar): number | undefined {
  switch (node.type) {
    case Scalar.PLAIN:
      return 0;
    case Scalar.QUOTE_DOUBLE:
    case Scalar.QUOTE_SINGLE:
      return 1;
    default:
      return undefined;
  }
}

/**
 * The reader's errors, with the syntax errors after the first folded into it: once the structure is
 * broken, the parser reports every token that follows as unexpected (one bracket in a flow map gave 323
 * errors), and only the first says what to correct. A key given twice is a mistake of its own, kept.
 */
function syntaxIssues(errors: readonly YAMLError[], position: (offset: number) => SourcePosition): Issue[] {
  const twice = errors.filter((error) => error.code === 'DUPLICATE_KEY');
  const syntax = errors.filter((error) => error.code !== 'DUPLICATE_KEY');
  const [first, ...following] = syntax;
  const issues = twice.map((error) => yamlIssue(error, 'error', position));
  if (first) {
    const issue = yamlIssue(first, 'error', position);
    if (following.length > 0) {
      const last = position(following[following.length - 1]?.pos[0] ?? first.pos[0]);
      issue.hint = `${following.length} more syntax error${following.length === 1 ? '' : 's'}, up to line ${last.line}, follow from this one: correct it and check again.`;
    }
    issues.push(issue);
  }
  return issues.sort(
    (a, b) =>
      (a.source?.line ?? 0) - (b.source?.line ?? 0) || (a.source?.column ?? 0) - (b.source?.column ?? 0),
  );
}

function yamlIssue(
  error: YAMLError,
  severity: Issue['severity'],
  position: (offset: number) => SourcePosition,
): Issue {
  const firstLine = error.message.split('\n')[0] ?? error.message;
  const message = firstLine.replace(/ at line \d+, column \d+:?$/, '');
  // The parser recurses per level, so a document nested thousands deep overflows it before our own
  // limit is reached: that is the same limit, and says so.
  if (/call stack/i.test(message)) {
    return {
      code: 'too-deep',
      severity: 'error',
      message: 'The document nests too deeply here to be read (thousands of levels).',
      path: [],
      source: position(error.pos[0]),
    };
  }
  return {
    code: error.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'syntax',
    severity,
    message:
      error.code === 'DUPLICATE_KEY'
        ? `${message}: each name may appear once (the second one would silently replace the first).`
        : message,
    path: [],
    source: position(error.pos[0]),
  };
}
