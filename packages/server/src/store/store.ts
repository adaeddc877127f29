import type {
  AggregateQuery,
  FigureGroup,
  FigureMeasure,
  FigurePeriod,
  JsonValue,
  Model,
  RecordCondition,
  SortKey,
} from '@ninefold/model';
import type { SharedState } from './shared-state';

/** A record as stored and served: field values by name, plus the key. */
export type StoredRecord = Record<string, JsonValue>;

/** Record keys travel as strings in URLs; the store converts them to the key field's type. */
export type RecordKey = string | number;

export type FilterOperator = 'eq' | 'contains' | 'gte' | 'lte' | 'in';

export interface Filter {
  field: string;
  op: FilterOperator;
  /** For `in`, an array; otherwise one value of the field's type (dates as ISO strings). */
  value: JsonValue;
}

export interface ListQuery {
  filters: Filter[];
  /** Applied in order; the store adds the key as the last tie-breaker so pages are stable. */
  sort: SortKey[];
  limit: number;
  /** Offset pagination (page/limit is translated to an offset by the caller). */
  offset?: number;
  /** Cursor pagination: an opaque string from a previous `nextCursor`. */
  cursor?: string;
  /** Whether to count all matching records (costs a second query). */
  withTotal: boolean;
  /** A condition besides the filters: a role's permission of point 6, turned into SQL. */
  where?: RecordCondition;
  /** Free text: records whose `fields` (among the table's searched ones) hold every word of it. */
  search?: { text: string; fields: string[] };
}

export interface ListResult {
  items: StoredRecord[];
  total?: number;
  /** Present when more records follow (cursor pagination). */
  nextCursor?: string;
}

/** What a write can fail with, besides programmer errors. */
export type WriteFailure =
  | { kind: 'unique'; entity: string; field: string }
  /** A CHECK of the team's own table refused the values; `field`: the first column its condition reads. */
  | { kind: 'check'; entity: string; field?: string; constraint: string }
  /** A NOT NULL column of the team's own table was left empty. */
  | { kind: 'required'; entity: string; field: string }
  | { kind: 'referenced'; entity: string; by: string }
  | { kind: 'not-found'; entity: string }
  | { kind: 'version-mismatch'; entity: string; current: number };

export type WriteResult<T> = { ok: true; value: T } | { ok: false; failure: WriteFailure };

export interface MigrationStep {
  /** `create-table`, `add-column`, `add-index`: applied without asking. */
  kind: 'create-table' | 'add-column' | 'add-index' | 'drop-table' | 'drop-column' | 'change-column';
  entity: string;
  field?: string;
  /** Human sentence: `add column "notes" (text) to "Order"`. */
  description: string;
  /** Would lose or narrow stored data. */
  destructive: boolean;
}

export type MigrationResult =
  | { ok: true; applied: MigrationStep[] }
  /** Nothing was changed: the listed destructive steps need `allowDestructive`. */
  | { ok: false; refused: MigrationStep[] };

/**
 * The prototype API's storage: one table per (non-embedded) entity, real columns per field, indexes on
 * the fields screens and calls sort and filter on. One implementation serves SQLite and PostgreSQL.
 */
