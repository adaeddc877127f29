import { randomInt } from 'node:crypto';
import type { DialectSql } from './dialect-sql';
import { HOLDER_LOCK_NAMESPACE } from './idempotency-table';
import type { ReadCache } from './read-cache';
import { EVENTS_CHANNEL, type EventSignal } from './shared-state';
import { fnv1a, REVOKED_TABLE, USERS_TABLE } from './table-plan';

/** The channel every Ninefold table's trigger notifies, with `schema.table` as the payload. */
export const WRITES_CHANNEL = 'ninefold_writes';
const NOTIFY_FUNCTION = 'ninefold_notify_write';
const TRIGGER = 'ninefold_notify_write';
/** The listening connection's `application_name`. */
export const LISTENER_NAME = 'ninefold write listener';
/** A notification of the writes channel that names no table: the listener's own test of delivery. */
const PROBE_PREFIX = 'probe:';
/** How long to wait before connecting again after the listening connection was lost. */
const RECONNECT_MS = [100, 500, 2000, 5000];

/** The parts of `pg.Client` used here; `pg` ships no types and this package may not add @types. */
export interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: (error?: Error) => void): void;
}

export interface WriteListener {
  /**
   * Whether every write by anyone reaches the cache now: listening, with the triggers in place (from the
   * first `tablesChanged`, which the store calls after its migration).
   */
  current(): boolean;
  /** The store's tables were made or changed: the triggers are put on every one of them again. */
  tablesChanged(): Promise<void>;
  close(): Promise<void>;
  /**
   * This node's holder number while its connection holds the lock that says the node is alive, which
   * PostgreSQL lets go the moment the connection ends (see `claimKey`): undefined while it does not.
   */
  holder(): number | undefined;
  /**
   * Whether a notification that `send` makes through the pool reaches this listening connection within
   * `ms`. It does not behind a pooler in transaction mode (PgBouncer's), where a LISTEN lasts only the
   * transaction that made it; undefined when the listener is not connected, so nothing was learnt.
   */
  hears(send: (payload: string) => Promise<void>, ms: number): Promise<boolean | undefined>;
}

/**
 * Keeps a PostgreSQL store's read cache true when other processes write: other nodes of the API on the
 * same database, or a person at `psql`. A trigger on each table notifies after every statement that
 * writes to it (delivered when the transaction commits), and one connection per store listens and
 * forgets what was read of that table. While that connection is down, or the triggers are being put in
 * place, the cache is not used, and everything it held is forgotten, since notifications were missed.
 */
export function startWriteListener(options: {
  connect: () => PgClient;
  dialect: DialectSql;
  tables: string[];
  cache: ReadCache;
  /** Told of each event appended by any node, and told to read again after a lost connection. */
  events?: EventSignal;
  /** A number for this node (positive, 31 bits), held as a lock for as long as the connection lives. */
  holder?: number;
}): WriteListener {
  const { dialect, cache } = options;
  const schema = dialect.schema ?? 'public';
  const tables = [...options.tables, USERS_TABLE, REVOKED_TABLE];
  let client: PgClient | undefined;
  let listening = false;
  let armed = false;
  let holding = false;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  const probes = new Map<string, () => void>();

  const forget = (payload: string | undefined) => {
    if (payload?.startsWith(PROBE_PREFIX)) {
      probes.get(payload)?.();
      return;
    }
    if (!payload?.startsWith(`${schema}.`)) return;
    const table = payload.slice(schema.length + 1);
    if (table === USERS_TABLE) cache.forgetUsers();
    else cache.invalidate(table);
  };

  const lost = () => {
    listening = false;
    holding = false;
    cache.clear();
    const old = client;
    client = undefined;
    old?.end().catch(() => {});
    if (closed || timer) return;
    const delay = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)];
    attempt++;
    timer = setTimeout(() => {
      timer = undefined;
      void listen();
    }, delay);
    timer.unref();
  };

  // The triggers could not be put in place (a role without the right to, say): the cache stays unused
  // until the tables change again; the connection stays, and nothing else changes.
  const unarmed = () => {
    armed = false;
    cache.clear();
  };

  const arm = async (on: PgClient) => {
    armed = false;
    const existing = await on.query(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name = ANY($2)',
      [schema, tables],
    );
    const names = existing.rows.map((row) => String(row.table_name));
    const fn = `${dialect.table(NOTIFY_FUNCTION)}()`;
    await on.query('BEGIN');
    try {
      // Nodes starting together take turns: CREATE OR REPLACE of one function at once fails.
      await on.query('SELECT pg_advisory_xact_lock($1)', [fnv1a(`ninefold-notify:${schema}`) | 0]);
      await on.query(
        `CREATE OR REPLACE FUNCTION ${fn} RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
          `PERFORM pg_notify('${WRITES_CHANNEL}', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME); RETURN NULL; END $$`,
      );
      for (const name of names) {
        await on.query(
          `CREATE OR REPLACE TRIGGER "${TRIGGER}" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ` +
            `ON ${dialect.table(name)} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}`,
        );
      }
      await on.query('COMMIT');
    } catch (error) {
      await on.query('ROLLBACK').catch(() => {});
      throw error;
    }
    // Writes made before the triggers were there went unseen.
    cache.clear();
    armed = true;
  };

  const listen = async () => {
    if (closed) return;
    const next = options.connect();
    next.on('notification', (message) => {
      if (message.channel === WRITES_CHANNEL) forget(message.payload);
      else if (message.channel === EVENTS_CHANNEL) {
        const id = Number(message.payload);
        options.events?.(Number.isSafeInteger(id) ? id : undefined);
      }
    });
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`LISTEN ${WRITES_CHANNEL}`);
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (options.holder !== undefined) {
        // Another node drew the same number (one chance in two billion): its claims then wait the lease.
        const taken = await next.query('SELECT pg_try_advisory_lock($1, $2) AS "held"', [
          HOLDER_LOCK_NAMESPACE,
          options.holder,
        ]);
        holding = taken.rows[0]?.held === true;
      }
    } catch {
      lost();
      return;
    }
    client = next;
    // Anything written while nobody listened is unknown.
    cache.clear();
    listening = true;
    // Events appended meanwhile were not announced: the streams read what follows what they have.
    if (attempt > 0) options.events?.(undefined);
    // At the first start the store arms the triggers once its tables are made (`tablesChanged` after the
    // migration): arming here too cost every store opened a second round of DDL. After a lost
    // connection, the tables are there and only this arms them again.
    if (attempt > 0) await arm(next).catch(unarmed);
    attempt = 0;
  };

  const started = listen();
  return {
    current: () => listening && armed,
    holder: () => (listening && holding ? options.holder : undefined),
    async tablesChanged() {
      await started;
      if (client) await arm(client).catch(unarmed);
    },
    async hears(send, ms) {
      await started;
      if (!listening) return undefined;
      const payload = `${PROBE_PREFIX}${randomInt(1, 2 ** 31)}`;
      let timer: NodeJS.Timeout | undefined;
      const heard = new Promise<boolean>((resolve) => {
        probes.set(payload, () => resolve(true));
        timer = setTimeout(() => resolve(false), ms);
      });
      try {
        await send(payload);
        return await heard;
      } finally {
        clearTimeout(timer);
        probes.delete(payload);
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      listening = false;
      holding = false;
      const old = client;
      client = undefined;
      await old?.end().catch(() => {});
    },
  };
}
