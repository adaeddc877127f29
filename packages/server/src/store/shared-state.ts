import type { JsonValue } from '@ninefold/model';
import { sql } from 'kysely';
import type { DialectSql } from './dialect-sql';
import { ensureOwnTable } from './own-table';
import type { ReadCache } from './read-cache';
import type { DynamicKysely } from './schema-sync';
import { EVENTS_TABLE, REVOKED_TABLE, SETTINGS_TABLE, SIGN_IN_FAILURES_TABLE } from './table-plan';

/** The channel a PostgreSQL store notifies with the id of each event it appends (see `pg-listener.ts`). */
export const EVENTS_CHANNEL = 'ninefold_events';
/** How long events are kept for a dropped stream to resume from (`Last-Event-ID`). */
export const EVENT_RETENTION_MS = 10 * 60 * 1000;
/** Old events are swept after this many appends by one node (and at its first append). */
const PURGE_EVERY = 500;
/** The most events written in one statement. */
const APPEND_BATCH = 200;

/** A change to records, as live updates tell it. */
export interface NewEvent {
  entity: string;
  /** The record's key; absent when many records of the entity changed at once (an import, an effect). */
  key?: string;
  kind: 'created' | 'updated' | 'deleted' | 'changed';
  /** Who made the change, as the people call names them. */
  by?: { id: string; name: string };
  /** The record before and after, as stored: each stream shows only what its role may read of them. */
  before?: Record<string, JsonValue>;
  after?: Record<string, JsonValue>;
  /** Milliseconds since the epoch. */
  at: number;
}

export interface StoredEvent extends NewEvent {
  id: number;
}

export interface SignInFailures {
  count: number;
  /** Milliseconds since the epoch: no attempt is checked before. */
  until: number;
}

/** Who is told that events were appended: with an id, that one; without, "read after what you have". */
export type EventSignal = (id: number | undefined) => void;

/**
 * What every node of one database must agree on, kept in the database rather than in a process: the
 * generated token secret, signed-out tokens, the sign-in throttle's counts and recent changes. A second
 * node on the same PostgreSQL reads what the first wrote; its memory holds only caches that the write
 * listener keeps true (`ReadCache`).
 */
