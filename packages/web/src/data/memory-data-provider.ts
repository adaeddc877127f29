import type { ApiDescription } from '@ninefold/model';
import {
  aggregateRecords,
  answerFigure,
  changedSinceReadMessage,
  compositeKeyOf,
  DEFAULT_PAGE_SIZE,
  derivedValues,
  type Entity,
  exhaustiveSwitchError,
  type FigureAnswer,
  figureCondition,
  findEntity,
  groupRecords,
  hasNumericKey,
  type JsonValue,
  type Model,
  machineOf,
  matchesSearch,
  notFoundMessage,
  type Planned,
  type Principal,
  planAcrossRecords,
  planBeforeRead,
  planCreate,
  planDelete,
  planTransition,
  planTransitionAcrossRecords,
  planUpdate,
  type RecordReader,
  searchableFields,
  searchFields,
  searchTerms,
  type WriteActor,
  withDefaults,
} from '@ninefold/model';
import {
  ApiError,
  type ApiRecord,
  type CreateParams,
  type DataProvider,
  type DeleteParams,
  type FigureParams,
  type FilterValue,
  type GetParams,
  type ListParams,
  type ListResult,
  NetworkError,
  type PageRequest,
  type TransitionParams,
  type UpdateParams,
  type VersionedRecord,
} from './data-provider';
import { entityCallsLookup, requireCall, requireListCall, requireTransitionCall } from './entity-calls';
import { createNetworkStatus, type NetworkStatus } from './network-status';
import { refusalError } from './refusal-error';

export type DataMethod = 'list' | 'get' | 'create' | 'update' | 'delete' | 'transition' | 'figure';

/** One call a screen made, as a component test asserts it. */
export interface LoggedCall {
  method: DataMethod;
  params: unknown;
}

export interface MemoryDataProviderOptions {
  /**
   * Run the core's write plans on creates, updates and deletes, refusing as the prototype API does (a
   * 422 with field errors, a state set by hand, a reference to nothing, a record still referenced). Off
   * by default so that tests can store partial records.
   */
  validate?: boolean;
  /**
   * Who is asking, for point 6: a search looks only in the fields the role may read (the core's
   * `searchableFields`), and, when `validate` is on, the write plans check the role. Without it, the plans
   * check everything but the role (a test double with nobody signed in).
   */
  principal?: () => Principal;
  /** The clock for transition guards and effects; tests pin it. */
  now?: () => Date;
  /**
   * Where the records live, to share them with the provider of the model's next version (the
   * playground makes one per edit): entities the map holds already are not seeded again, and nothing
   * is copied from one version to the next.
   */
  tables?: MemoryTables;
}

/** The records a memory provider holds, by entity. */
export type MemoryTables = Map<
  string,
  { rows: Array<{ record: ApiRecord; version: number }>; nextKey: number }
>;

/** The in-memory fake of the data interface that component tests use in place of the network. */
export interface MemoryDataProvider extends DataProvider {
  /** Every call made, in order, with the params it was given. */
  readonly log: LoggedCall[];
  /** Makes the next call of this method fail with this error (queued: two calls fail two calls). */
  failNext(method: DataMethod, error: ApiError | NetworkError): void;
  /** A copy of the records stored for an entity, in the order they were created. */
  records(entity: string): ApiRecord[];
  /** Told when a call fails with a `NetworkError` and when one succeeds, like the HTTP provider's. */
  readonly network: NetworkStatus;
}

/** Page size for a link-header request that names none, as the prototype API's default. */

/**
 * A `DataProvider` that keeps records in memory: sorts, filters (eq, contains, gte, lte, in), pages in
 * every request style, assigns keys, keeps a version per record (refusing a stale `version` with a 412
 * like the prototype API, with the record as it is now), takes transitions with the shared rules, does a
 * create or transition given an `idempotencyKey` once and answers its repeats with the first answer (or
 * refusal), and logs every call. `calls(entity)`
 * answers exactly as the HTTP provider does, and a method whose call the specification does not name
 * rejects the same way.
 *
 * @example
 * ```ts
 * const data = createMemoryDataProvider(model, api, { Customer: [{ id: 1, name: 'Anna' }] });
 * data.failNext('list', new NetworkError('offline'));
 * render(<App data={data} />);
 * expect(data.log).toContainEqual({ method: 'list', params: expect.objectContaining({ entity: 'Customer' }) });
 * ```
 */
