/**
 * Exact list totals, remembered per entity and filter until a write could change them. Counting is the
 * dear part of a page of a large table (200,000 matching rows take milliseconds to count), while paging
 * through one list asks the same count again and again.
 *
 * Writes through the store forget the entity's totals. A count that raced with a write is not kept: each
 * entity has a generation, bumped by every write, and a total is stored only if the generation it was
 * counted under is still current.
 */
export class TotalsCache {
  private readonly totals = new Map<string, Map<string, number>>();
  private readonly generations = new Map<string, number>();

  /** Bounds memory when a person tries many filters: beyond this, an entity's totals start afresh. */
  static readonly MAX_PER_ENTITY = 1000;

  generation(entity: string): number {
    return this.generations.get(entity) ?? 0;
  }

  get(entity: string, filters: string): number | undefined {
    return this.totals.get(entity)?.get(filters);
  }

  set(entity: string, filters: string, total: number, generation: number): void {
    if (this.generation(entity) !== generation) return;
    let perEntity = this.totals.get(entity);
    if (!perEntity || perEntity.size >= TotalsCache.MAX_PER_ENTITY) {
      perEntity = new Map();
      this.totals.set(entity, perEntity);
    }
    perEntity.set(filters, total);
  }

  /** Something changed the entity's rows (or may have): its totals are no longer known. */
  invalidate(entity: string): void {
    this.generations.set(entity, this.generation(entity) + 1);
    this.totals.delete(entity);
  }

  /** Another connection wrote, or the schema changed: nothing is known any more. */
  clear(): void {
    for (const entity of new Set([...this.totals.keys(), ...this.generations.keys()]))
      this.invalidate(entity);
  }
}
