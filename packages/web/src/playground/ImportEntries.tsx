import { POINT_KEYS, POINT_NAMES } from '@ninefold/model';
import type { ReportedEntry } from './check-protocol';

/**
 * What an import inferred rather than read, and what it skipped, each with its point and its place in the
 * document: the parts a person checks before relying on them. Folded, under the counts.
 */
export function ImportEntries({ entries, total }: { entries: ReportedEntry[]; total: number }) {
  if (entries.length === 0) return null;
  return (
    <details className="nf-import-entries">
      <summary>
        Show what was inferred or skipped (
        {total === entries.length ? total : `the first ${entries.length} of ${total}`})
      </summary>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must take focus to be scrolled by keyboard */}
      <ul tabIndex={0}>
        {entries.map((entry, index) => (
          // The same place can hold an inferred and a skipped part: the index keeps them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: entries never move; their order is the report's
          <li key={index}>
            <strong>{entry.kind === 'inferred' ? 'Inferred' : 'Skipped'}</strong>{' '}
            <span>
              (point {entry.point}, {POINT_NAMES[POINT_KEYS[entry.point - 1] ?? 'product']})
            </span>{' '}
            <code>{entry.pointer || '/'}</code>: {entry.message}
          </li>
        ))}
      </ul>
    </details>
  );
}
