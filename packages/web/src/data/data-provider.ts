import type {
  Call,
  CsvFormat,
  CsvImportReport,
  Figure,
  FigureAnswer,
  FigurePeriod,
  FilterParam,
  JsonValue,
  SortKey,
} from '@ninefold/model';
import type { ConnectionValues } from './connection-values';
import type { LiveHandlers } from './live-events';
import type { NetworkStatus } from './network-status';

/** A stored record as the API answers it: field name -> value. */
export type ApiRecord = Record<string, JsonValue>;

/** Which page of a list to fetch, in the call's own pagination style. */
export type PageRequest =
  | { style: 'page'; page: number; size: number }
  | { style: 'offset'; offset: number; limit: number }
  | { style: 'cursor'; cursor?: string; size: number }
  | { style: 'link-header'; page: number; size?: number }
  | { style: 'none' };

export interface FilterValue {
  field: string;
  op: FilterParam['op'];
  /** The text the person typed or chose; `in` takes several. */
  value: string | string[];
}

export interface ListParams {
  entity: string;
  /** The list call to make when the entity has several (a screen's own); absent means the first. */
  call?: string;
  /** Values for the call's path parameters, e.g. a parent id of a nested collection. */
  path?: Record<string, string>;
  page: PageRequest;
  sort: SortKey[];
  filters: FilterValue[];
  /** Free text for the call's search parameter (point 7); left out when the call names none. */
  search?: string;
  signal?: AbortSignal;
}

export interface ListResult {
  items: ApiRecord[];
  /** Known when the API answers a total (an envelope field or `X-Total-Count`). */
  total?: number;
  /** The cursor of the next page (cursor style); null on the last page. */
  next?: string | null;
  /** Whether another page follows (link-header style, or derived from the total). */
  hasNext?: boolean;
}

/**
 * Values for a call's path parameters other than the record's key: the parents of a nested record
 * (`/accounts/{accountSid}/addresses/{sid}`), from the screen's route. They also choose the call when
 * an entity has several of a purpose (a top-level and a nested create).
 */
export type PathValues = Readonly<Record<string, string>>;

export interface GetParams {
  entity: string;
  id: string;
  path?: PathValues;
  signal?: AbortSignal;
}

export interface CreateParams {
  entity: string;
  path?: PathValues;
  /** Field values; `File` objects for file fields, sent as multipart when the call says so. */
  values: Record<string, unknown>;
  /**
   * Sent as `Idempotency-Key` (1 to 200 visible ASCII characters). The same key for every try of the same
   * save (a double click, a retry, a save again after a reload) makes the API create the record once and
   * answer the others with that first answer. With a key the create is retried after a lost answer;
   * without one it never is.
   */
  idempotencyKey?: string;
}

export interface UpdateParams {
  entity: string;
  id: string;
  path?: PathValues;
  /** Only the changed fields; null clears one. */
  values: Record<string, unknown>;
  /** The ETag the record was read with, sent as `If-Match` so that a lost update is refused. */
  version?: string;
}

export interface DeleteParams {
  entity: string;
  id: string;
  path?: PathValues;
}

export interface TransitionParams {
  entity: string;
  id: string;
  path?: PathValues;
  transition: string;
  version?: string;
  /** As for `CreateParams`: the transition is taken once, and retried only with a key. */
  idempotencyKey?: string;
}

/** A record with the version (ETag) it was read at. */
export interface VersionedRecord {
  record: ApiRecord;
  version?: string;
}

/** What the specification lets the client do with an entity: one call per purpose, or none. */
export interface EntityCalls {
  /** The entity's first list call: its main collection. */
  list?: Call;
  /** Every list call of the entity, e.g. a collection and a feed of the same records. */
  lists: Call[];
  get?: Call;
  create?: Call;
  update?: Call;
  delete?: Call;
  transitions: Record<string, Call>;
  /** Every call of the entity, for choosing among several of a purpose by the parents at hand. */
  all: Call[];
}

/**
 * The one small interface between screens and the network (after react-admin's DataProvider). Screens
 * never build URLs; they ask for records by entity, and the implementation turns that into the calls the
 * specification names. Every method rejects with an `ApiError` or a `NetworkError`.
 */
