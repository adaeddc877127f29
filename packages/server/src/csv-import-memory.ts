// What imports made, remembered by content: an entity matched on no unique field has nothing else to tell
// an orders file imported twice from a second file of orders. A row whose very values the same person's
// import made into a record that is still there is skipped (and said so), unless the request asks to
// import it again. Per person: a skip over someone else's records would tell this person that a record
// exists which point 6 may hide from them.
import { createHash } from 'node:crypto';
import type { Entity, JsonValue, ReadRow } from '@ninefold/model';
import { coerceKey } from './record-helpers';
import type { Store } from './store/store';

export class ImportMemory {
  /** Rows made by this import, remembered when it commits. */
  private readonly made: Array<{ hash: string; key: string }> = [];
  private readonly madeNow = new Set<string>();

  private constructor(
    private readonly entity: Entity,
    private readonly hashes: Map<number, string>,
    private readonly before: Set<string>,
    private readonly again: boolean,
  ) {}

  /** The memory of the rows about to be written: which of them imports made already, read in a few queries. */
  static async of(
    tx: Store,
    entity: Entity,
    person: JsonValue | undefined,
    rows: readonly ReadRow[],
    again: boolean,
  ): Promise<ImportMemory> {
    const hashes = new Map(rows.map((row) => [row.row, contentHash(entity, person, row.values)]));
    const before = new Set<string>();
    if (!again) {
      const made = await tx.importedBefore(entity.name, [...new Set(hashes.values())]);
      const still = await tx.existing(
        entity.name,
        [...made.values()].map((key) => coerceKey(entity, key)),
      );
      for (const [hash, key] of made) if (still.has(String(key))) before.add(hash);
    }
    return new ImportMemory(entity, hashes, before, again);
  }

  /** Whether an import made this row's very values into a record already: this one or an earlier one. */
  madeAlready(row: number): boolean {
    const hash = this.hashes.get(row);
    if (hash === undefined || this.again) return false;
    return this.before.has(hash) || this.madeNow.has(hash);
  }

  /** This row became the record `key`. */
  remember(row: number, key: string): void {
    const hash = this.hashes.get(row);
    if (hash === undefined) return;
    this.madeNow.add(hash);
    this.made.push({ hash, key });
  }

  /** Where the memory of this import's rows stands: `forgetSince` takes back what came after. */
  mark(): number {
    return this.made.length;
  }

  /** Forgets the rows remembered since `mark`: their writes were taken back. */
  forgetSince(mark: number): void {
    // A hash is remembered at most once (a row whose hash is here already is skipped), so each goes alone.
    for (const { hash } of this.made.splice(mark)) this.madeNow.delete(hash);
  }

  /** Writes what this import made, in the import's transaction. */
  save(tx: Store): Promise<void> {
    // Once per hash (the latest record wins): one statement may not write a row twice.
    const latest = new Map(this.made.map(({ hash, key }) => [hash, key]));
    return tx.rememberImported(
      this.entity.name,
      [...latest].map(([hash, key]) => ({ hash, key })),
    );
  }
}

/**
 * The hash of a row's values, in field order, and of who imports it: the same values give the same hash,
 * whatever the columns' order.
 */
function contentHash(entity: Entity, person: JsonValue | undefined, values: ReadRow['values']): string {
  const content = entity.fields.map((field) => values[field.name] ?? null);
  return createHash('sha256')
    .update(JSON.stringify([entity.name, person ?? null, content]))
    .digest('base64url');
}