export class SharedState {
  private ready: Promise<void> | undefined;
  private appended = 0;
  private readonly listeners = new Set<EventSignal>();
  private readonly queue: Array<{
    event: NewEvent;
    resolve(id: number): void;
    reject(error: unknown): void;
  }> = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: DynamicKysely,
    private readonly dialect: DialectSql,
    private readonly options: {
      /** The read cache when it may be used now (see `KyselyStore.currentCache`). */
      cache: () => ReadCache | undefined;
      /** Called once the tables are made, so the write listener watches them too. */
      tablesChanged?: () => Promise<void>;
    },
  ) {}

  /** A value kept once for every node: the first node to store one wins, and all read that one. */
  async setting(name: string, make: () => string): Promise<string> {
    await this.tables();
    const table = this.dialect.tableRef(SETTINGS_TABLE);
    await sql`INSERT INTO ${table} ("name", "value") VALUES (${name}, ${make()}) ON CONFLICT DO NOTHING`.execute(
      this.db,
    );
    const found = await sql<{ value: string }>`SELECT "value" FROM ${table} WHERE "name" = ${name}`.execute(
      this.db,
    );
    const value = found.rows[0]?.value;
    if (value === undefined) throw new Error(`the shared setting ${name} could not be kept`);
    return value;
  }

  /** Refuses a token from now on, on every node; false when it was refused already (a ticket used twice). */
  async revoke(tokenId: string, expiresAt: number, nowSeconds: number): Promise<boolean> {
    await this.tables();
    const table = this.dialect.tableRef(REVOKED_TABLE);
    this.options.cache()?.invalidate(REVOKED_TABLE);
    try {
      await sql`DELETE FROM ${table} WHERE "expires_at" < ${nowSeconds}`.execute(this.db);
      const inserted = await sql`
        INSERT INTO ${table} ("token_id", "expires_at") VALUES (${tokenId}, ${expiresAt}) ON CONFLICT DO NOTHING
      `.execute(this.db);
      return Number(inserted.numAffectedRows ?? 0) === 1;
    } finally {
      this.options.cache()?.invalidate(REVOKED_TABLE);
    }
  }

  /**
   * Whether a token was signed out. Asked on every call with a session token, so the ids are read once and
   * kept until anyone, on any node, signs out again (the write listener forgets them then).
   */
  async isRevoked(tokenId: string): Promise<boolean> {
    await this.tables();
    const cache = this.options.cache();
    const known = cache?.tableSet(REVOKED_TABLE);
    if (known) return known.has(tokenId);
    const generation = cache?.generation(REVOKED_TABLE) ?? 0;
    const rows = await sql<{ token_id: string }>`
      SELECT "token_id" FROM ${this.dialect.tableRef(REVOKED_TABLE)}
    `.execute(this.db);
    const ids = new Set(rows.rows.map((row) => row.token_id));
    cache?.keepTableSet(REVOKED_TABLE, ids, generation);
    return ids.has(tokenId);
  }

  async signInFailures(key: string): Promise<SignInFailures | undefined> {
    await this.tables();
    const found = await sql<{ count: number; until: number }>`
      SELECT "count", "until" FROM ${this.dialect.tableRef(SIGN_IN_FAILURES_TABLE)} WHERE "key" = ${key}
    `.execute(this.db);
    const row = found.rows[0];
    return row ? { count: Number(row.count), until: Number(row.until) } : undefined;
  }

  /** Counts one more failure, in the database, so that two nodes asked at once both count. */
  async addSignInFailure(key: string, wait: (count: number) => number, now: number): Promise<void> {
    await this.tables();
    const table = this.dialect.tableRef(SIGN_IN_FAILURES_TABLE);
    const updated = await sql<{ count: number }>`
      INSERT INTO ${table} ("key", "count", "until") VALUES (${key}, 1, ${now + wait(1)})
      ON CONFLICT ("key") DO UPDATE SET "count" = ${table}."count" + 1
      RETURNING "count"
    `.execute(this.db);
    const count = Number(updated.rows[0]?.count ?? 1);
    if (count > 1) {
      await sql`UPDATE ${table} SET "until" = ${now + wait(count)} WHERE "key" = ${key}`.execute(this.db);
    }
  }

  async clearSignInFailures(key: string): Promise<void> {
    await this.tables();
    await sql`DELETE FROM ${this.dialect.tableRef(SIGN_IN_FAILURES_TABLE)} WHERE "key" = ${key}`.execute(
      this.db,
    );
  }

  /**
   * Keeps an event and tells every node's streams (this one's directly, others' by notification). Events
   * appended in the same turn of the event loop are written together, in one statement and one commit:
   * under load, a write's event then costs a row, not a transaction.
   */
  appendEvent(event: NewEvent): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      this.flushing ??= new Promise<void>((done) => setImmediate(() => void this.flush().finally(done)));
    });
  }

  /** Waits for the events being appended: the store closes only after them. */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, APPEND_BATCH);
    try {
      const ids = await this.insert(batch.map((item) => item.event));
      for (const [index, item] of batch.entries()) item.resolve(ids[index] ?? 0);
    } catch (error) {
      for (const item of batch) item.reject(error);
    } finally {
      this.flushing = this.queue.length > 0 ? this.flush() : undefined;
    }
  }

  private async insert(events: NewEvent[]): Promise<number[]> {
    await this.tables();
    const table = this.dialect.tableRef(EVENTS_TABLE);
    const first = events[0];
    if (!first) return [];
    if (
      this.appended === 0 ||
      Math.floor(this.appended / PURGE_EVERY) !== Math.floor((this.appended + events.length) / PURGE_EVERY)
    ) {
      await sql`DELETE FROM ${table} WHERE "at" < ${first.at - EVENT_RETENTION_MS}`.execute(this.db);
    }
    this.appended += events.length;
    const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
    const rows = events.map(
      (event) =>
        sql`(${event.at}, ${event.entity}, ${event.key ?? null}, ${event.kind}, ${json(event.by)}, ${json(event.before)}, ${json(event.after)})`,
    );
    const insert = sql`
      INSERT INTO ${table} ("at", "entity", "record_key", "kind", "by", "before", "after")
      VALUES ${sql.join(rows)} RETURNING "id"
    `;
    if (this.dialect.name === 'postgres') {
      // One round trip: the notification (of the last id: a node reads every event after what it has)
      // goes out when the insert commits, to every node's listener.
      const inserted = await sql<{ id: number }>`
        WITH "inserted" AS (${insert})
        SELECT "id", CASE WHEN "id" = MAX("id") OVER () THEN pg_notify(${EVENTS_CHANNEL}, "id"::text) END
        FROM "inserted" ORDER BY "id"
      `.execute(this.db);
      return inserted.rows.map((row) => Number(row.id));
    }
    const ids = (await sql<{ id: number }>`${insert}`.execute(this.db)).rows.map((row) => Number(row.id));
    ids.sort((a, b) => a - b);
    this.signal(ids.at(-1));
    return ids;
  }

  /**
   * Events after an id, oldest first: what a stream missed, or what a notification announced. `also`, an
   * announced id at or below `id` (another node's batch that committed late), adds the batch it ends.
   */
  async eventsAfter(id: number, limit: number, also?: number): Promise<StoredEvent[]> {
    await this.tables();
    const extra = also === undefined ? sql`` : sql` OR ("id" > ${also - APPEND_BATCH} AND "id" <= ${also})`;
    const found = await sql<EventRow>`
      SELECT "id", "at", "entity", "record_key", "kind", "by", "before", "after"
      FROM ${this.dialect.tableRef(EVENTS_TABLE)} WHERE "id" > ${id}${extra} ORDER BY "id" LIMIT ${limit}
    `.execute(this.db);
    return found.rows.map(eventOf);
  }

  /** The oldest event kept, if any: a stream resuming from before it has missed some. */
  async oldestEventId(): Promise<number | undefined> {
    await this.tables();
    const found = await sql<{ id: number | null }>`
      SELECT MIN("id") AS "id" FROM ${this.dialect.tableRef(EVENTS_TABLE)}
    `.execute(this.db);
    const id = found.rows[0]?.id;
    return id === null || id === undefined ? undefined : Number(id);
  }

  /** The newest event's id, or 0: where a new stream starts. */
  async lastEventId(): Promise<number> {
    await this.tables();
    const found = await sql<{ id: number | null }>`
      SELECT MAX("id") AS "id" FROM ${this.dialect.tableRef(EVENTS_TABLE)}
    `.execute(this.db);
    return Number(found.rows[0]?.id ?? 0);
  }

  /** Called with each event appended on any node of this database (see `EventSignal`). */
  onEvents(listener: EventSignal): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The write listener's side: an event was appended somewhere, or notifications may have been missed. */
  signal(id: number | undefined): void {
    for (const listener of this.listeners) listener(id);
  }

  private tables(): Promise<void> {
    if (!this.ready) {
      this.ready = this.create().then(() => this.options.tablesChanged?.());
      // A failure (a dropped connection) is not remembered: the next use tries again.
      this.ready.catch(() => {
        this.ready = undefined;
      });
    }
    return this.ready;
  }

  private create(): Promise<void> {
    const { dialect } = this;
    const sqlite = dialect.name === 'sqlite';
    const time = sqlite ? 'INTEGER' : 'BIGINT';
    const serial = sqlite ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGSERIAL PRIMARY KEY';
    return ensureOwnTable(
      this.db,
      dialect,
      'ninefold-shared',
      [
        `CREATE TABLE IF NOT EXISTS ${dialect.table(SETTINGS_TABLE)} ("name" TEXT NOT NULL PRIMARY KEY, "value" TEXT NOT NULL)`,
        `CREATE TABLE IF NOT EXISTS ${dialect.table(REVOKED_TABLE)} ("token_id" TEXT NOT NULL PRIMARY KEY, "expires_at" ${time} NOT NULL)`,
        `CREATE TABLE IF NOT EXISTS ${dialect.table(SIGN_IN_FAILURES_TABLE)} ("key" TEXT NOT NULL PRIMARY KEY, "count" INTEGER NOT NULL, "until" ${time} NOT NULL)`,
        `CREATE TABLE IF NOT EXISTS ${dialect.table(EVENTS_TABLE)} ("id" ${serial}, "at" ${time} NOT NULL, ` +
          `"entity" TEXT NOT NULL, "record_key" TEXT, "kind" TEXT NOT NULL, "by" TEXT, "before" TEXT, "after" TEXT)`,
        `CREATE INDEX IF NOT EXISTS "_ninefold_events_at" ON ${dialect.table(EVENTS_TABLE)} ("at")`,
      ],
      false,
    );
  }
}

interface EventRow {
  id: number;
  at: number;
  entity: string;
  record_key: string | null;
  kind: NewEvent['kind'];
  by: string | null;
  before: string | null;
  after: string | null;
}

function eventOf(row: EventRow): StoredEvent {
  const event: StoredEvent = { id: Number(row.id), at: Number(row.at), entity: row.entity, kind: row.kind };
  if (row.record_key !== null) event.key = row.record_key;
  if (row.by !== null) event.by = JSON.parse(row.by);
  if (row.before !== null) event.before = JSON.parse(row.before);
  if (row.after !== null) event.after = JSON.parse(row.after);
  return event;
}