/** Rows of a CSV file to make records of (`DataProvider.importRows`), each keyed by field name. */
export interface ImportParams {
  entity: string;
  rows: Array<Record<string, string>>;
  dryRun: boolean;
  /** A unique field that finds the record a row is about; absent: every row is a new record. */
  match?: string;
  existing: 'skip' | 'update';
  /** The file's row number of the first row (a header is row 1), for the report. */
  firstRow: number;
  /** Each row's number in the file, when the rows sent are not consecutive. */
  rowNumbers?: number[];
  /** How the file writes numbers and dates; absent, the API reads it from the values. */
  format?: CsvFormat;
  /** A part sent again with its key is answered as the first time and written once. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** Whose names a names call reads: records of an entity, or the people that person fields hold. */
export type NamesOf = { kind: 'records'; entity: string } | { kind: 'people' };

export interface NamesParams {
  of: NamesOf;
  /** At most `MAX_NAMES_ASKED` a request. */
  ids?: string[];
  /** Instead of ids, the text the names hold (a filter by name): the API answers its first matches. */
  search?: string;
  signal?: AbortSignal;
}

/** A dashboard figure of point 2, asked of the API (`DataProvider.figure`). */
export interface FigureParams {
  /** The dashboard screen it is on. */
  screen: string;
  figure: Figure;
  /** For a figure over time, the period the person chose; without it, the API chooses one that fits. */
  per?: FigurePeriod | undefined;
  signal?: AbortSignal;
}

/** The most ids one names request carries (the prototype API's limit). */
export const MAX_NAMES_ASKED = 100;

/** What an import did, or (a dry run) would do. */
export type ImportReport = CsvImportReport;

export interface DataProvider {
  /** The calls available per entity; a screen offers only actions whose call exists. */
  calls(entity: string): EntityCalls;
  list(params: ListParams): Promise<ListResult>;
  get(params: GetParams): Promise<VersionedRecord>;
  create(params: CreateParams): Promise<VersionedRecord>;
  update(params: UpdateParams): Promise<VersionedRecord>;
  delete(params: DeleteParams): Promise<void>;
  transition(params: TransitionParams): Promise<VersionedRecord>;
  /**
   * A stored file's bytes, fetched with the session's credentials: a plain link cannot carry them, and
   * they never go in the address. Absent where files are plain links (no sign-in, in-memory data).
   */
  download?(url: string): Promise<Blob>;
  /**
   * Makes records from rows by the create call's own checks (Ninefold's prototype API,
   * `POST {import}/{Entity}`); absent where the API takes no import.
   */
  importRows?(params: ImportParams): Promise<ImportReport>;
  /**
   * The whole list with these filters and sort, as a CSV file the API makes (`Accept: text/csv`), with
   * what the role may read only. Absent where the API makes none (a real API, in-memory data).
   */
  exportCsv?(params: ListParams): Promise<Blob>;
  /**
   * Names of the records (or people) behind ids the role sees but may not open: a customer's name on an
   * order the warehouse reads, who entered it. Ninefold's prototype API answers them (`GET {names}/…`,
   * `GET {people}`) for the ids the role already sees, and leaves the others out. Absent elsewhere: a
   * real API says nothing of the kind, so those ids stay ids.
   */
  names?(params: NamesParams): Promise<ReadonlyMap<string, JsonValue>>;
  /**
   * A dashboard figure, computed by the API: Ninefold's prototype API answers every figure in SQL
   * (`GET {figures}/…`); another API answers one that names a call of point 7. Absent where neither is
   * so for any figure; `answersFigure` tells which figures this provider answers.
   */
  figure?(params: FigureParams): Promise<FigureAnswer>;
  answersFigure?(figure: Figure): boolean;
  /**
   * Follows changes to records made by anyone, as they happen (Ninefold's prototype API streams them,
   * `GET {events}`); answers a function that stops. Absent where the API has no such stream: then
   * screens show what they read, as before.
   */
  follow?(handlers: LiveHandlers): () => void;
  /** Whether the API answered lately, as this provider's requests found it: the shell's offline banner. */
  readonly network?: NetworkStatus;
  /** Values the API asks for with its calls that the person gives once (see `askedParameters`). */
  readonly connection?: ConnectionValues;
}

/** One field problem in an API answer, already mapped to a JSON Pointer into the record. */
export interface ApiFieldError {
  pointer: string;
  message: string;
  code?: string;
}

/** What some answers carry beside the problem's text. */
export interface ApiErrorExtras {
  /** A 412's record as it is now (the fields the role may read), from the problem's `current` member. */
  current?: ApiRecord;
  /** The version (ETag) of `current`, from the 412's `ETag` header: send it to overwrite on purpose. */
  currentVersion?: string;
  /** How long the API asked to wait before trying again (`Retry-After`), in seconds. */
  retryAfterSeconds?: number;
}

/**
 * A non-success answer. Only the parts of the problem a person may see are kept (strings, clipped);
 * the raw body is never shown.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly current?: ApiRecord;
  readonly currentVersion?: string;
  readonly retryAfterSeconds?: number;
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | undefined,
    readonly code: string | undefined,
    readonly type: string | undefined,
    readonly fieldErrors: ApiFieldError[],
    /** A server error's reference, for the user to quote. */
    readonly reference: string | undefined,
    extras: ApiErrorExtras = {},
  ) {
    super(detail ?? title);
    if (extras.current !== undefined) this.current = extras.current;
    if (extras.currentVersion !== undefined) this.currentVersion = extras.currentVersion;
    if (extras.retryAfterSeconds !== undefined) this.retryAfterSeconds = extras.retryAfterSeconds;
  }
}

/** The request never got an answer: offline, refused, timed out or blocked. */
export class NetworkError extends Error {
  override readonly name: string = 'NetworkError';
}

/**
 * A write that was sent and got no answer, to a call the API cannot tell it has seen (no declared
 * `Idempotency-Key`): the server may or may not have done it. It is never sent again by itself; the
 * person is told so, and looks before saving again.
 */
export class UnconfirmedWriteError extends NetworkError {
  override readonly name: string = 'UnconfirmedWriteError';
}
