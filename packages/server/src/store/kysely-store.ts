import { randomUUID } from 'node:crypto';
import type { Catalog } from '@ninefold/database';
import {
  type AggregateQuery,
  compositeKeyParts,
  exhaustiveSwitchError,
  type FigureGroup,
  type JsonValue,
  type RecordCondition,
} from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { ensureAuditTable, insertAudit, pruneAudit, selectAudit } from './audit-table';
import { type ConstraintViolation, constraintViolation } from './constraint-violation';
import { ensureCounterTable, takeNumber } from './counter-table';
import type { DialectSql } from './dialect-sql';
import {
  type ExistingFacts,
  hasExistingTables,
  inspectExisting,
  ownedTables,
  rowVersion,
} from './existing-tables';
import { groupKeySql, measureSql } from './figure-sql';
import { ensureFileTable, insertFile, removeFile, selectFile } from './file-table';
import { deleteHistory, ensureHistoryTable, insertHistory, selectHistory } from './history-table';
import {
  claimKey,
  completeKey,
  ensureIdempotencyTable,
  purgeKeys,
  releaseKey,
  releaseUnansweredKeys,
} from './idempotency-table';
import { ensureImportedTable, insertImported, selectImported } from './import-table';
import { deleteLists, joinedLists, readLists, writeLists } from './join-lists';
import { planList } from './list-query';
import { ReadCache } from './read-cache';
import { aggregateSql, columnOf, conditionSql } from './record-condition-sql';
import { type DynamicKysely, schemaLockKey, syncSchema } from './schema-sync';
import type { SharedState } from './shared-state';
import type {
  AuditEntry,
  AuditQuery,
  AuditStamp,
  FigureQuery,
  HistoryEntry,
  IdempotencyClaim,
  IdempotencyEntry,
  ListQuery,
  ListResult,
  MigrationResult,
  NewAuditEntry,
  NewFile,
  NewUser,
  PoolStats,
  Readiness,
  RecordKey,
  Store,
  StoredAnswer,
  StoredFile,
  StoredRecord,
  StoredUser,
  UserLink,
  UserLookup,
  UserPatch,
  VersionedRecord,
  WriteFailure,
  WriteResult,
} from './store';
import {
  AUDIT_TABLE,
  columnName,
  fnv1a,
  type PlannedColumn,
  type PlannedTable,
  type TablePlan,
  TOTAL_COLUMN,
} from './table-plan';
import {
  countUsers,
  ensureUserTable,
  insertUser,
  insertUserLink,
  redeemUserLink,
  selectUser,
  selectUsers,
  updateUser,
  updateUserSecrets,
} from './user-table';
import { ValueCodec } from './value-codec';

/** What a store and the stores bound to its transactions share. */
export interface StoreContext {
  sql: DialectSql;
  plan: TablePlan;
  /** Called after a migration changed the schema (prepared statements are forgotten). */
  schemaChanged(): void;
  /**
   * What the store remembers of its reads (see `ReadCache`); present only where every other writer's
   * change can be learnt: SQLite's `data_version`, PostgreSQL's notifications.
   */
  cache?: ReadCache;
  /**
   * Whether the cache may be used now; it first forgets what other writers changed. False while changes
   * could go unseen (PostgreSQL's listener is not connected).
   */
  cacheCurrent?: () => boolean;
  /** Called once tables were made or changed (the write listener watches every table). */
  tablesChanged?: () => Promise<void>;
  /** Called when the store closes, before its database. */
  close?: () => Promise<void>;
  /** This node's holder number while it holds its lock of life (PostgreSQL; see `claimKey`). */
  holder?: () => number | undefined;
  /** What every node of this database shares (see `SharedState`). */
  shared: SharedState;
  /** Reads the database's catalog, for the team's tables the model names (`Table:`). */
  readCatalog?: () => Promise<{ catalog: Catalog; defaultSchema: string }>;
  /** What the catalog said of each of those tables, once `migrate` has read it. */
  existing?: Map<string, ExistingFacts>;
  /** Set once `migrate` brought the tables in line: until then the node is not ready. */
  migrated?: boolean;
  /** The PostgreSQL pool's connections now. */
  poolStats?: () => PoolStats;
}

type Row = Record<string, unknown>;

const fileTables = new WeakMap<StoreContext, Promise<void>>();
const userTables = new WeakMap<StoreContext, Promise<void>>();
const madeUserTables = new WeakSet<StoreContext>();
const historyTables = new WeakMap<StoreContext, Promise<void>>();
const auditTables = new WeakMap<StoreContext, Promise<void>>();
const idempotencyTables = new WeakMap<StoreContext, Promise<void>>();
const counterTables = new WeakMap<StoreContext, Promise<void>>();
const importedTables = new WeakMap<StoreContext, Promise<void>>();
/** When expired idempotency keys were last swept, per database. */
const lastPurges = new WeakMap<StoreContext, number>();
/** Expired keys are swept at most this often; until then a claim takes over an expired key by itself. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** A readiness probe waits this long for the database: a probe that hangs tells the balancer nothing. */
const READINESS_BOUND_MS = 2000;

/** `existing` asks for keys in chunks, well below both dialects' limits on bound parameters. */
const KEYS_PER_QUERY = 500;

/**
 * The store on Kysely, for SQLite and PostgreSQL alike. Every query is built with Kysely's `sql` tag:
 * identifiers are quoted with `sql.id`, values are bound parameters. Created by `openStore`.
 */
export class KyselyStore implements Store {
  readonly dialect: 'sqlite' | 'postgres';
  private readonly codec: ValueCodec;
  private readonly tables: Map<string, PlannedTable>;
  /** The entities written in this transaction, forgotten again by the cache when it ends. */
  private readonly written = new Set<string>();
  /** Serializes savepoint-guarded writes: savepoints of interleaved writes would undo each other. */
  private savepointQueue: Promise<unknown> = Promise.resolve();

  /** What every node of this database shares: secrets, signed-out tokens, throttle counts, events. */
  get shared(): SharedState {
    return this.context.shared;
  }

  constructor(
    private readonly context: StoreContext,
    /** The database, or the connection of the transaction this store is bound to. */
    readonly kysely: DynamicKysely,
    private readonly inTransaction = false,
  ) {
    this.dialect = context.sql.name;
    this.codec = new ValueCodec(this.dialect);
    this.tables = new Map(context.plan.tables.map((table) => [table.name, table]));
  }

  versionAfterWrite(entity: string, record: StoredRecord, previous: number | undefined): number {
    return this.table(entity).existing ? rowVersion(record) : (previous ?? 0) + 1;
  }