export function createMemoryDataProvider(
  model: Model,
  api: ApiDescription,
  seed: Record<string, ApiRecord[]> = {},
  options: MemoryDataProviderOptions = {},
): MemoryDataProvider {
  const now = options.now ?? (() => new Date());
  const callsOf = entityCallsLookup(api, model);
  const log: LoggedCall[] = [];
  const failures = new Map<DataMethod, Array<ApiError | NetworkError>>();
  const tables: MemoryTables = options.tables ?? new Map<string, Table>();
  const network = createNetworkStatus();
  /** First answers (or refusals) of keyed calls, by method, entity, record and key. */
  const replays = new Map<string, { sent: string; outcome: Promise<unknown> }>();
  let fileCount = 0;

  // An entity's seed is copied in when the entity is first used: GitHub's 281 entities in the playground
  // would otherwise be copied whole for every version of the text, most never looked at.
  const unseeded = new Map(Object.entries(seed).filter(([name]) => !tables.has(name)));
  const table = (name: string): Table => {
    let found = tables.get(name);
    if (!found) {
      found = { rows: [], nextKey: 1 };
      tables.set(name, found);
      const records = unseeded.get(name) ?? [];
      unseeded.delete(name);
      const entity = findEntity(model, name);
      for (const record of records) {
        const stored = clone(record);
        if (entity) assignKey(entity, found, stored);
        found.rows.push({ record: stored, version: 1 });
      }
    }
    return found;
  };

  /** Logs the call, then either fails it as a test asked or runs it, always asynchronously. */
  const run = async <T>(method: DataMethod, params: unknown, body: () => T | Promise<T>): Promise<T> => {
    log.push({ method, params });
    await Promise.resolve();
    const signal = (params as { signal?: AbortSignal }).signal;
    signal?.throwIfAborted();
    const queued = failures.get(method);
    const failure = queued?.shift();
    if (failure) {
      if (failure instanceof NetworkError) network.unanswered();
      else network.answered();
      throw failure;
    }
    network.answered();
    return body();
  };

  /**
   * A keyed call runs once; a repeat with the same key and values gets a copy of the first outcome, and
   * with other values the prototype API's refusal.
   */
  const once = async <T>(
    replayKey: string | undefined,
    values: unknown,
    body: () => Promise<T>,
  ): Promise<T> => {
    if (replayKey === undefined) return body();
    const sent = JSON.stringify(values ?? null);
    const known = replays.get(replayKey);
    if (known && known.sent !== sent) {
      throw new ApiError(
        422,
        'Idempotency key reused',
        'This idempotency key was used for another request.',
        'IDEMPOTENCY_KEY_REUSED',
        undefined,
        [],
        undefined,
      );
    }
    // A repeat sent while the first is still running waits for its outcome, as the API's claim makes it.
    if (known) return clone((await known.outcome) as JsonValue) as T;
    const outcome = body();
    replays.set(replayKey, { sent, outcome });
    try {
      return clone((await outcome) as JsonValue) as T;
    } catch (error) {
      // A 5xx is not kept, as the prototype API does not: a repeat runs again.
      if (error instanceof ApiError && error.status >= 500) replays.delete(replayKey);
      throw error;
    }
  };
  const keyOf = (parts: string[], key: string | undefined) =>
    key === undefined ? undefined : JSON.stringify([...parts, key]);

  const entityOf = (name: string): Entity => {
    const entity = findEntity(model, name);
    if (!entity)
      throw new ApiError(
        404,
        'Not found',
        `There is no entity ${name}.`,
        'NO_SUCH_CALL',
        undefined,
        [],
        undefined,
      );
    return entity;
  };

  const find = (entity: Entity, id: string): Row => {
    const key = entity.key ?? 'id';
    const row = table(entity.name).rows.find((candidate) => String(candidate.record[key]) === id);
    if (!row) {
      throw new ApiError(
        404,
        'Not found',
        notFoundMessage(entity, id),
        'NOT_FOUND',
        undefined,
        [],
        undefined,
      );
    }
    return row;
  };

  const checkVersion = (row: Row, version: string | undefined, entity: Entity, id: string) => {
    if (version !== undefined && version !== etag(row.version)) {
      throw new ApiError(
        412,
        'Precondition failed',
        changedSinceReadMessage(entity, id),
        'CHANGED_SINCE_READ',
        undefined,
        [],
        undefined,
        { current: clone(row.record), currentVersion: etag(row.version) },
      );
    }
  };

  const toValues = (values: Record<string, unknown>): Record<string, JsonValue> => {
    const out: Record<string, JsonValue> = {};
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (isBlob(value)) {
        fileCount += 1;
        out[name] = {
          name: 'name' in value && typeof value.name === 'string' ? value.name : 'file',
          type: value.type,
          size: value.size,
          id: `file-${fileCount}`,
          url: `memory:files/${fileCount}`,
        };
      } else {
        out[name] = clone(value as JsonValue);
      }
    }
    return out;
  };

  const rowsOf = (name: string) => table(name).rows.map((row) => row.record as Record<string, JsonValue>);
  const reader: RecordReader = {
    aggregate: (query) => aggregateRecords(rowsOf(query.entity), query),
    lookup: (name, key) => {
      const entity = findEntity(model, name);
      const field = entity?.key ?? 'id';
      return entity ? rowsOf(name).find((record) => String(record[field]) === String(key)) : undefined;
    },
  };
  /** Who writes, for the core's write plans; the role is asked only of a provider given a principal. */
  const actor = (): WriteActor & { reader: RecordReader } => ({
    principal: options.validate && options.principal ? options.principal() : 'unchecked',
    now: now(),
    reader,
  });
  /** A plan's outcome, or its refusal thrown; a stale version's carries the record as it is now. */
  const settled = <T extends object>(planned: Planned<T>, row?: Row): T => {
    if (planned.ok) return planned;
    const stale = row && planned.refusal.code === 'CHANGED_SINCE_READ';
    throw refusalError(
      planned.refusal,
      stale ? { current: clone(row.record), currentVersion: etag(row.version) } : {},
    );
  };

  const versioned = (row: Row): VersionedRecord => ({
    record: clone(row.record),
    version: etag(row.version),
  });

  return {
    log,
    network,
    failNext(method, error) {
      const queued = failures.get(method) ?? [];
      queued.push(error);
      failures.set(method, queued);
    },
    records(entity) {
      return table(entity).rows.map((row) => clone(row.record));
    },
    calls: callsOf,

    // Figures are computed here as the prototype API computes them, with no role to narrow them.
    answersFigure: () => true,
    figure(params: FigureParams) {
      return run('figure', params, (): Promise<FigureAnswer> => {
        const entity = entityOf(params.figure.entity);
        const where = figureCondition(model, entity, params.figure);
        if (!where) throw new Error(`Figure ${params.figure.name}'s condition cannot be computed.`);
        const records = table(entity.name).rows.map((row) => row.record as Record<string, JsonValue>);
        return answerFigure(params.figure, params.per, (figure) => groupRecords(records, figure, where));
      });
    },

    list(params: ListParams) {
      return run('list', params, (): ListResult => {
        requireListCall(callsOf(params.entity), params.entity, params.call);
        const entity = entityOf(params.entity);
        const pathFilters: FilterValue[] = Object.entries(params.path ?? {}).map(([field, value]) => ({
          field,
          op: 'eq',
          value,
        }));
        const call = callsOf(params.entity).lists.find((item) => item.name === params.call);
        const search = (call ?? callsOf(params.entity).list)?.search;
        const terms = search && params.search ? searchTerms(params.search) : [];
        const fields = search ? searchFields(entity, search) : [];
        const searched = options.principal
          ? searchableFields(model, options.principal(), entity, fields)
          : fields;
        const matching = table(entity.name)
          .rows.map((row) => row.record)
          .filter((record) => [...params.filters, ...pathFilters].every((filter) => matches(record, filter)))
          .filter((record) => terms.length === 0 || matchesSearch(record, searched, terms));
        const sorted = sortRecords(matching, params.sort, entity.key ?? 'id');
        return pageOf(sorted, params.page);
      });
    },

    get(params: GetParams) {
      return run('get', params, () => {
        requireCall(callsOf(params.entity), params.entity, 'get');
        return versioned(find(entityOf(params.entity), params.id));
      });
    },

    create(params: CreateParams) {
      return run('create', params, () =>
        once(keyOf(['create', params.entity], params.idempotencyKey), params.values, async () => {
          requireCall(callsOf(params.entity), params.entity, 'create');
          const entity = entityOf(params.entity);
          const values = toValues(params.values);
          let record: ApiRecord;
          if (options.validate) {
            const who = actor();
            const planned = settled(await planCreate(model, entity, values, who)).record;
            record = settled(
              await planAcrossRecords(model, entity, { mode: 'create', record: planned }, who),
            ).record;
          } else {
            // The defaults of every field, read-only ones too: the API fills those itself.
            record = clone(withDefaults(entity, withDefaults(entity, values), true)) as ApiRecord;
            const machine = machineOf(model, entity);
            if (machine) record[machine.field] = machine.initial;
            Object.assign(record, derivedValues(model, entity.name, record));
          }
          const rows = table(entity.name);
          assignKey(entity, rows, record);
          const row = { record, version: 1 };
          rows.rows.push(row);
          return versioned(row);
        }),
      );
    },

    update(params: UpdateParams) {
      return run('update', params, async () => {
        requireCall(callsOf(params.entity), params.entity, 'update');
        const entity = entityOf(params.entity);
        if (options.validate) settled(planBeforeRead(model, actor(), { kind: 'update', entity }));
        const row = find(entity, params.id);
        const change = toValues(params.values);
        let record: ApiRecord;
        if (options.validate) {
          const old = row.record as Record<string, JsonValue>;
          const who = actor();
          const versions = { sent: params.version, current: etag(row.version), required: false };
          const planned = settled(await planUpdate(model, entity, old, change, who, { versions }), row);
          settled(
            await planAcrossRecords(model, entity, { mode: 'update', record: planned.record, old }, who),
          );
          record = { ...old, ...planned.stored };
        } else {
          checkVersion(row, params.version, entity, params.id);
          record = { ...row.record, ...change };
          Object.assign(record, derivedValues(model, entity.name, record));
        }
        row.record = record;
        row.version += 1;
        return versioned(row);
      });
    },

    delete(params: DeleteParams) {
      return run('delete', params, async () => {
        requireCall(callsOf(params.entity), params.entity, 'delete');
        const entity = entityOf(params.entity);
        if (options.validate) settled(planBeforeRead(model, actor(), { kind: 'delete', entity }));
        const row = find(entity, params.id);
        if (options.validate)
          settled(await planDelete(model, entity, row.record as Record<string, JsonValue>, actor()));
        const rows = table(entity.name);
        rows.rows = rows.rows.filter((candidate) => candidate !== row);
      });
    },

    transition(params: TransitionParams) {
      return run('transition', params, () =>
        once(
          keyOf(['transition', params.entity, params.id, params.transition], params.idempotencyKey),
          null,
          async () => {
            requireTransitionCall(callsOf(params.entity), params.entity, params.transition);
            const entity = entityOf(params.entity);
            const machine = machineOf(model, entity);
            const step = machine?.transitions.find((candidate) => candidate.name === params.transition);
            if (!machine || !step) {
              throw new ApiError(
                501,
                'Not implemented',
                `No transition ${params.transition}.`,
                'NOT_IMPLEMENTED',
                undefined,
                [],
                undefined,
              );
            }
            const who = actor();
            settled(planBeforeRead(model, who, { kind: 'transition', machine, step }));
            const row = find(entity, params.id);
            const record = row.record as Record<string, JsonValue>;
            const versions = { sent: params.version, current: etag(row.version), required: false };
            const { change } = settled(planTransition(model, machine, step, record, who, versions), row);
            settled(await planTransitionAcrossRecords(model, machine, step, record, change, who));
            row.record = { ...record, ...change };
            row.version += 1;
            return versioned(row);
          },
        ),
      );
    },
  };
}