export interface Store {
  /** What every node of this database shares: secrets, signed-out tokens, throttle counts, events. */
  readonly shared: SharedState;
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * The version a write left a record at, for its ETag: one more than the version it was written over
   * (`previous`; none for a new record), or, on a team's own table, read from its values (`rowVersion`).
   */
  versionAfterWrite(entity: string, record: StoredRecord, previous: number | undefined): number;
  /** Brings the database in line with the model. Additive changes apply; destructive ones need consent. */
  migrate(options: { allowDestructive: boolean }): Promise<MigrationResult>;
  list(entity: string, query: ListQuery): Promise<ListResult>;
  /**
   * With `lock`, in a transaction, the record is held until it ends (PostgreSQL's `FOR UPDATE`; SQLite's
   * transaction already holds the whole database): what is read is what a write in it changes.
   */
  get(entity: string, key: RecordKey, options?: { lock?: boolean }): Promise<StoredRecord | undefined>;
  /** The record and its version, read together (so an ETag sent with a record is that record's). */
  getVersioned(entity: string, key: RecordKey): Promise<VersionedRecord | undefined>;
  /** Which of these keys exist (for reference checks), in one query. */
  existing(entity: string, keys: RecordKey[]): Promise<Set<string>>;
  /**
   * Which of these values some record of `entity` holds in `field`, a reference or a person's id (and
   * meets `where`, a role's condition): whose names a role may be told. One query per chunk of values.
   */
  referenced(entity: string, field: string, keys: RecordKey[], where?: RecordCondition): Promise<Set<string>>;
  create(entity: string, values: StoredRecord): Promise<WriteResult<StoredRecord>>;
  /**
   * A create and its entry of the audit trail, both or neither: on PostgreSQL, for the store's own
   * tables, one statement (the entry made from the row the insert returns); elsewhere, one transaction.
   */
  createAudited(entity: string, values: StoredRecord, stamp: AuditStamp): Promise<WriteResult<StoredRecord>>;
  /** Partial update; with `expectedVersion`, fails with `version-mismatch` if the record changed since. */
  update(
    entity: string,
    key: RecordKey,
    values: StoredRecord,
    expectedVersion?: number,
  ): Promise<WriteResult<StoredRecord>>;
  /** Deletes a record, and the history of its transitions with it. */
  delete(entity: string, key: RecordKey): Promise<WriteResult<true>>;
  /**
   * A transition of point 4: `update`, and in the same transaction its entry in the history, so that a
   * record never changes state unrecorded.
   */
  applyTransition(
    entity: string,
    key: RecordKey,
    values: StoredRecord,
    expectedVersion: number | undefined,
    entry: HistoryEntry,
  ): Promise<WriteResult<StoredRecord>>;
  /** The transitions a record went through, newest first. */
  history(entity: string, key: RecordKey): Promise<HistoryEntry[]>;
  /** Writes past transitions of a record, for the seed: a record in a later state has a history there. */
  addHistory(entity: string, key: RecordKey, entries: HistoryEntry[]): Promise<void>;
  /**
   * Claims an idempotency key before its call is handled: `claimed` for the one request that handles it,
   * else the key's entry (its stored answer, or none while another request handles it).
   */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<'claimed' | IdempotencyEntry>;
  /**
   * Stores the answer of a claimed key, only for the claim with this token and only once; false when the
   * claim is no longer this one's. Called inside the transaction of the write it answers, so that the
   * write and its answer are stored together or not at all.
   */
  completeIdempotencyKey(id: string, token: string, answer: StoredAnswer): Promise<boolean>;
  /** Frees the claims that have no answer (at start: their process died before its write committed). */
  releaseUnansweredIdempotencyKeys(): Promise<number>;
  /** Forgets a claim whose call failed on the server's side, so that a retry runs it again. */
  releaseIdempotencyKey(id: string, token: string): Promise<void>;
  /** The record's version (bumped on every write), for ETags. */
  version(entity: string, key: RecordKey): Promise<number | undefined>;
  /** Stores an uploaded file's bytes; answers the id it is served under. */
  putFile(file: NewFile): Promise<string>;
  getFile(id: string): Promise<StoredFile | undefined>;
  /** Forgets a file (one stored for a write that then failed, or one a record no longer holds). */
  deleteFile(id: string): Promise<void>;
  /** Adds a user of the prototype API's own sign-in; `exists` when the email is taken. */
  createUser(user: NewUser): Promise<StoredUser | 'exists'>;
  findUser(by: UserLookup): Promise<StoredUser | undefined>;
  countUsers(): Promise<number>;
  /** Replaces a user's password and API key hashes (a demo user's new password at each start). */
  setUserSecrets(id: string, secrets: Pick<NewUser, 'passwordHash' | 'apiKeyHash'>): Promise<void>;
  /** Every user, by email, up to `limit`. */
  listUsers(limit: number): Promise<StoredUser[]>;
  /** Changes a user; their new self, or undefined when there is no such user. */
  updateUser(id: string, patch: UserPatch): Promise<StoredUser | undefined>;
  addUserLink(link: UserLink): Promise<void>;
  /** Uses a link once, if it is unused and unexpired at `now` (ISO 8601): whose, and for what. */
  redeemUserLink(tokenHash: string, now: string): Promise<Pick<UserLink, 'userId' | 'purpose'> | undefined>;
  /**
   * An aggregate over an entity's records that meet a condition (`count(…)` in a rule of point 5),
   * computed by the database: `count` and `sum` of nothing are 0, `exists` false, `min` and `max` null.
   */
  aggregate(query: AggregateQuery): Promise<JsonValue>;
  /**
   * A dashboard figure's groups (one group, keyed null, when it has no `by`), computed by the database
   * with one GROUP BY and remembered until the entity is written to.
   */
  figureGroups(query: FigureQuery): Promise<FigureGroup[]>;
  /**
   * Makes the writers that check rules over these entities take turns until the transaction ends, so
   * that two creates cannot both count 2 of a limit of 3. Only inside a transaction. PostgreSQL takes
   * advisory locks; SQLite's write transaction already holds the whole database.
   */
  lockForRules(entities: string[]): Promise<void>;
  /**
   * Makes another process's migration of the schema wait until the transaction ends (PostgreSQL; SQLite's
   * write transaction already holds the whole database). The seed holds it: two nodes started together
   * deadlocked when one migrated (its indexes waiting on the seed's inserts) while the other seeded (its
   * own tables waiting on that migration).
   */
  lockSchema(): Promise<void>;
  /**
   * The next number of an entity's numbered field, taken inside the caller's transaction (so a refused
   * write gives it back). A new counter gives 1 first.
   */
  nextNumber(entity: string, field: string): Promise<number>;
  /** The keys of the records imports made of content with these hashes, by hash (import-table.ts). */
  importedBefore(entity: string, hashes: readonly string[]): Promise<Map<string, string>>;
  /** Remembers, in the caller's transaction, that an import made these records of content with these hashes. */
  rememberImported(entity: string, made: ReadonlyArray<{ hash: string; key: string }>): Promise<void>;
  /**
   * Changes one field of a record where it is (point 4's updates of other records: `stock -= 3` is
   * computed by the database, so two transitions taking stock at once both count), bumping its
   * version. The record after the change, or undefined when there is no such record.
   */
  change(
    entity: string,
    key: RecordKey,
    field: string,
    op: '=' | '+=' | '-=',
    value: JsonValue,
  ): Promise<StoredRecord | undefined>;
  /** Runs `work` in one transaction (seeding, multi-row changes). */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction: runs `work` under a savepoint, so that if it throws, only what it wrote is
   * taken back and the transaction goes on (one refused row of an import among many).
   */
  savepoint<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Whether this node can answer now: its tables were brought in line with the model (`migrate`), and the
   * database answers a query within a bound.
   */
  readiness(): Promise<Readiness>;
  /** Writes entries of the audit trail, in the caller's transaction when it is in one. */
  appendAudit(entries: readonly NewAuditEntry[]): Promise<void>;
  /** Entries of the audit trail, newest first, as stored: what a reader may see of them is the API's to say. */
  auditEntries(query: AuditQuery): Promise<AuditEntry[]>;
  /** Removes the entries written before `at` (ISO 8601): the retention of the audit trail. */
  pruneAudit(at: string): Promise<number>;
  /** The pool's connections now (PostgreSQL); SQLite has one connection and no pool. */
  poolStats(): PoolStats | undefined;
  close(): Promise<void>;
}

