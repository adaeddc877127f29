import { POINT_KEYS, POINT_NAMES, type PointKey } from '@ninefold/model';

/** What happened to one part of the source document. */
export type ReportKind = 'mapped' | 'inferred' | 'not-shown' | 'skipped';
export const REPORT_KINDS: readonly ReportKind[] = ['mapped', 'inferred', 'not-shown', 'skipped'];

export interface ReportEntry {
  kind: ReportKind;
  /** JSON Pointer into the source document, e.g. `/paths/~1articles/get`; `` for the whole document. */
  pointer: string;
  message: string;
  /**
   * Further places the same entry is about: copies of one schema that map to one entity are listed
   * here rather than as an entry each.
   */
  also?: string[];
}

/**
 * What an OpenAPI import mapped, inferred (and why), left not shown, or skipped, point by point, with
 * JSON pointers into the source document.
 *
 * @example
 * ```ts
 * report.points.entities[0];
 * // { kind: 'inferred', pointer: '/components/schemas/Article', message: 'key "slug": ...' }
 * report.counts.inferred; // 12
 * ```
 */
export interface ImportReport {
  file: string;
  points: Record<PointKey, ReportEntry[]>;
  counts: Record<ReportKind, number>;
}

/** A report being written; `finish` counts the entries. */
export interface ReportBuilder {
  /** Adds an entry and gives it back, so that later copies can be added to its `also`. */
  add(point: PointKey, kind: ReportKind, pointer: string, message: string): ReportEntry;
  finish(): ImportReport;
}

/**
 * Starts an empty report for a file.
 *
 * @example
 * ```ts
 * const builder = createReportBuilder('shop.yaml');
 * builder.add('calls', 'mapped', '/paths/~1orders/get', 'GET /orders -> call listOrders');
 * builder.finish().counts.mapped; // 1
 * ```
 */
export function createReportBuilder(file: string): ReportBuilder {
  const points = Object.fromEntries(POINT_KEYS.map((key) => [key, [] as ReportEntry[]])) as Record<
    PointKey,
    ReportEntry[]
  >;
  return {
    add(point, kind, at, message) {
      const entry: ReportEntry = { kind, pointer: at, message };
      points[point].push(entry);
      return entry;
    },
    finish() {
      const counts: Record<ReportKind, number> = { mapped: 0, inferred: 0, 'not-shown': 0, skipped: 0 };
      for (const key of POINT_KEYS) for (const entry of points[key]) counts[entry.kind] += 1;
      return { file, points, counts };
    },
  };
}

/** How `formatImportReport` lists entries. */
export interface ReportFormat {
  /** List the mapped entries too, not only those that need a reader's attention. */
  all?: boolean;
  /**
   * At most this many entries under each point; the rest are counted in one line. A terminal gets a
   * summary (GitHub's description has thousands of inferred items), a report file gets every line.
   */
  limit?: number;
}

/**
 * The report as readable text for the CLI: one block per point with its counts, then one line per entry
 * that needs a reader's attention (inferred, not shown, skipped). Mapped entries are counted, not listed,
 * so that a large document's report stays readable; pass `{ all: true }` to list them too, and `limit` to
 * list at most that many under each point.
 *
 * @example
 * ```ts
 * formatImportReport(report, { limit: 10 });
 * // Import report for conduit.yml: 80 mapped, 25 inferred, 3 not shown, 1 skipped
 * //
 * // 1. product: 2 mapped
 * // ...
 * ```
 */
export function formatImportReport(report: ImportReport, options: ReportFormat = {}): string {
  return importReportText(report, options).text;
}

/** The report's text as `formatImportReport` writes it, and how many entries `limit` left out of it. */
export function importReportText(
  report: ImportReport,
  options: ReportFormat,
): { text: string; unlisted: number } {
  const { counts } = report;
  const lines = [
    `Import report for ${report.file}: ${counts.mapped} mapped, ${counts.inferred} inferred, ` +
      `${counts['not-shown']} not shown, ${counts.skipped} skipped`,
  ];
  let unlisted = 0;
  POINT_KEYS.forEach((key, index) => {
    const entries = report.points[key];
    const tally = tallyOf(entries);
    lines.push('', `${index + 1}. ${POINT_NAMES[key]}: ${tally.length > 0 ? tally.join(', ') : 'nothing'}`);
    const listed = entries.filter((entry) => entry.kind !== 'mapped' || options.all === true);
    const shown = options.limit === undefined ? listed : listed.slice(0, options.limit);
    for (const entry of shown) {
      const more = entry.also?.length
        ? ` and ${entry.also.length} more ${entry.also.length === 1 ? 'place' : 'places'}`
        : '';
      const at = entry.pointer === '' ? '' : ` (${entry.pointer}${more})`;
      lines.push(`   ${entry.kind.padEnd(9)} ${entry.message}${at}`);
    }
    const left = listed.slice(shown.length);
    if (left.length > 0) lines.push(`   … and ${left.length} more: ${tallyOf(left).join(', ')}`);
    unlisted += left.length;
  });
  return { text: lines.join('\n'), unlisted };
}

/** "3 mapped, 1 not shown": how many entries of each kind, in the kinds' order, leaving out the nones. */
function tallyOf(entries: readonly ReportEntry[]): string[] {
  return REPORT_KINDS.map((kind) => [kind, entries.filter((e) => e.kind === kind).length] as const)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind === 'not-shown' ? 'not shown' : kind}`);
}