interface Row {
  record: ApiRecord;
  version: number;
}

interface Table {
  rows: Row[];
  nextKey: number;
}

function etag(version: number): string {
  return `"${version}"`;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

/** Numeric keys count up past the largest seen; other keys are kept when given, else made up. */
function assignKey(entity: Entity, table: Table, record: ApiRecord): void {
  const key = entity.key ?? 'id';
  // A key made of other fields is theirs, as the prototype API makes it.
  const composite = compositeKeyOf(entity, record as Record<string, JsonValue>);
  if (composite !== undefined) {
    record[key] = composite;
    return;
  }
  const given = record[key];
  if (typeof given === 'number') {
    table.nextKey = Math.max(table.nextKey, given + 1);
    return;
  }
  if (typeof given === 'string' && given !== '') return;
  const next = table.nextKey;
  table.nextKey += 1;
  record[key] = hasNumericKey(entity) ? next : `${entity.name.toLowerCase()}-${next}`;
}

/** Filter text compared with a stored value the way a query string is: as text, numbers as numbers. */
function matches(record: ApiRecord, filter: FilterValue): boolean {
  const stored = record[filter.field];
  if (stored === undefined || stored === null) return false;
  const texts = Array.isArray(filter.value) ? filter.value : [filter.value];
  switch (filter.op) {
    case 'eq':
      return texts.every((text) => equals(stored, text));
    case 'in':
      return texts.some((text) => equals(stored, text));
    case 'contains':
      return texts.every((text) =>
        (Array.isArray(stored) ? stored : [stored]).some((item) =>
          scalarText(item).toLowerCase().includes(text.toLowerCase()),
        ),
      );
    case 'gte':
      return texts.every((text) => compare(stored, text) >= 0);
    case 'lte':
      return texts.every((text) => compare(stored, text) <= 0);
    default:
      return exhaustiveSwitchError(filter.op);
  }
}

function scalarText(value: JsonValue): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function equals(stored: JsonValue, text: string): boolean {
  return Array.isArray(stored)
    ? stored.some((item) => scalarText(item) === text)
    : scalarText(stored) === text;
}

function compare(stored: JsonValue, text: string): number {
  if (typeof stored === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) {
    return stored - Number(text);
  }
  const left = scalarText(stored);
  return left < text ? -1 : left > text ? 1 : 0;
}

/** Sorted by the keys in order, then by the record key so pages never overlap; empty values last. */
function sortRecords(records: ApiRecord[], sort: ListParams['sort'], key: string): ApiRecord[] {
  const keys = [...sort, { field: key, direction: 'asc' as const }];
  return [...records].sort((a, b) => {
    for (const { field, direction } of keys) {
      const order = compareValues(a[field], b[field]);
      if (order !== 0) return direction === 'desc' ? -order : order;
    }
    return 0;
  });
}

function compareValues(a: JsonValue | undefined, b: JsonValue | undefined): number {
  const aEmpty = a === undefined || a === null;
  const bEmpty = b === undefined || b === null;
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = scalarText(a);
  const right = scalarText(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

export function pageOf(records: ApiRecord[], page: PageRequest): ListResult {
  const total = records.length;
  const slice = (offset: number, size: number) => records.slice(offset, offset + size).map(clone);
  switch (page.style) {
    case 'page': {
      const offset = (page.page - 1) * page.size;
      return { items: slice(offset, page.size), total, hasNext: offset + page.size < total };
    }
    case 'offset':
      return { items: slice(page.offset, page.limit), total, hasNext: page.offset + page.limit < total };
    case 'cursor': {
      // The cursor is the offset as text: opaque to the screen, which only hands it back.
      const offset = page.cursor ? Number(page.cursor) || 0 : 0;
      const end = offset + page.size;
      const next = end < total ? String(end) : null;
      return { items: slice(offset, page.size), next, hasNext: next !== null };
    }
    case 'link-header': {
      const size = page.size ?? DEFAULT_PAGE_SIZE;
      const offset = (page.page - 1) * size;
      return { items: slice(offset, size), total, hasNext: offset + size < total };
    }
    case 'none':
      return { items: records.map(clone), total, hasNext: false };
    default:
      return exhaustiveSwitchError(page);
  }
}
