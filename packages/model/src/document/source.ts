import type { Issue, PathSegment, SourcePosition } from '../issues';

export type SpecFormat = 'markdown' | 'yaml' | 'json';

/**
 * A specification read from text into the authoring document (the YAML/JSON shape), before it is
 * validated. Every reader keeps a way back from a path in the document to the text it came from, so
 * that later stages (schema validation, semantic checks) can name `file:line:column`.
 *
 * @example
 * ```ts
 * const source = readYaml('title: Shop\nscreens: not shown\n', 'shop.yaml');
 * source.locate(['screens']); // { file: 'shop.yaml', line: 2, column: 10 }
 * ```
 */
export interface SourceDocument {
  format: SpecFormat;
  file: string;
  /** The authoring document; `undefined` when the text could not be read at all. */
  data: unknown;
  /** Problems found while reading the text (syntax, the Markdown convention), already located. */
  issues: Issue[];
  /**
   * The position of the value at `path`, or of the nearest enclosing value that exists.
   * With `key: true`, the position of the key itself (for unknown keys).
   */
  locate(path: readonly PathSegment[], options?: { key?: boolean }): SourcePosition | undefined;
  /**
   * The position of character `offset` inside the string at `path` (for errors inside a CEL
   * expression). Falls back to the string's own position when the offset cannot be mapped exactly.
   */
  locateInString(path: readonly PathSegment[], offset: number): SourcePosition | undefined;
}
