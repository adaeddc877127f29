import {
  type AccessVerdict,
  accessRefusal,
  actingRole,
  type CrudAction,
  checkAction,
  columnKindOf,
  conditionAsData,
  type Entity,
  expressionEnvironment,
  grantFor,
  type Model,
  type Principal,
  permissionsApply,
  planListQuery,
  type RecordCondition,
} from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import type { Authentication } from './auth/authenticate';
import { applied, ProblemError, refusalProblem } from './problem';
import type { ListQuery, ListResult, Store, StoredRecord } from './store/store';

/** Who each request is, found once before its handler runs (see `buildApp`). */
const authentications = new WeakMap<FastifyRequest, Authentication>();

export function rememberAuthentication(request: FastifyRequest, authentication: Authentication): void {
  authentications.set(request, authentication);
}

export function authenticationOf(request: FastifyRequest): Authentication {
  return authentications.get(request) ?? { kind: 'anonymous' };
}

/** The principal the permission rules of `packages/model` are asked about: `{}` for nobody. */
export function principalOf(request: FastifyRequest): Principal {
  const found = authenticationOf(request);
  return found.kind === 'user' ? found.principal : {};
}

/** Throws the answer to a refused verdict: the core's `accessRefusal` (401 for nobody, 403 otherwise). */
export function enforce(verdict: AccessVerdict): void {
  if (!verdict.allowed) throw new ProblemError(refusalProblem(accessRefusal(verdict)));
}

export function requireAction(
  model: Model,
  request: FastifyRequest,
  entity: Entity,
  action: CrudAction,
  record?: StoredRecord,
): void {
  enforce(checkAction(model, principalOf(request), entity.name, action, record));
}

/**
 * Refuses filtering or sorting on a field the role may not read, and keeps a search to the fields it may:
 * the core's `planListQuery`, which the tab's API runs too.
 */
export function refuseHiddenQuery(model: Model, request: FastifyRequest, entity: Entity, query: ListQuery) {
  const planned = applied(
    planListQuery(model, principalOf(request), entity, {
      fields: [...query.filters.map((filter) => filter.field), ...query.sort.map((key) => key.field)],
      ...(query.search ? { search: query.search.fields } : {}),
    }),
  );
  if (query.search && planned.search) query.search.fields = planned.search;
}

/** How many records one scan of a conditional list reads at a time. */
const SCAN_BATCH = 500;

/**
 * A list of only the records the role may read. A grant's condition that compares fields with values
 * (`record.ownerId == user.id || record.status != "draft"`, `in`, `&&`) becomes part of the SQL, so pages
 * and totals are the database's. Any other condition is CEL the database cannot run: the matching
 * records are then read in batches and the condition is asked of each, so that pages and totals still
 * count only what the role may see, and no record outside it is ever sent. Cursor pages hold up to
 * their size there (fewer when records in between are not readable).
 */
export async function readableList(
  model: Model,
  request: FastifyRequest,
  entity: Entity,
  store: Store,
  query: ListQuery,
): Promise<ListResult> {
  const principal = principalOf(request);
  const narrowing = readNarrowing(model, principal, entity);
  if (narrowing.kind === 'none') return store.list(entity.name, query);
  if (narrowing.kind === 'sql') return store.list(entity.name, { ...query, where: narrowing.where });
  const readable = (record: StoredRecord) =>
    checkAction(model, principal, entity.name, 'read', record).allowed;
  if (query.cursor !== undefined || query.offset === undefined) {
    const page = await store.list(entity.name, { ...query, withTotal: false });
    const items = page.items.filter(readable);
    if (query.cursor === undefined && !query.withTotal) return { ...page, items };
    return { ...page, items, ...(query.withTotal ? { total: await countReadable() } : {}) };
  }
  const matching: StoredRecord[] = [];
  let total = 0;
  const start = query.offset;
  const end = start + query.limit;
  for (let offset = 0; ; offset += SCAN_BATCH) {
    const batch = await store.list(entity.name, { ...query, offset, limit: SCAN_BATCH, withTotal: false });
    for (const record of batch.items) {
      if (!readable(record)) continue;
      if (total >= start && total < end) matching.push(record);
      total += 1;
    }
    if (batch.items.length < SCAN_BATCH) break;
  }
  return { items: matching, ...(query.withTotal ? { total } : {}) };

  async function countReadable(): Promise<number> {
    let count = 0;
    const { cursor: _cursor, ...rest } = query;
    for (let offset = 0; ; offset += SCAN_BATCH) {
      const batch = await store.list(entity.name, { ...rest, offset, limit: SCAN_BATCH, withTotal: false });
      count += batch.items.filter(readable).length;
      if (batch.items.length < SCAN_BATCH) return count;
    }
  }
}

/**
 * How a role's grant narrows the records of an entity it reads: not at all (no condition, or no
 * permissions), by a condition the database runs, or by one only CEL can decide, asked of each record.
 */
export type ReadNarrowing = { kind: 'none' } | { kind: 'sql'; where: RecordCondition } | { kind: 'cel' };

export function readNarrowing(model: Model, principal: Principal, entity: Entity): ReadNarrowing {
  const role = actingRole(model, principal);
  if (!permissionsApply(model) || role === undefined) return { kind: 'none' };
  if (!grantFor(model, role, entity.name)?.where) return { kind: 'none' };
  const where = permissionAsSql(model, principal, entity);
  return where ? { kind: 'sql', where } : { kind: 'cel' };
}

/** The role's read condition on an entity as data for SQL, or undefined when only CEL can decide it. */
function permissionAsSql(model: Model, principal: Principal, entity: Entity) {
  const role = actingRole(model, principal);
  if (role === undefined) return undefined;
  const grant = grantFor(model, role, entity.name);
  if (!grant?.where) return undefined;
  const env = expressionEnvironment(model, { entity: entity.name, variables: ['record', 'user'] });
  return conditionAsData(grant.where, env, { user: principal.user ?? {} }, (field) =>
    columnKindOf(model, entity, field),
  );
}