/** What a write was: made by a call of the API, on one record. */
export type AuditAction = 'create' | 'update' | 'transition' | 'delete';

export interface NewAuditEntry {
  /** ISO 8601. */
  at: string;
  entity: string;
  /** The record's key as text (a composite key as its text). */
  key: string;
  action: AuditAction;
  /** The transition of point 4, for `transition`. */
  transition?: string;
  /** The call that made it: its method and route, `PATCH /api/orders/:id`. */
  call: string;
  /** Who, when someone signed in: their id and their name as the API shows people. */
  by: { id: string; name: string | null } | null;
  /** The record before the write (none for a create) and after it (none for a delete), whole. */
  before: StoredRecord | null;
  after: StoredRecord | null;
}

/** What an entry says besides the record it wrote: when, through which call, and who. */
export type AuditStamp = Pick<NewAuditEntry, 'at' | 'call' | 'by'>;

export interface AuditEntry extends NewAuditEntry {
  /** Orders the entries: times can tie, insertion order cannot. */
  seq: number;
}

export interface AuditQuery {
  entity?: string;
  key?: string;
  /** Only entries older than this one (paging back). */
  before?: number;
  limit: number;
}

export type Readiness = { ready: true } | { ready: false; reason: string };

export interface PoolStats {
  total: number;
  idle: number;
  /** Queries waiting for a connection: a pool too small for the load. */
  waiting: number;
}

