import { type Issue, type PathSegment, readYaml, type SourcePosition } from '@ninefold/model';
import { MAX_DEPTH, MAX_OPENAPI_BYTES } from './limits';
import { lineColumn, locateJson } from './locate-json';

/** How much of a text is searched for NUL, the mark of a binary file. */
const BINARY_PROBE_CHARS = 65536;

/** Issues beyond this many in one large JSON file are reported without a line, to keep locating cheap. */
const LOCATED_ISSUES_IN_LARGE_FILE = 50;

export interface ParsedText {
  file: string;
  /** Undefined when the text could not be read. */
  data: unknown;
  issues: Issue[];
  /** Where the value (or key) at `path` is; undefined when that cannot be said cheaply. */
  locate(path: readonly PathSegment[], key?: boolean): SourcePosition | undefined;
}

/**
 * Parses JSON (with `JSON.parse`, by far the fastest reader) or YAML (with `yaml`, which keeps positions
 * and limits alias expansion). Never throws.
 */
export function parseText(text: string, file: string): ParsedText {
  const at = (line: number, column: number): SourcePosition => ({ file, line, column });
  const refused = (issue: Omit<Issue, 'severity' | 'path' | 'source'>): ParsedText => ({
    file,
    data: undefined,
    issues: [{ ...issue, severity: 'error', path: [], source: at(1, 1) }],
    locate: () => undefined,
  });
  if (text.length > MAX_OPENAPI_BYTES) {
    return refused({
      code: 'too-large',
      message: `The file is ${(text.length / 1048576).toFixed(1)} MB; an OpenAPI document may be at most ${MAX_OPENAPI_BYTES / 1048576} MB.`,
    });
  }
  // A binary file shows itself in its first bytes; scanning all of a 13 MB text for NUL costs more than
  // the rest of the checks, and a NUL further on is a syntax error of JSON and YAML alike.
  if (text.slice(0, BINARY_PROBE_CHARS).includes('\u0000')) {
    return refused({
      code: 'binary-file',
      message: 'The file is not text; an OpenAPI document is JSON or YAML.',
    });
  }
  if (!/\S/.test(text)) return refused({ code: 'empty-file', message: 'The file is empty.' });
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (looksLikeJson(file, body)) return parseJson(body, file);
  const source = readYaml(body, file, 'yaml', { maxDepth: MAX_DEPTH });
  return {
    file,
    data: source.data,
    issues: source.issues,
    locate: (path, key) => source.locate(path, { key: key ?? false }),
  };
}

function looksLikeJson(file: string, text: string): boolean {
  if (/\.json$/i.test(file)) return true;
  if (/\.ya?ml$/i.test(file)) return false;
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

function parseJson(text: string, file: string): ParsedText {
  let located = 0;
  const locate = (path: readonly PathSegment[], key?: boolean): SourcePosition | undefined => {
    if (text.length > 1048576 && ++located > LOCATED_ISSUES_IN_LARGE_FILE) return undefined;
    return { file, ...lineColumn(text, locateJson(text, path, key)) };
  };
  try {
    return { file, data: JSON.parse(text), issues: [], locate };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof RangeError) {
      return {
        file,
        data: undefined,
        issues: [
          {
            code: 'too-deep',
            severity: 'error',
            message: 'The document is nested too deeply to read.',
            path: [],
            source: { file, line: 1, column: 1 },
          },
        ],
        locate: () => undefined,
      };
    }
    // V8 names the offset ("at position 12") on Node 20 and 22; a truncated text has none: point at its end.
    const offset = Number(/position (\d+)/.exec(message)?.[1] ?? text.length);
    return {
      file,
      data: undefined,
      issues: [
        {
          code: 'syntax',
          severity: 'error',
          message: `The JSON is not valid: ${message.replace(/^JSON\.parse: /, '')}`,
          path: [],
          source: { file, ...lineColumn(text, Math.min(offset, text.length)) },
        },
      ],
      locate: () => undefined,
    };
  }
}