  async migrate(options: { allowDestructive: boolean }): Promise<MigrationResult> {
    if (this.inTransaction) throw new Error('migrate runs its own transaction: call it on the store itself');
    // The team's tables are checked, never changed: a mapping that does not match stops the start here.
    if (this.context.readCatalog && hasExistingTables(this.context.plan)) {
      const { catalog, defaultSchema } = await this.context.readCatalog();
      this.context.existing = inspectExisting(this.context.plan, catalog, defaultSchema);
    }
    const result = await syncSchema(
      this.kysely,
      this.context.sql,
      ownedTables(this.context.plan),
      options.allowDestructive,
    );
    if (result.ok && result.applied.length > 0) {
      this.context.schemaChanged();
      this.context.cache?.clear();
    }
    if (result.ok) {
      await this.context.tablesChanged?.();
      // Made here, outside any transaction: every audited write appends in one, where a table not yet
      // known to exist is made again each time (ownTable).
      await this.ownTable(auditTables, ensureAuditTable);
      this.context.migrated = true;
    }
    return result;
  }

  async readiness(): Promise<Readiness> {
    if (!this.context.migrated) return { ready: false, reason: 'The tables are not yet migrated.' };
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${READINESS_BOUND_MS} ms`)),
        READINESS_BOUND_MS,
      );
    });
    try {
      await Promise.race([sql`SELECT 1`.execute(this.kysely), bound]);
      return { ready: true };
    } catch (error) {
      return { ready: false, reason: `The database does not answer: ${(error as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
  }

  poolStats(): PoolStats | undefined {
    return this.context.poolStats?.();
  }

  async list(entity: string, query: ListQuery): Promise<ListResult> {
    const table = this.table(entity);
    // A page remembered is answered before any SQL is built: that is the point of remembering it.
    const cache = this.currentCache(table);
    const pageKey = cache && query.limit <= ReadCache.MAX_PAGE ? JSON.stringify(query) : undefined;
    const remembered = pageKey === undefined ? undefined : cache?.page(entity, pageKey);
    if (remembered) return remembered;

    const plan = planList(this.context.sql, this.codec, table, query);
    const where = (conditions: RawBuilder<unknown>[]) =>
      conditions.length === 0 ? sql`` : sql`WHERE ${sql.join(conditions, sql` AND `)}`;
    const filtered = where(plan.filters);
    const totalKey = JSON.stringify(
      query.where || query.search
        ? [query.filters, query.where ?? null, query.search ?? null]
        : query.filters,
    );
    // A team's table on PostgreSQL keeps no page, but its total is remembered until a write is seen (ours,
    // or another program's, which the watcher of outside writes tells within about a second): counting a
    // million rows for every page cost 27 ms of a 28 ms page.
    const totals = cache ?? this.teamTotals(table);
    let total = query.withTotal ? totals?.total(entity, totalKey) : undefined;
    // A total not remembered is counted by the page's first query, in a subquery the database runs once:
    // one round trip instead of two.
    const counting = query.withTotal === true && total === undefined;
    const generation = totals?.generation(entity) ?? 0;

    // One row more than asked tells whether more follow.
    const wanted = plan.limit + 1;
    const items: StoredRecord[] = [];
    for (const [index, phase] of plan.phases.entries()) {
      if (items.length >= wanted) break;
      const offset = plan.offset > 0 ? sql` OFFSET ${plan.offset}` : sql``;
      const withCount = counting && index === 0;
      const count = withCount
        ? sql`, (SELECT COUNT(*) FROM ${this.ref(table)} ${filtered}) AS ${sql.id(TOTAL_COLUMN)}`
        : sql``;
      const result = await sql<Row>`
        SELECT ${this.columns(table)}${count} FROM ${this.ref(table)} ${where([...plan.filters, ...phase])}
        ORDER BY ${plan.orderBy} LIMIT ${wanted - items.length}${offset}
      `.execute(this.kysely);
      const first = result.rows[0];
      if (withCount && first) total = Number(first[TOTAL_COLUMN]);
      for (const row of result.rows) items.push(this.codec.read(table, row));
    }
    if (counting) {
      // No row came back to carry the count (a page past the end): it is asked on its own.
      total ??= await this.count(table, filtered);
      totals?.keepTotal(entity, totalKey, total, generation);
    }

    const more = items.length > plan.limit;
    const shown = more ? items.slice(0, plan.limit) : items;
    await this.fillLists(table, shown);
    const last = shown.at(-1);
    const result: ListResult = { items: shown };
    if (total !== undefined) result.total = total;
    if (more && last) result.nextCursor = plan.cursorAfter(last);
    if (pageKey !== undefined) cache?.keepPage(entity, pageKey, result, generation);
    return result;
  }

  private async count(table: PlannedTable, where: RawBuilder<unknown>): Promise<number> {
    const result = await sql<{ count: number | string }>`
      SELECT COUNT(*) AS "count" FROM ${this.ref(table)} ${where}
    `.execute(this.kysely);
    return Number(result.rows[0]?.count ?? 0);
  }

  /** Where a team's table's totals are remembered (see `list`); never inside a transaction. */
  private teamTotals(table: PlannedTable): ReadCache | undefined {
    return table.existing && !this.inTransaction ? this.context.cache : undefined;
  }

  /**
   * The cache, when this store may use it now: never inside a transaction, which may see its own writes,
   * nor for a team's table on PostgreSQL, whose writers no trigger of ours tells of (SQLite's
   * `data_version` sees every writer's commit).
   */
  private currentCache(table?: PlannedTable): ReadCache | undefined {
    if (this.inTransaction || !this.context.cache) return undefined;
    if (table?.existing && this.dialect === 'postgres') return undefined;
    return (this.context.cacheCurrent?.() ?? true) ? this.context.cache : undefined;
  }

  /**
   * Runs a write to an entity's rows. What was read of them is forgotten before the write, so no reader
   * keeps what it read under the old generation, and again once the write is committed (at the end of
   * its transaction, when it runs in one): until then other connections still read the old rows, and a
   * reader in between would keep those.
   */
  private async writing<T>(entity: string, work: () => Promise<T>): Promise<T> {
    this.context.cache?.invalidate(entity);
    if (this.inTransaction) {
      this.written.add(entity);
      return work();
    }
    try {
      return await work();
    } finally {
      this.context.cache?.invalidate(entity);
    }
  }

  async get(entity: string, key: RecordKey, options?: { lock?: boolean }): Promise<StoredRecord | undefined> {
    const table = this.table(entity);
    const value = this.keyValue(table, key);
    if (value === undefined) return undefined;
    const lock =
      options?.lock && this.inTransaction && this.dialect === 'postgres' ? sql` FOR UPDATE` : sql``;
    const result = await sql<Row>`
      SELECT ${this.columns(table)} FROM ${this.ref(table)} WHERE ${this.keyIs(table, value)}${lock}
    `.execute(this.kysely);
    const row = result.rows[0];
    if (!row) return undefined;
    const record = this.codec.read(table, row);
    await this.fillLists(table, [record]);
    return record;
  }

  async getVersioned(entity: string, key: RecordKey): Promise<VersionedRecord | undefined> {
    const table = this.table(entity);
    const value = this.keyValue(table, key);
    if (value === undefined) return undefined;
    if (table.existing) {
      const record = await this.get(entity, key);
      return record ? { record, version: rowVersion(record) } : undefined;
    }
    const result = await sql<Row>`
      SELECT ${this.columns(table)}, "_version" FROM ${this.ref(table)} WHERE ${this.keyIs(table, value)}
    `.execute(this.kysely);
    const row = result.rows[0];
    return row ? { record: this.codec.read(table, row), version: Number(row._version) } : undefined;
  }

  async existing(entity: string, keys: RecordKey[]): Promise<Set<string>> {
    const table = this.table(entity);
    if (table.key.parts) return this.existingComposite(table, keys);
    const column = this.keyColumn(table);
    const values = [
      ...new Set(keys.map((key) => this.keyValue(table, key)).filter((key) => key !== undefined)),
    ];
    const found = new Set<string>();
    for (let start = 0; start < values.length; start += KEYS_PER_QUERY) {
      const chunk = values.slice(start, start + KEYS_PER_QUERY);
      const result = await sql<Row>`
        SELECT ${sql.id(columnName(column))} AS "key" FROM ${this.ref(table)} WHERE ${sql.id(columnName(column))} IN (${sql.join(chunk)})
      `.execute(this.kysely);
      for (const row of result.rows) found.add(String(this.codec.readValue(column, row.key)));
    }
    return found;
  }

  private async existingComposite(table: PlannedTable, keys: RecordKey[]): Promise<Set<string>> {
    const values = [...new Set(keys.map(String))]
      .map((key) => this.keyValue(table, key))
      .filter((value) => value !== undefined);
    const found = new Set<string>();
    for (let start = 0; start < values.length; start += KEYS_PER_QUERY) {
      const chunk = values.slice(start, start + KEYS_PER_QUERY);
      const result = await sql<Row>`
        SELECT ${this.columns(table)} FROM ${this.ref(table)}
        WHERE ${sql.join(
          chunk.map((value) => this.keyIs(table, value)),
          sql` OR `,
        )}
      `.execute(this.kysely);
      for (const row of result.rows) found.add(String(this.codec.read(table, row)[table.key.column]));
    }
    return found;
  }

  async referenced(
    entity: string,
    field: string,
    keys: RecordKey[],
    where?: RecordCondition,
  ): Promise<Set<string>> {
    const table = this.table(entity);
    const column = table.columns.find((candidate) => candidate.name === field);
    if (!column || column.type === 'json')
      throw new Error(`"${entity}"."${field}" is no column of one value`);
    const values = [
      ...new Set(keys.map((key) => this.codec.key(column, key)).filter((key) => key !== undefined)),
    ];
    const condition = where ? sql` AND ${conditionSql(this.codec, table, where)}` : sql``;
    const found = new Set<string>();
    for (let start = 0; start < values.length; start += KEYS_PER_QUERY) {
      const chunk = values.slice(start, start + KEYS_PER_QUERY);
      const result = await sql<Row>`
        SELECT DISTINCT ${sql.id(columnName(column))} AS "key" FROM ${this.ref(table)}
        WHERE ${sql.id(columnName(column))} IN (${sql.join(chunk)})${condition}
      `.execute(this.kysely);
      for (const row of result.rows) found.add(String(this.codec.readValue(column, row.key)));
    }
    return found;
  }

  create(entity: string, values: StoredRecord): Promise<WriteResult<StoredRecord>> {
    return this.writing(entity, () => this.createRow(entity, values));
  }

  async createAudited(
    entity: string,
    values: StoredRecord,
    stamp: AuditStamp,
  ): Promise<WriteResult<StoredRecord>> {
    const table = this.table(entity);
    // A transaction's BEGIN, second insert and COMMIT are three more round trips on PostgreSQL, where a
    // create is otherwise one: a statement whose insert feeds the entry's keeps it one (bench/audit.ts).
    const oneStatement =
      this.dialect === 'postgres' &&
      !table.existing &&
      this.lists(table).length === 0 &&
      !table.columns.some((column) => column.composite);
    if (oneStatement) {
      await this.ownTable(auditTables, ensureAuditTable);
      return this.writing(entity, () => this.createRow(entity, values, stamp));
    }
    return this.transaction(async (tx) => {
      const result = await tx.create(entity, values);
      if (result.ok) {
        await tx.appendAudit([
          {
            ...stamp,
            entity,
            key: String(result.value[table.key.column]),
            action: 'create',
            before: null,
            after: result.value,
          },
        ]);
      }
      return result;
    });
  }

  private async createRow(
    entity: string,
    values: StoredRecord,
    stamp?: AuditStamp,
  ): Promise<WriteResult<StoredRecord>> {
    const table = this.table(entity);
    // The row and its lists' rows in join tables are one write.
    const lists = this.lists(table);
    if (lists.length > 0 && !this.inTransaction) {
      return this.transaction((store) => (store as KyselyStore).createRow(entity, values));
    }
    this.checkFields(table, values, 'create');
    const row = new Map<string, unknown>();
    for (const column of stored(table)) {
      const value = values[column.name];
      if (value !== undefined && value !== null) row.set(column.name, this.bind(table, column, value));
    }
    if (!row.has(table.key.column)) {
      if (table.key.generate === 'uuid') row.set(table.key.column, randomUUID());
      else if (table.key.generate === 'none') {
        throw new Error(`Create "${table.name}": its key "${table.key.column}" is required`);
      }
    }
    const now = new Date().toISOString();
    const names = [...row.keys()].map((name) => sql.id(this.columnNamed(table, name)));
    const bound = [...row.values()];
    if (!table.existing) {
      names.push(sql.id('_version'), sql.id('_created_at'), sql.id('_updated_at'));
      bound.push(1, now, now);
    }
    // The team's table may fill any column itself (defaults, triggers): RETURNING reads what it stored.
    // Its own constraints (CHECKs, NOT NULL) can fail the insert too, so it is not left to ON CONFLICT.
    const inserting = sql<Row>`
      INSERT INTO ${this.ref(table)} ${names.length === 0 ? sql`DEFAULT VALUES` : sql`(${sql.join(names)}) VALUES (${sql.join(bound)})`}
      ${this.dialect === 'postgres' && !table.existing ? sql`ON CONFLICT DO NOTHING` : sql``}
      RETURNING ${this.columns(table)}
    `;
    // The entry keeps the row as returned, as JSON; `auditEntries` reads it as any row is read.
    const insert = stamp
      ? sql<Row>`
          WITH "created" AS (${inserting}), "logged" AS (
            INSERT INTO ${this.context.sql.tableRef(AUDIT_TABLE)}
              ("at", "entity", "record_key", "action", "call", "user_id", "user_name", "before", "after")
            SELECT ${stamp.at}, ${entity}, "created".${sql.id(table.key.column)}::text, 'create', ${stamp.call},
              ${stamp.by?.id ?? null}, ${stamp.by?.name ?? null}, NULL, to_jsonb("created")::text
            FROM "created"
          )
          SELECT * FROM "created"`
      : inserting;
    let inserted: Row | undefined;
    try {
      inserted = await this.guarded(
        table.existing !== undefined,
        async () => (await insert.execute(this.kysely)).rows[0],
      );
    } catch (error) {
      const violation = this.violation(table, error);
      if (violation && violation.kind !== 'foreign-key') return fail(violationFailure(entity, violation));
      throw error;
    }
    if (!inserted) {
      // PostgreSQL: ON CONFLICT DO NOTHING keeps a transaction usable after a duplicate (an error would
      // abort it); the conflicting field is then looked up.
      return fail({ kind: 'unique', entity, field: await this.conflictingField(table, row) });
    }
    // A team's table may have triggers that change the row after the insert (SQLite's RETURNING does not
    // see an AFTER trigger's change): it is read again as stored.
    if (table.existing) {
      const stored = this.codec.read(table, inserted);
      await writeLists(
        this.kysely,
        lists,
        this.keyValue(table, stored[table.key.column] as RecordKey),
        values,
      );
      const again = await this.get(entity, stored[table.key.column] as RecordKey);
      return { ok: true, value: again ?? stored };
    }
    const key = row.get(table.key.column);
    if (this.dialect === 'postgres' && table.key.generate === 'identity' && key !== undefined) {
      await this.advanceIdentity(table, key);
    }
    return { ok: true, value: this.codec.read(table, inserted) };
  }

  update(
    entity: string,
    key: RecordKey,
    values: StoredRecord,
    expectedVersion?: number,
  ): Promise<WriteResult<StoredRecord>> {
    return this.writing(entity, () => this.updateRow(entity, key, values, expectedVersion));
  }

  private async updateRow(
    entity: string,
    key: RecordKey,
    values: StoredRecord,
    expectedVersion?: number,
  ): Promise<WriteResult<StoredRecord>> {
    const table = this.table(entity);
    this.checkFields(table, values, 'update');
    const keyValue = this.keyValue(table, key);
    if (keyValue === undefined) return fail({ kind: 'not-found', entity });
    const sets: RawBuilder<unknown>[] = [];
    const unique = new Set(table.indexes.filter((index) => index.unique).map((index) => index.columns[0]));
    // The team's table has constraints of its own that any column may break.
    let touchesUnique = table.existing !== undefined;
    for (const column of table.columns) {
      const value = values[column.name];
      // A list kept in a join table is written there (`updateExisting`).
      if (value === undefined || column.through) continue;
      if (column.name === table.key.column) {
        if (table.key.parts && value === key) continue;
        if (value !== null && this.codec.key(column, value as RecordKey) === keyValue) continue;
        throw new Error(`Update "${table.name}": its key "${column.name}" cannot change`);
      }
      if (unique.has(column.name)) touchesUnique = true;
      const bound = value === null ? null : this.bind(table, column, value);
      sets.push(sql`${sql.id(columnName(column))} = ${bound}`);
    }
    if (table.existing) return this.updateExisting(table, keyValue, sets, values, expectedVersion);
    sets.push(sql`"_version" = "_version" + 1`, sql`"_updated_at" = ${new Date().toISOString()}`);
    const versionCheck = expectedVersion === undefined ? sql`` : sql` AND "_version" = ${expectedVersion}`;
    const statement = sql<Row>`
      UPDATE ${this.ref(table)} SET ${sql.join(sets)}
      WHERE ${this.keyIs(table, keyValue)}${versionCheck}
      RETURNING ${this.columns(table)}
    `;
    let updated: Row | undefined;
    try {
      updated = await this.guarded(touchesUnique, async () => (await statement.execute(this.kysely)).rows[0]);
    } catch (error) {
      const violation = this.violation(table, error);
      if (violation && violation.kind !== 'foreign-key') return fail(violationFailure(entity, violation));
      throw error;
    }
    if (updated) return { ok: true, value: this.codec.read(table, updated) };
    const current = await this.version(entity, key);
    if (current === undefined) return fail({ kind: 'not-found', entity });
    return fail({ kind: 'version-mismatch', entity, current });
  }

  async delete(entity: string, key: RecordKey): Promise<WriteResult<true>> {
    await this.historyTable();
    return this.transaction(async (store) => {
      const self = store as KyselyStore;
      const result = await self.deleteRow(entity, key);
      if (result.ok) {
        const keyValue = self.keyText(self.table(entity), key);
        await deleteHistory(self.kysely, self.context.sql, entity, keyValue as RecordKey);
      }
      return result;
    });
  }

  private deleteRow(entity: string, key: RecordKey): Promise<WriteResult<true>> {
    return this.writing(entity, () => this.deleteOneRow(entity, key));
  }

  private async deleteOneRow(entity: string, key: RecordKey): Promise<WriteResult<true>> {
    const table = this.table(entity);
    const keyValue = this.keyValue(table, key);
    if (keyValue === undefined) return fail({ kind: 'not-found', entity });
    const referrers = this.referrers(table);
    const lists = this.lists(table);
    const remove = () =>
      this.guarded(referrers.length > 0 || table.existing !== undefined, async () => {
        // A record's lists are part of it: their rows in join tables go first, and come back with it
        // when the database refuses the delete (the savepoint below).
        await deleteLists(this.kysely, lists, keyValue);
        const result = await sql<Row>`
          DELETE FROM ${this.ref(table)} WHERE ${this.keyIs(table, keyValue)}
          RETURNING 1 AS "deleted"
        `.execute(this.kysely);
        return result.rows.length;
      });
    let deleted: number;
    try {
      deleted = lists.length > 0 && this.inTransaction ? await this.savepoint(remove) : await remove();
    } catch (error) {
      const violation = this.violation(table, error);
      if (violation?.kind !== 'foreign-key') throw error;
      const by = violation.by ?? (await this.referrer(table, keyValue));
      return fail({ kind: 'referenced', entity, by });
    }
    return deleted === 0 ? fail({ kind: 'not-found', entity }) : { ok: true, value: true };
  }

  async version(entity: string, key: RecordKey): Promise<number | undefined> {
    const table = this.table(entity);
    const value = this.keyValue(table, key);
    if (value === undefined) return undefined;
    if (table.existing) {
      const record = await this.get(entity, key);
      return record ? rowVersion(record) : undefined;
    }
    const result = await sql<{ version: number | string }>`
      SELECT "_version" AS "version" FROM ${this.ref(table)} WHERE ${this.keyIs(table, value)}
    `.execute(this.kysely);
    const version = result.rows[0]?.version;
    return version === undefined ? undefined : Number(version);
  }

  async applyTransition(
    entity: string,
    key: RecordKey,
    values: StoredRecord,
    expectedVersion: number | undefined,
    entry: HistoryEntry,
  ): Promise<WriteResult<StoredRecord>> {
    await this.historyTable();
    return this.transaction(async (store) => {
      const self = store as KyselyStore;
      const updated = await self.update(entity, key, values, expectedVersion);
      if (updated.ok) {
        const keyValue = self.keyText(self.table(entity), key);
        await insertHistory(self.kysely, self.context.sql, entity, keyValue as RecordKey, entry);
      }
      return updated;
    });
  }

  async aggregate(query: AggregateQuery): Promise<JsonValue> {
    const table = this.table(query.entity);
    const where = conditionSql(this.codec, table, query.where);
    const limit = query.fn === 'exists' ? sql` LIMIT 1` : sql``;
    const result = await sql<{ value: unknown }>`
      SELECT ${aggregateSql(table, query)} FROM ${this.ref(table)} WHERE ${where}${limit}
    `.execute(this.kysely);
    const value = result.rows[0]?.value;
    switch (query.fn) {
      case 'exists':
        return result.rows.length > 0;
      case 'count':
      case 'sum':
        // PostgreSQL answers COUNT and SUM of integers as bigint text.
        return Number(value ?? 0);
      default: {
        if (value === null || value === undefined) return null;
        const column = table.columns.find((candidate) => candidate.name === query.field);
        return column ? this.codec.readValue(column, value) : (value as JsonValue);
      }
    }
  }

  async figureGroups(query: FigureQuery): Promise<FigureGroup[]> {
    const table = this.table(query.entity);
    const cache = this.currentCache(table);
    const key = JSON.stringify(query);
    const remembered = cache?.figure(query.entity, key);
    if (remembered) return remembered;
    const generation = cache?.generation(query.entity) ?? 0;
    const group = groupKeySql(this.dialect, table, query.by, query.per);
    // Without groups, no GROUP BY: SQLite sorted a million rows by a constant otherwise.
    const grouped = query.by === undefined ? sql`` : sql` GROUP BY 1`;
    const result = await sql<{ key: unknown; value: unknown }>`
      SELECT ${group} AS "key", ${measureSql(table, query.measure, query.field)} AS "value"
      FROM ${this.ref(table)} WHERE ${conditionSql(this.codec, table, query.where)}${grouped}
    `.execute(this.kysely);
    const column = query.by === undefined || query.per !== undefined ? undefined : columnOf(table, query.by);
    const groups = result.rows.map((row) => ({
      key:
        row.key === null || row.key === undefined
          ? null
          : column
            ? this.codec.readValue(column, row.key)
            : String(row.key),
      // PostgreSQL answers COUNT as bigint text and SUM and AVG of reals as numeric text.
      value: row.value === null || row.value === undefined ? null : Number(row.value),
    }));
    cache?.keepFigure(query.entity, key, groups, generation);
    return groups;
  }

  change(
    entity: string,
    key: RecordKey,
    field: string,
    op: '=' | '+=' | '-=',
    value: JsonValue,
  ): Promise<StoredRecord | undefined> {
    return this.writing(entity, () => this.changeRow(entity, key, field, op, value));
  }

  private async changeRow(
    entity: string,
    key: RecordKey,
    field: string,
    op: '=' | '+=' | '-=',
    value: JsonValue,
  ): Promise<StoredRecord | undefined> {
    const table = this.table(entity);
    const column = table.columns.find((candidate) => candidate.name === field);
    if (!column || column.name === table.key.column) throw new Error(`Cannot change "${entity}"."${field}"`);
    const keyValue = this.keyValue(table, key);
    if (keyValue === undefined) return undefined;
    const name = sql.id(columnName(column));
    const bound = value === null ? null : this.bind(table, column, value);
    const next =
      op === '=' ? sql`${bound}` : sql`COALESCE(${name}, 0) ${sql.raw(op === '+=' ? '+' : '-')} ${bound}`;
    const meta = table.existing
      ? sql``
      : sql`, "_version" = "_version" + 1, "_updated_at" = ${new Date().toISOString()}`;
    const result = await sql<Row>`
      UPDATE ${this.ref(table)}
      SET ${name} = ${next}${meta}
      WHERE ${this.keyIs(table, keyValue)}
      RETURNING ${this.columns(table)}
    `.execute(this.kysely);
    const row = result.rows[0];
    return row ? this.codec.read(table, row) : undefined;
  }

  async lockForRules(entities: string[]): Promise<void> {
    if (!this.inTransaction) throw new Error('lockForRules holds until the transaction ends: call it in one');
    if (this.dialect !== 'postgres') return;
    // In one order everywhere, so that two writers locking two entities cannot wait on each other.
    for (const entity of [...new Set(entities)].sort()) {
      const name = `ninefold-rules:${this.context.sql.schema}:${entity}`;
      await sql`SELECT pg_advisory_xact_lock(${fnv1a(name) | 0})`.execute(this.kysely);
    }
  }

  async lockSchema(): Promise<void> {
    if (!this.inTransaction) throw new Error('lockSchema holds until the transaction ends: call it in one');
    if (this.dialect !== 'postgres') return;
    await sql`SELECT pg_advisory_xact_lock(${schemaLockKey(this.context.sql.schema)})`.execute(this.kysely);
  }

  async nextNumber(entity: string, field: string): Promise<number> {
    if (!this.inTransaction)
      throw new Error('nextNumber gives a number back on rollback: call it in a transaction');
    await this.ownTable(counterTables, ensureCounterTable);
    return takeNumber(this.kysely, this.context.sql, entity, field);
  }

  async importedBefore(entity: string, hashes: readonly string[]): Promise<Map<string, string>> {
    if (hashes.length === 0) return new Map();
    await this.ownTable(importedTables, ensureImportedTable);
    return selectImported(this.kysely, this.context.sql, entity, hashes);
  }

  async rememberImported(entity: string, made: ReadonlyArray<{ hash: string; key: string }>): Promise<void> {
    if (made.length === 0) return;
    await this.ownTable(importedTables, ensureImportedTable);
    await insertImported(this.kysely, this.context.sql, entity, made);
  }

  async history(entity: string, key: RecordKey): Promise<HistoryEntry[]> {
    await this.historyTable();
    const keyValue = this.keyText(this.table(entity), key);
    if (keyValue === undefined) return [];
    return selectHistory(this.kysely, this.context.sql, entity, keyValue as RecordKey);
  }

  async addHistory(entity: string, key: RecordKey, entries: HistoryEntry[]): Promise<void> {
    await this.historyTable();
    const keyValue = this.keyText(this.table(entity), key);
    if (keyValue === undefined) return;
    for (const entry of entries) {
      await insertHistory(this.kysely, this.context.sql, entity, keyValue as RecordKey, entry);
    }
  }

  private historyTable(): Promise<void> {
    return this.ownTable(historyTables, ensureHistoryTable);
  }

  async appendAudit(entries: readonly NewAuditEntry[]): Promise<void> {
    await this.ownTable(auditTables, ensureAuditTable);
    await insertAudit(this.kysely, this.context.sql, entries);
  }

  async auditEntries(query: AuditQuery): Promise<AuditEntry[]> {
    await this.ownTable(auditTables, ensureAuditTable);
    const entries = await selectAudit(this.kysely, this.context.sql, query);
    if (this.dialect !== 'postgres') return entries;
    // A create's entry made in its own statement keeps the row as PostgreSQL returned it; reading a
    // record again is a no-op, so every entry of an entity still stored is read as its rows are.
    return entries.map((entry) => {
      const table = this.tables.get(entry.entity);
      if (!table) return entry;
      return {
        ...entry,
        before: entry.before && this.codec.read(table, entry.before),
        after: entry.after && this.codec.read(table, entry.after),
      };
    });
  }

  async pruneAudit(at: string): Promise<number> {
    await this.ownTable(auditTables, ensureAuditTable);
    return pruneAudit(this.kysely, this.context.sql, at);
  }

  async claimIdempotencyKey(claim: IdempotencyClaim): Promise<'claimed' | IdempotencyEntry> {
    await this.ownTable(idempotencyTables, ensureIdempotencyTable);
    const last = lastPurges.get(this.context);
    if (last === undefined || claim.now - last >= PURGE_INTERVAL_MS || claim.now < last) {
      lastPurges.set(this.context, claim.now);
      await purgeKeys(this.kysely, this.context.sql, claim.now);
    }
    return claimKey(this.kysely, this.context.sql, { ...claim, holder: this.context.holder?.() });
  }

  async completeIdempotencyKey(id: string, token: string, answer: StoredAnswer): Promise<boolean> {
    await this.ownTable(idempotencyTables, ensureIdempotencyTable);
    return completeKey(this.kysely, this.context.sql, id, token, answer);
  }

  async releaseUnansweredIdempotencyKeys(): Promise<number> {
    await this.ownTable(idempotencyTables, ensureIdempotencyTable);
    return releaseUnansweredKeys(this.kysely, this.context.sql);
  }

  async releaseIdempotencyKey(id: string, token: string): Promise<void> {
    await this.ownTable(idempotencyTables, ensureIdempotencyTable);
    await releaseKey(this.kysely, this.context.sql, id, token);
  }

  /**
   * One of the store's own tables, made on first use, once per database (shared with transactions'
   * stores). Inside a transaction the table made could be rolled back with it: it is made there only
   * when not known to exist, and not remembered.
   */
  private ownTable(
    made: WeakMap<StoreContext, Promise<void>>,
    ensure: (db: DynamicKysely, dialect: DialectSql, inTransaction: boolean) => Promise<void>,
  ): Promise<void> {
    let ready = made.get(this.context);
    if (this.inTransaction) return ready ?? ensure(this.kysely, this.context.sql, true);
    if (!ready) {
      ready = ensure(this.kysely, this.context.sql, false);
      made.set(this.context, ready);
      // A failure (a dropped connection) is not remembered: the next use tries again.
      ready.catch(() => made.delete(this.context));
    }
    return ready;
  }

  async putFile(file: NewFile): Promise<string> {
    await this.fileTable();
    const id = randomUUID();
    await insertFile(this.kysely, this.context.sql, id, file);
    return id;
  }

  async getFile(id: string): Promise<StoredFile | undefined> {
    await this.fileTable();
    return selectFile(this.kysely, this.context.sql, id);
  }

  async deleteFile(id: string): Promise<void> {
    await this.fileTable();
    await removeFile(this.kysely, this.context.sql, id);
  }

  /** The files table is made on first use, once per database (shared with transactions' stores). */
  private fileTable(): Promise<void> {
    // Inside a transaction the table made could be rolled back with it: nothing is remembered there.
    if (this.inTransaction) return ensureFileTable(this.kysely, this.context.sql, true);
    let ready = fileTables.get(this.context);
    if (!ready) {
      ready = ensureFileTable(this.kysely, this.context.sql, this.inTransaction);
      fileTables.set(this.context, ready);
      // A failure (a dropped connection) is not remembered: the next upload tries again.
      ready.catch(() => fileTables.delete(this.context));
    }
    return ready;
  }

  async createUser(user: NewUser): Promise<StoredUser | 'exists'> {
    await this.userTable();
    this.context.cache?.forgetUsers();
    try {
      return await insertUser(this.kysely, this.context.sql, randomUUID(), user);
    } finally {
      this.context.cache?.forgetUsers();
    }
  }

  async findUser(by: UserLookup): Promise<StoredUser | undefined> {
    await this.userTable();
    const cache = 'id' in by ? this.currentCache() : undefined;
    if (!cache || !('id' in by)) return selectUser(this.kysely, this.context.sql, by);
    const known = cache.user(by.id);
    if (known) return known;
    const generation = cache.userGeneration;
    const found = await selectUser(this.kysely, this.context.sql, by);
    // Only those found: a missing id is rare (a removed account) and must not fill memory.
    if (found) cache.keepUser(found, generation);
    return found;
  }

  async countUsers(): Promise<number> {
    await this.userTable();
    return countUsers(this.kysely, this.context.sql);
  }

  async setUserSecrets(id: string, secrets: Pick<NewUser, 'passwordHash' | 'apiKeyHash'>): Promise<void> {
    await this.userTable();
    this.context.cache?.forgetUsers();
    try {
      await updateUserSecrets(this.kysely, this.context.sql, id, secrets);
    } finally {
      this.context.cache?.forgetUsers();
    }
  }

  async listUsers(limit: number): Promise<StoredUser[]> {
    await this.userTable();
    return selectUsers(this.kysely, this.context.sql, limit);
  }

  async updateUser(id: string, patch: UserPatch): Promise<StoredUser | undefined> {
    await this.userTable();
    this.context.cache?.forgetUsers();
    try {
      return await updateUser(this.kysely, this.context.sql, id, patch);
    } finally {
      this.context.cache?.forgetUsers();
    }
  }

  async addUserLink(link: UserLink): Promise<void> {
    await this.userTable();
    await insertUserLink(this.kysely, this.context.sql, link);
  }

  async redeemUserLink(tokenHash: string, now: string) {
    await this.userTable();
    return redeemUserLink(this.kysely, this.context.sql, tokenHash, now);
  }

  /** Like the files table: made on first use, once per database. */
  private userTable(): Promise<void> {
    // Made already (the usual case): a transaction need not ask the database again at each call. One
    // still being made outside is not waited for: on SQLite it would wait for the transaction's connection.
    if (this.inTransaction) {
      return madeUserTables.has(this.context)
        ? Promise.resolve()
        : ensureUserTable(this.kysely, this.context.sql, true);
    }
    let ready = userTables.get(this.context);
    if (!ready) {
      ready = ensureUserTable(this.kysely, this.context.sql, false).then(() => {
        madeUserTables.add(this.context);
        this.context.tablesChanged?.();
      });
      userTables.set(this.context, ready);
      ready.catch(() => userTables.delete(this.context));
    }
    return ready;
  }

  async transaction<T>(work: (store: Store) => Promise<T>): Promise<T> {
    // Already in one: the work joins it (nested transactions are flattened).
    if (this.inTransaction) return work(this);
    const forgetWritten = (store: KyselyStore) => {
      for (const entity of store.written) this.context.cache?.invalidate(entity);
    };
    if (this.dialect === 'postgres') {
      let inner: KyselyStore | undefined;
      try {
        return await this.kysely.transaction().execute((trx) => {
          inner = new KyselyStore(this.context, trx, true);
          return work(inner);
        });
      } finally {
        if (inner) forgetWritten(inner);
      }
    }
    // SQLite: BEGIN IMMEDIATE takes the write lock up front, so a transaction that reads and then writes
    // waits for another process's writer (busy_timeout) instead of failing when it upgrades its lock.
    return this.kysely.connection().execute(async (connection) => {
      await sql`BEGIN IMMEDIATE`.execute(connection);
      const inner = new KyselyStore(this.context, connection, true);
      try {
        const result = await work(inner);
        await sql`COMMIT`.execute(connection);
        return result;
      } catch (error) {
        await sql`ROLLBACK`.execute(connection);
        throw error;
      } finally {
        forgetWritten(inner);
      }
    });
  }

  async close(): Promise<void> {
    if (this.inTransaction)
      throw new Error('close the store itself, not the store of one of its transactions');
    await this.context.shared.settle();
    await this.context.close?.();
    await this.kysely.destroy();
  }

  /** The plan of an entity's table; an entity without one is the caller's bug. */
  private table(entity: string): PlannedTable {
    const table = this.tables.get(entity);
    if (!table) throw new Error(`"${entity}" is not a stored entity of this model`);
    return table;
  }

  private keyColumn(table: PlannedTable): PlannedColumn {
    const column = table.columns.find((candidate) => candidate.name === table.key.column);
    if (!column) throw new Error(`"${table.name}" has no key column`);
    return column;
  }

  /**
   * The key as the database compares it, or undefined when it cannot be one (it then names no record).
   * A composite key (`keyOf`) is its parts' values, each as its own column takes it.
   */
  private keyValue(table: PlannedTable, key: RecordKey): unknown {
    const parts = table.key.parts;
    if (!parts) return this.codec.key(this.keyColumn(table), key);
    const texts = compositeKeyParts(String(key), parts.length);
    if (!texts) return undefined;
    const values = parts.map((part, index) => {
      const column = table.columns.find((candidate) => candidate.name === part);
      return column ? this.codec.key(column, texts[index] as string) : undefined;
    });
    return values.includes(undefined) ? undefined : new CompositeValue(values);
  }

  /** The key as history and imports keep it: a composite key as its text. */
  private keyText(table: PlannedTable, key: RecordKey): RecordKey | undefined {
    const value = this.keyValue(table, key);
    if (value === undefined) return undefined;
    return table.key.parts ? String(key) : (value as RecordKey);
  }

  /** The condition that the row's key is `value` (from `keyValue`). */
  private keyIs(table: PlannedTable, value: unknown): RawBuilder<unknown> {
    const parts = table.key.parts;
    if (!parts || !(value instanceof CompositeValue)) return sql`${this.keyId(table)} = ${value}`;
    return sql`(${sql.join(
      parts.map((part, index) => sql`${sql.id(this.columnNamed(table, part))} = ${value.values[index]}`),
      sql` AND `,
    )})`;
  }

  private ref(table: PlannedTable): RawBuilder<unknown> {
    return this.context.sql.relation(table);
  }

  /** Every column, under its field's name where the team's table names it otherwise. */
  private columns(table: PlannedTable): RawBuilder<unknown> {
    return sql.join(
      stored(table).map((column) =>
        column.sql === undefined ? sql.id(column.name) : sql`${sql.id(column.sql)} AS ${sql.id(column.name)}`,
      ),
    );
  }

  /**
   * A value as the column takes it. A list kept in a PostgreSQL array column of a team's table is bound
   * as an array (`pg` writes it as one), where the store's own tables keep lists as JSON.
   */
  private bind(table: PlannedTable, column: PlannedColumn, value: JsonValue): unknown {
    if (Array.isArray(value) && this.context.existing?.get(table.name)?.arrays.has(column.name)) return value;
    return this.codec.write(table, column, value);
  }

  /** The table's lists kept in join tables, as the database's catalog said when the store started. */
  private lists(table: PlannedTable): ReturnType<typeof joinedLists> {
    return table.existing ? joinedLists(table, this.context.existing?.get(table.name)) : [];
  }

  /** Fills the records' lists kept in join tables. */
  private async fillLists(table: PlannedTable, records: StoredRecord[]): Promise<void> {
    const lists = this.lists(table);
    if (lists.length === 0) return;
    const keyColumn = this.keyColumn(table);
    await readLists(
      this.kysely,
      lists,
      records,
      (record) => this.codec.key(keyColumn, record[table.key.column] as RecordKey),
      (list, value) => {
        const target = this.tables.get(list.column.through?.target ?? '');
        const column = target?.columns.find((candidate) => candidate.name === target.key.column);
        return column ? this.codec.readValue(column, value) : (value as JsonValue);
      },
    );
  }

  private keyId(table: PlannedTable): RawBuilder<unknown> {
    return sql.id(columnName(this.keyColumn(table)));
  }

  private columnNamed(table: PlannedTable, field: string): string {
    const column = table.columns.find((candidate) => candidate.name === field);
    return column ? columnName(column) : field;
  }

  /**
   * An update of the team's table, which has no version column: the version is read from the row's
   * values (`rowVersion`) with the row locked, and the update follows in the same transaction.
   */
  private async updateExisting(
    table: PlannedTable,
    keyValue: unknown,
    sets: RawBuilder<unknown>[],
    values: StoredRecord,
    expectedVersion: number | undefined,
  ): Promise<WriteResult<StoredRecord>> {
    const entity = table.name;
    return this.transaction(async (store) => {
      const self = store as KyselyStore;
      const lock = self.dialect === 'postgres' ? sql` FOR UPDATE` : sql``;
      const current = await sql<Row>`
        SELECT ${self.columns(table)} FROM ${self.ref(table)} WHERE ${self.keyIs(table, keyValue)}${lock}
      `.execute(self.kysely);
      const row = current.rows[0];
      if (!row) return fail({ kind: 'not-found', entity });
      const before = self.codec.read(table, row);
      await self.fillLists(table, [before]);
      const version = rowVersion(before);
      if (expectedVersion !== undefined && version !== expectedVersion)
        return fail({ kind: 'version-mismatch', entity, current: version });
      let updated: Row | undefined = row;
      try {
        if (sets.length > 0) {
          updated = await self.guarded(true, async () => {
            const result = await sql<Row>`
              UPDATE ${self.ref(table)} SET ${sql.join(sets)} WHERE ${self.keyIs(table, keyValue)}
              RETURNING ${self.columns(table)}
            `.execute(self.kysely);
            return result.rows[0];
          });
        }
        if (!updated) return fail({ kind: 'not-found', entity });
        // After the row, which may be refused: a refusal must leave the lists as they were. A failure
        // here throws, and the transaction takes the row's change back with it.
        await writeLists(self.kysely, self.lists(table), keyValue, values);
        const stored = self.codec.read(table, updated);
        const again = await self.get(entity, stored[table.key.column] as RecordKey);
        return { ok: true, value: again ?? stored };
      } catch (error) {
        const violation = self.violation(table, error);
        if (violation && violation.kind !== 'foreign-key') return fail(violationFailure(entity, violation));
        throw error;
      }
    });
  }

  private checkFields(table: PlannedTable, values: StoredRecord, action: string): void {
    for (const name of Object.keys(values)) {
      if (!table.columns.some((column) => column.name === name)) {
        throw new Error(`${action} "${table.name}": it has no field "${name}"`);
      }
    }
  }

  private violation(table: PlannedTable, error: unknown): ConstraintViolation | undefined {
    return constraintViolation(
      this.dialect,
      this.context.plan,
      table,
      error,
      this.context.existing?.get(table.name),
    );
  }

  /** The tables and columns that reference `table`. */
  private referrers(table: PlannedTable): Array<{ table: PlannedTable; column: PlannedColumn }> {
    return this.context.plan.tables.flatMap((other) =>
      other.columns
        .filter((column) => column.references?.table === table.name)
        .map((column) => ({ table: other, column })),
    );
  }

  /** SQLite does not say which table blocked a delete: the first one that references the record. */
  private async referrer(table: PlannedTable, key: unknown): Promise<string> {
    const referrers = this.referrers(table);
    for (const { table: other, column } of referrers) {
      const result =
        await sql`SELECT 1 AS "found" FROM ${this.ref(other)} WHERE ${sql.id(columnName(column))} = ${key} LIMIT 1`.execute(
          this.kysely,
        );
      if (result.rows.length > 0) return other.name;
    }
    return referrers[0]?.table.name ?? table.name;
  }

  private async conflictingField(table: PlannedTable, row: Map<string, unknown>): Promise<string> {
    const candidates = [
      table.key.column,
      ...table.indexes.filter((index) => index.unique).map((index) => index.columns[0] as string),
    ];
    for (const name of candidates) {
      const value = row.get(name);
      if (value === undefined) continue;
      const result =
        await sql`SELECT 1 AS "found" FROM ${this.ref(table)} WHERE ${sql.id(this.columnNamed(table, name))} = ${value} LIMIT 1`.execute(
          this.kysely,
        );
      if (result.rows.length > 0) return name;
    }
    // The conflicting row was deleted in between: report the first unique field given.
    return candidates.find((name) => row.has(name)) ?? table.key.column;
  }

  /**
   * PostgreSQL: an explicit key does not move the identity sequence, so the next generated key would
   * collide with it. The sequence is moved past it (never back).
   */
  private async advanceIdentity(table: PlannedTable, key: unknown): Promise<void> {
    await sql`
      SELECT setval(s.seq, ${key}) FROM (SELECT pg_get_serial_sequence(${this.context.sql.table(table.name)}, ${table.key.column})::regclass AS seq) s
      WHERE ${key} > COALESCE(pg_sequence_last_value(s.seq), 0)
    `.execute(this.kysely);
  }

  async savepoint<T>(work: () => Promise<T>): Promise<T> {
    if (!this.inTransaction) throw new Error('savepoint runs inside a transaction: call it on its store');
    // Its own name: the guarded writes inside it take theirs.
    await sql`SAVEPOINT ninefold_row`.execute(this.kysely);
    try {
      const result = await work();
      await sql`RELEASE SAVEPOINT ninefold_row`.execute(this.kysely);
      return result;
    } catch (error) {
      await sql`ROLLBACK TO SAVEPOINT ninefold_row`.execute(this.kysely);
      await sql`RELEASE SAVEPOINT ninefold_row`.execute(this.kysely);
      throw error;
    }
  }

  /**
   * PostgreSQL aborts a transaction on any error, so inside one a write that may fail with a constraint
   * violation runs under a savepoint, and the transaction stays usable after the failure is reported.
   */
  private async guarded<T>(mayViolate: boolean, write: () => Promise<T>): Promise<T> {
    if (!(mayViolate && this.inTransaction && this.dialect === 'postgres')) return write();
    const run = async () => {
      await sql`SAVEPOINT ninefold_write`.execute(this.kysely);
      try {
        const result = await write();
        await sql`RELEASE SAVEPOINT ninefold_write`.execute(this.kysely);
        return result;
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT ninefold_write`.execute(this.kysely);
        await sql`RELEASE SAVEPOINT ninefold_write`.execute(this.kysely);
        throw error;
      }
    };
    const queued = this.savepointQueue.then(run, run);
    this.savepointQueue = queued.catch(() => undefined);
    return queued;
  }
}

/** A composite key's parts, bound one by one (`keyIs`). */
class CompositeValue {
  constructor(readonly values: unknown[]) {}
}

/** The columns a table has: a composite key is stored nowhere itself. */
function stored(table: PlannedTable): PlannedColumn[] {
  return table.columns.filter((column) => column.composite === undefined && column.through === undefined);
}

function fail(failure: WriteFailure): { ok: false; failure: WriteFailure } {
  return { ok: false, failure };
}

/** A constraint of the database that a write broke, as the store's failure. */
function violationFailure(
  entity: string,
  violation: Exclude<ConstraintViolation, { kind: 'foreign-key' }>,
): WriteFailure {
  switch (violation.kind) {
    case 'unique':
      return { kind: 'unique', entity, field: violation.field };
    case 'check':
      return {
        kind: 'check',
        entity,
        ...(violation.field ? { field: violation.field } : {}),
        constraint: violation.constraint,
      };
    case 'required':
      return { kind: 'required', entity, field: violation.field };
    default:
      return exhaustiveSwitchError(violation);
  }
}