/** A count, sum or average over the records that meet `where`, grouped by a field or its period. */
export interface FigureQuery {
  entity: string;
  measure: FigureMeasure;
  field?: string;
  by?: string;
  per?: FigurePeriod;
  where: RecordCondition;
}

export interface VersionedRecord {
  record: StoredRecord;
  version: number;
}

/** One transition taken; `by` is null when nobody was signed in (no permissions apply). */
export interface HistoryEntry {
  transition: string;
  from: string;
  to: string;
  by: { id: string; email: string | null } | null;
  /** ISO 8601. */
  at: string;
}

export interface IdempotencyClaim {
  /** Hash of the key, who sends it, the method and the path. */
  id: string;
  /** Tells this claim from a later one of the same key (after a lease ran out). */
  token: string;
  /** Hash of what the request asks: the same key with another fingerprint is a mistake. */
  fingerprint: string;
  /** Milliseconds since the epoch, like the two below. */
  now: number;
  /** Until when the claim is being handled; after, a process that died is assumed. */
  leaseUntil: number;
  expiresAt: number;
  /** The node handling it, while that node holds its lock (PostgreSQL); the store fills it in. */
  holder?: number;
}

export interface IdempotencyEntry {
  fingerprint: string;
  /** Absent while the first request is still being handled. */
  answer?: StoredAnswer;
}

/** An answer as it is replayed: status, the headers that matter, and the body's bytes. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** An uploaded file's bytes and what the client said about them. */
export interface NewFile {
  name: string;
  /** The content type it was sent with, served back as it is (with `nosniff`, as an attachment). */
  type: string;
  bytes: Uint8Array;
}

export interface StoredFile extends NewFile {
  id: string;
  size: number;
}

/** A user of the prototype API's own sign-in: secrets are kept only as hashes. */
export interface NewUser {
  email: string;
  /** A role of point 6. */
  role: string;
  /** `hashPassword`'s output; absent for a user who signs in only with an API key. */
  passwordHash?: string;
  /** SHA-256 of the user's API key, hex. */
  apiKeyHash?: string;
  /** What permission conditions read besides `user.id`, `user.email` and `user.role`, e.g. `customerId`. */
  attributes: Record<string, JsonValue>;
}

export interface StoredUser extends NewUser {
  id: string;
  /** When a manager of people deactivated them (ISO 8601): every credential of theirs is refused. */
  deactivatedAt?: string;
  /** Counts up each time their sessions are ended: a token carries the count it was issued at. */
  sessions?: number;
}

/** A change of a user; `deactivatedAt: null` reactivates them, `endSessions` refuses their tokens. */
export interface UserPatch {
  role?: string;
  attributes?: Record<string, JsonValue>;
  deactivatedAt?: string | null;
  passwordHash?: string;
  endSessions?: true;
}

/** A one-use link of an invitation or a password reset: only its token's hash is kept. */
export interface UserLink {
  tokenHash: string;
  userId: string;
  purpose: 'invitation' | 'reset';
  /** ISO 8601. */
  expiresAt: string;
}

export type UserLookup = { id: string } | { email: string } | { apiKeyHash: string };

export interface StoreOptions {
  model: Model;
  /** `sqlite:path/to/file.db`, `sqlite::memory:`, or `postgres://...`. */
  url: string;
  /** PostgreSQL schema to use (tests give each run its own); created if missing. */
  schema?: string;
  /**
   * A connection straight to PostgreSQL for the one connection that listens for changes and holds the
   * node's lock of life, when `url` goes through a pooler in transaction mode (PgBouncer's), where
   * neither lasts past a transaction. Every other query may go through the pooler.
   */
  directUrl?: string;
}
