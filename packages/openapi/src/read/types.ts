import type { Issue } from '@ninefold/model';
import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';

/**
 * A bundled OpenAPI 3.0 or 3.1 document: every `$ref` in it is internal (`#/...`), so named schemas keep
 * their names under `components.schemas` and circular schemas stay finite. A Swagger 2.0 source arrives
 * upgraded to the 3.0 shape. 3.0 keeps `nullable`; 3.1 keeps type arrays: tell them apart by `openapi`.
 */
export type OpenApi3Document = OpenAPIV3.Document | OpenAPIV3_1.Document;

/** The version of the source document, before any upgrade. */
export type OpenApiVersion = '2.0' | '3.0' | '3.1' | 'unknown';

export interface ReadInput {
  text: string;
  /** Named in issues, and the base against which relative `$ref`s to other files are resolved. */
  file: string;
}

export interface ReadOptions {
  /**
   * Reads another file of a multi-file document, given its path (resolved against the referring file,
   * POSIX-style). Only paths inside `root` are ever asked for: a URL, a `file:` URL or a path that leaves
   * the root is refused before this is called. Return `undefined` when the file cannot be read, or
   * `{ refused }` when the reader finds that it leaves the root after all (a symbolic link). Without it,
   * every reference to another file is an issue.
   */
  readFile?: (path: string) => string | undefined | FileRefusal;
  /**
   * The folder that references may read from, in the same form as `file` (relative or absolute). Defaults
   * to the folder of the document itself.
   */
  root?: string;
}

/** What a `readFile` answers for a path it will not read, and why (said in the issue). */
export interface FileRefusal {
  refused: string;
}

export interface ReadResult {
  /** True when there is a document and no issue is an error. */
  ok: boolean;
  /** Present whenever the text was an OpenAPI document, even if some of its references are broken. */
  document?: OpenApi3Document;
  version: OpenApiVersion;
  /**
   * Every problem found. `path` is the JSON pointer (as segments; see `toPointer`) into the file named by
   * `source.file`, which is the input file or, for a multi-file document, the file the problem is in.
   */
  issues: Issue[];
}
