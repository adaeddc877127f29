import type { Coverage, Issue, SpecFormat } from '@ninefold/model';

/**
 * The messages between the playground and its checking worker. Loading and checking the text (and
 * importing a dropped OpenAPI document) happen there, so that typing never waits for them.
 */
export type CheckRequest =
  /** The text as it is now, numbered so that an answer to an older text is recognised and dropped. */
  | {
      kind: 'check';
      id: number;
      text: string;
      format: SpecFormat;
      /** Entities the page has seeded records for already: records are made only for the others. */
      held: string[];
    }
  /** An OpenAPI document dropped on the page or opened: imported into nine-point YAML. */
  | { kind: 'import'; id: number; file: Blob; name: string }
  /** The text written in the other format (Markdown to YAML, or YAML to Markdown), for a download. */
  | { kind: 'convert'; id: number; text: string; format: SpecFormat; to: 'markdown' | 'yaml' };

export type CheckAnswer =
  | {
      kind: 'checked';
      id: number;
      /** True when there is a model and no issue is an error. */
      ok: boolean;
      /** The model as JSON text (one copy across the boundary, parsed on the page). */
      modelJson?: string;
      /** Seeded records of the model's entities, by entity, as JSON text (see `seedRecords`). */
      recordsJson?: string;
      coverage?: Coverage;
      issues: Issue[];
      millis: number;
    }
  | {
      kind: 'imported';
      id: number;
      /** The nine-point YAML the document imports to, for the editor. */
      text?: string;
      file: string;
      version: string;
      issues: Issue[];
      counts: { mapped: number; inferred: number; notShown: number; skipped: number };
      /**
       * What was inferred rather than read, and what was skipped, each with its point and its place in
       * the document: the parts to check before relying on them (the first `MAX_REPORTED`).
       */
      entries: ReportedEntry[];
      millis: number;
    }
  | {
      kind: 'converted';
      id: number;
      text: string;
      /** What the Markdown format cannot hold, one line each: said beside the download, never dropped silently. */
      lost: string[];
    }
  | { kind: 'failed'; id: number; message: string };

/** One part of an imported document the person should look at: inferred or skipped, and where. */
export interface ReportedEntry {
  kind: 'inferred' | 'skipped';
  /** The point's number, 1 to 9. */
  point: number;
  /** JSON Pointer into the imported document. */
  pointer: string;
  message: string;
}

/** Entries sent to the page: enough to read, not a 20 MB document's every one. */
export const MAX_REPORTED = 300;
