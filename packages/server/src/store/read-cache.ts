import type { FigureGroup } from '@ninefold/model';
import type { ListResult, StoredUser } from './store';

/**
 * What the store remembers of its reads until a write could change them: list totals and pages per
 * entity, and users by id. A list call's work is a page of rows, its total (200,000 matching rows take
 * milliseconds to count) and the user of its session token, and paging through one list, or many people
 * looking at the same one, asks the same again and again.
 *
 * Writes through the store forget the entity's entries, before and after they run. A read that raced
 * with a write is not kept: each entity has a generation, bumped by every write, and an entry is stored
 * only if the generation it was read under is still current. What tells the store of other writers'
 * changes is the dialect's: SQLite's `data_version`, PostgreSQL's notifications (see `pg-listener.ts`).
 */
export class ReadCache {
  private readonly totals = new Map<string, Map<string, number>>();
  private readonly pages = new Map<string, Map<string, ListResult>>();
  private readonly figures = new Map<string, Map<string, readonly FigureGroup[]>>();
  private readonly generations = new Map<string, number>();
  /** Small tables read whole and asked on every call (signed-out tokens), by table name. */
  private readonly sets = new Map<string, ReadonlySet<string>>();
  private readonly users = new Map<string, StoredUser>();
  private usersGeneration = 0;

  /** Bounds memory when a person tries many filters: beyond this, an entity's entries start afresh. */
  static readonly MAX_PER_ENTITY = 1000;
  /** Pages longer than this are not kept: a batch of a scan is read once. */
  static readonly MAX_PAGE = 200;
  static readonly MAX_USERS = 10_000;

  generation(entity: string): number {
    return this.generations.get(entity) ?? 0;
  }

  total(entity: string, query: string): number | undefined {
    return this.totals.get(entity)?.get(query);
  }

  keepTotal(entity: string, query: string, total: number, generation: number): void {
    if (this.generation(entity) === generation) bounded(this.totals, entity).set(query, total);
  }

  page(entity: string, query: string): ListResult | undefined {
    return this.pages.get(entity)?.get(query);
  }

  /** Keeps a page, frozen: every later caller gets these very records. */
  keepPage(entity: string, query: string, page: ListResult, generation: number): void {
    if (this.generation(entity) !== generation || page.items.length > ReadCache.MAX_PAGE) return;
    for (const item of page.items) Object.freeze(item);
    Object.freeze(page.items);
    bounded(this.pages, entity).set(query, Object.freeze(page));
  }

  /** A dashboard figure's groups, the more so worth keeping as they read every matching row. */
  figure(entity: string, query: string): FigureGroup[] | undefined {
    const groups = this.figures.get(entity)?.get(query);
    return groups ? [...groups] : undefined;
  }

  keepFigure(entity: string, query: string, groups: readonly FigureGroup[], generation: number): void {
    if (this.generation(entity) === generation) bounded(this.figures, entity).set(query, [...groups]);
  }

  tableSet(table: string): ReadonlySet<string> | undefined {
    return this.sets.get(table);
  }

  keepTableSet(table: string, values: ReadonlySet<string>, generation: number): void {
    if (this.generation(table) === generation) this.sets.set(table, values);
  }

  /** Something changed the entity's rows (or may have): nothing read of them holds. */
  invalidate(entity: string): void {
    this.generations.set(entity, this.generation(entity) + 1);
    this.sets.delete(entity);
    this.totals.delete(entity);
    this.pages.delete(entity);
    this.figures.delete(entity);
  }

  user(id: string): StoredUser | undefined {
    return this.users.get(id);
  }

  get userGeneration(): number {
    return this.usersGeneration;
  }

  keepUser(user: StoredUser, generation: number): void {
    if (generation !== this.usersGeneration) return;
    if (this.users.size >= ReadCache.MAX_USERS) this.users.clear();
    this.users.set(user.id, user);
  }

  /** A user was made or changed (or may have been). */
  forgetUsers(): void {
    this.usersGeneration++;
    this.users.clear();
  }

  /** Another connection wrote, the schema changed, or writes may have gone unseen: nothing is known. */
  clear(): void {
    const entities = [
      ...this.totals.keys(),
      ...this.pages.keys(),
      ...this.figures.keys(),
      ...this.sets.keys(),
      ...this.generations.keys(),
    ];
    for (const entity of new Set(entities)) this.invalidate(entity);
    this.forgetUsers();
  }
}

function bounded<T>(maps: Map<string, Map<string, T>>, entity: string): Map<string, T> {
  let perEntity = maps.get(entity);
  if (!perEntity || perEntity.size >= ReadCache.MAX_PER_ENTITY) {
    perEntity = new Map();
    maps.set(entity, perEntity);
  }
  return perEntity;
}
