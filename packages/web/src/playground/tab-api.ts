import type { ApiDescription } from '@ninefold/model';
import {
  aggregateRecords,
  answerFigure,
  checkAction,
  checkFigure,
  type Entity,
  type FigureAnswer,
  figureCondition,
  findEntity,
  formatNumber,
  groupRecords,
  type JsonValue,
  type Model,
  machineOf,
  numberedFields,
  type Principal,
  planAcrossRecords,
  planBeforeRead,
  planCreate,
  planDelete,
  planListQuery,
  planRead,
  planTransition,
  planTransitionAcrossRecords,
  planUpdate,
  presentation,
  type RecordReader,
} from '@ninefold/model';
import type {
  ApiRecord,
  CreateParams,
  DataProvider,
  DeleteParams,
  FigureParams,
  GetParams,
  ListParams,
  ListResult,
  TransitionParams,
  UpdateParams,
  VersionedRecord,
} from '../data/data-provider';
import {
  createMemoryDataProvider,
  type MemoryDataProvider,
  type MemoryTables,
  pageOf,
} from '../data/memory-data-provider';
import { enforce, refusal, settled } from './tab-refusals';
import { otherChanges, plain } from './tab-writes';

export interface TabApiOptions {
  /** Who is asking: the role switcher's choice, read on every call. */
  principal: () => Principal;
  now?: () => Date;
  /**
   * The records and numbers, kept from the API of the text's last version: an edit keeps what was
   * entered in the preview, and nothing is copied (GitHub's description has 281 entities).
   */
  state?: TabState;
}

/** What the tab's API holds between versions of the text. */
export interface TabState {
  tables: MemoryTables;
  /** The last number given per numbered field (`Order.number`). */
  numbers: Map<string, number>;
}

export function newTabState(): TabState {
  return { tables: new Map(), numbers: new Map() };
}

/** The prototype API in the tab, as the data interface the client reads through. */
export type TabApi = DataProvider;

/**
 * The prototype API of `ninefold serve`, run in the page for the playground: the same rules of
 * `packages/model` in the same order as packages/server (record-writes.ts, access.ts, app.ts), on records
 * held in memory. Reads give what the role may read; writes are refused as the server refuses them (the
 * role, its fields, the initial state, point 5's constraints, references, unique values, rules across
 * records, the grant's condition on the record as it will be); transitions are taken with their guards
 * and their changes to other records, all or nothing.
 *
 * The API cases of test/api-cases run against this and against `serve`, so that the two agree.
 *
 * @example
 * ```ts
 * const api = createTabApi(model, describeCalls(model), seed, { principal: () => ({ role: 'clerk', user }) });
 * await api.create({ entity: 'Order', values: { customer: 1 } }); // 403 FORBIDDEN for a role without create
 * ```
 */
