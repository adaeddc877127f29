import type { Coverage, Issue } from '@ninefold/model';

/**
 * The messages between the import page and its worker. The worker does everything that takes time
 * (downloading, parsing, mapping, checking), so the page only ever draws progress.
 */
export type ImportRequest =
  /** A document the person chose or dropped; the worker reads its bytes. */
  | { kind: 'file'; file: Blob; name: string }
  /** A document at an address on this site (the page's Content-Security-Policy allows no other). */
  | { kind: 'url'; url: string };

/** The steps of an import, in order. */
export const IMPORT_STAGES = ['download', 'read', 'map', 'check'] as const;
export type ImportStage = (typeof IMPORT_STAGES)[number];

export type ImportMessage =
  | { kind: 'progress'; stage: ImportStage; loaded?: number; total?: number }
  | { kind: 'done'; result: ImportedDocument }
  | { kind: 'failed'; message: string };

/** What the page needs of an import: the model and what to tell the person about it. */
export interface ImportedDocument {
  /** The file name, or the URL's last segment. */
  file: string;
  bytes: number;
  version: '2.0' | '3.0' | '3.1' | 'unknown';
  /** True when there is a model and no issue is an error. */
  ok: boolean;
  /**
   * The model as JSON text: a string crosses from the worker as one copy, where a model of thousands of
   * objects would be rebuilt object by object on the page's thread. It is parsed when the preview opens.
   */
  modelJson?: string;
  /** How many entities, screens and calls the model has (0 for a point that is not shown). */
  sizes: { entities: number; screens: number; calls: number };
  coverage?: Coverage;
  issues: Issue[];
  /** The import report's tallies. */
  counts: { mapped: number; inferred: number; notShown: number; skipped: number };
  /** How long the worker took, download included. */
  millis: number;
}