export function createTabApi(
  model: Model,
  api: ApiDescription,
  seed: Record<string, ApiRecord[]>,
  options: TabApiOptions,
): TabApi {
  const now = options.now ?? (() => new Date());
  const state = options.state ?? newTabState();
  const fresh = Object.keys(seed).filter((name) => !state.tables.has(name));
  const store: MemoryDataProvider = createMemoryDataProvider(model, api, seed, {
    now,
    tables: state.tables,
    principal: () => options.principal(),
  });
  const numbers = state.numbers;
  for (const name of fresh) countNumbers(name, seed[name] ?? []);

  function countNumbers(name: string, records: ApiRecord[]) {
    const entity = findEntity(model, name);
    for (const { field, pattern } of entity ? numberedFields(entity) : []) {
      const at = `${name}.${field}`;
      for (const record of records) {
        const text = record[field];
        if (typeof text !== 'string' || !text.startsWith(pattern.prefix)) continue;
        const value = Number.parseInt(text.slice(pattern.prefix.length), 10);
        if (Number.isFinite(value)) numbers.set(at, Math.max(numbers.get(at) ?? 0, value));
      }
    }
  }

  const principal = () => options.principal();
  const user = () => principal().user;
  const entityOf = (name: string): Entity => {
    const entity = findEntity(model, name);
    if (!entity) throw refusal(404, 'NO_SUCH_CALL', `There is no entity ${name}.`);
    return entity;
  };
  const rows = (entity: string) => store.records(entity) as Array<Record<string, JsonValue>>;
  const keyOf = (entity: Entity) => entity.key ?? 'id';
  const findRow = (entity: Entity, id: string) =>
    rows(entity.name).find((record) => String(record[keyOf(entity)]) === id);
  const reader: RecordReader = {
    aggregate: (query) => aggregateRecords(rows(query.entity), query),
    lookup: (entity, key) => {
      const found = findEntity(model, entity);
      return found ? findRow(found, String(key)) : undefined;
    },
  };

  /** What the role sees of a record, as the prototype API shows it (the core's `presentation`). */
  const presenter = (entity: Entity) => presentation(model, principal(), entity).present;
  const present = (entity: Entity, found: VersionedRecord): VersionedRecord => ({
    ...found,
    record: presenter(entity)(found.record),
  });

  const loaded = async (entity: Entity, id: string, path: GetParams['path']) =>
    store.get({ entity: entity.name, id, ...(path ? { path } : {}) });

  /** Who writes now, for the core's write plans, reading the tab's records. */
  const actorNow = () => ({ principal: principal(), now: now(), reader });

  return {
    ...store,

    async list(params: ListParams): Promise<ListResult> {
      const entity = entityOf(params.entity);
      enforce(checkAction(model, principal(), entity.name, 'read'));
      settled(
        planListQuery(model, principal(), entity, {
          fields: [...params.filters.map((filter) => filter.field), ...params.sort.map((key) => key.field)],
        }),
      );
      const all = await store.list({ ...params, page: { style: 'none' } });
      const readable = all.items.filter(
        (record) => checkAction(model, principal(), entity.name, 'read', record).allowed,
      );
      const page = pageOf(readable, params.page);
      return { ...page, items: page.items.map(presenter(entity)) };
    },

    async get(params: GetParams) {
      const entity = entityOf(params.entity);
      enforce(checkAction(model, principal(), entity.name, 'read'));
      const found = await loaded(entity, params.id, params.path);
      settled(planRead(model, actorNow(), entity, found.record as Record<string, JsonValue>));
      return present(entity, found);
    },

    async create(params: CreateParams) {
      const entity = entityOf(params.entity);
      const actor = actorNow();
      let values = settled(await planCreate(model, entity, plain(params.values), actor)).record;
      values = settled(
        await planAcrossRecords(model, entity, { mode: 'create', record: values }, actor),
      ).record;
      for (const { field, pattern } of numberedFields(entity)) {
        const at = `${entity.name}.${field}`;
        const next = (numbers.get(at) ?? 0) + 1;
        numbers.set(at, next);
        values[field] = formatNumber(pattern, next);
      }
      const made = await store.create({
        entity: entity.name,
        values,
        ...(params.path ? { path: params.path } : {}),
        ...(params.idempotencyKey ? { idempotencyKey: params.idempotencyKey } : {}),
      });
      return present(entity, made);
    },

    async update(params: UpdateParams) {
      const entity = entityOf(params.entity);
      const actor = actorNow();
      settled(planBeforeRead(model, actor, { kind: 'update', entity }));
      const current = await loaded(entity, params.id, params.path);
      const old = current.record as Record<string, JsonValue>;
      const versions = { sent: params.version, current: current.version ?? '', required: true };
      const planned = await planUpdate(model, entity, old, plain(params.values), actor, { versions });
      if (!planned.ok && planned.refusal.code === 'CHANGED_SINCE_READ') {
        // The record as it is now goes with the refusal, so that the person can compare and choose.
        const { status, code, message } = planned.refusal;
        throw refusal(status, code, message, [], {
          current: presenter(entity)(old),
          ...(current.version ? { currentVersion: current.version } : {}),
        });
      }
      const { stored, record } = settled(planned);
      settled(await planAcrossRecords(model, entity, { mode: 'update', record, old }, actor));
      const saved = await store.update({
        entity: entity.name,
        id: params.id,
        values: stored,
        ...(params.version === undefined ? {} : { version: params.version }),
        ...(params.path ? { path: params.path } : {}),
      });
      return present(entity, saved);
    },

    async delete(params: DeleteParams) {
      const entity = entityOf(params.entity);
      const actor = actorNow();
      settled(planBeforeRead(model, actor, { kind: 'delete', entity }));
      const found = await loaded(entity, params.id, params.path);
      settled(await planDelete(model, entity, found.record as Record<string, JsonValue>, actor));
      await store.delete(params);
    },

    async transition(params: TransitionParams) {
      const entity = entityOf(params.entity);
      const machine = machineOf(model, entity);
      const step = machine?.transitions.find((candidate) => candidate.name === params.transition);
      if (!machine || !step) {
        throw refusal(501, 'NOT_IMPLEMENTED', `No transition of point 4 is taken by ${params.transition}.`);
      }
      const actor = actorNow();
      settled(planBeforeRead(model, actor, { kind: 'transition', machine, step }));
      const current = await loaded(entity, params.id, params.path);
      const record = current.record as Record<string, JsonValue>;
      const versions = { sent: params.version, current: current.version ?? '', required: false };
      const { change } = settled(planTransition(model, machine, step, record, actor, versions));
      settled(await planTransitionAcrossRecords(model, machine, step, record, change, actor));
      // Other records change with the transition or not at all: every change is worked out and checked
      // before any is written.
      const by = user();
      const changes = otherChanges(
        model,
        machine,
        step,
        record,
        { now: actor.now, ...(by ? { user: by } : {}) },
        reader,
      );
      const taken = await store.transition(params);
      for (const change of changes) {
        const target = findRow(entityOf(change.entity), change.key);
        const version = target ? await loaded(entityOf(change.entity), change.key, undefined) : undefined;
        await store.update({
          entity: change.entity,
          id: change.key,
          values: change.values,
          ...(version?.version ? { version: version.version } : {}),
        });
      }
      return present(entity, taken);
    },

    answersFigure: () => true,
    async figure(params: FigureParams): Promise<FigureAnswer> {
      const entity = entityOf(params.figure.entity);
      const where = figureCondition(model, entity, params.figure);
      if (!where) throw refusal(500, 'SERVER_ERROR', `Figure ${params.figure.name} cannot be computed.`);
      enforce(checkFigure(model, principal(), entity, params.figure, where));
      const readable = rows(entity.name).filter(
        (record) => checkAction(model, principal(), entity.name, 'read', record).allowed,
      );
      return answerFigure(params.figure, params.per, (figure) => groupRecords(readable, figure, where));
    },
  };
}
