import {
  actingRole,
  checkAction,
  checkGrant,
  type Entity,
  fieldAccess,
  findEntity,
  type JsonValue,
  type Model,
  type Principal,
  permissionsApply,
  personFields,
  personName,
  referringFields,
} from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import { principalOf, readNarrowing } from './access';
import { clip, ProblemError, problem } from './problem';
import type { Context } from './record-context';
import { coerceKey } from './record-helpers';
import type { RecordKey, Store, StoredRecord } from './store/store';

/** The most ids one names call may ask about: a page of references, with room. */
export const MAX_NAMED = 100;

/** One record's or person's name: its id as text, and what names it. */
export interface Named {
  id: string;
  name: JsonValue;
}

/** A field whose values a role may see: its entity, its name, and the role's condition on the entity. */
interface Seen {
  entity: Entity;
  field: string;
}

/**
 * `GET {names}/{Entity}?id=…`: the display values of the records with these ids that the role may be
 * told about. That is a record the role may read (unless its grant hides the display field), or one a
 * record it may read points at, through a reference field it may see: the role already sees the id there,
 * and the name is what makes the id mean something ("Ada Lovelace", not `3`). Any other id is left out of
 * the answer, exactly as one that does not exist, so the answer tells nothing the role could not see.
 */
export async function recordNames(request: FastifyRequest, context: Context): Promise<{ items: Named[] }> {
  const { model, store } = context;
  const target = nameable(model, (request.params as { entity: string }).entity);
  const display = target.display as string;
  const principal = signedIn(model, request);
  const search = searchedText(request, target);
  // A role whose grant hides the display field is never told it, however it came by the id.
  if (fieldAccess(model, principal, target.name).hidden.has(display)) return { items: [] };
  if (search !== undefined) return { items: await searchNames(context, principal, target, search) };
  const keys = askedIds(request)
    .map((id) => coerceKey(target, id))
    .filter((key) => !Number.isNaN(key));
  const records =
    keys.length === 0
      ? []
      : (
          await store.list(target.name, {
            filters: [{ field: target.key ?? 'id', op: 'in', value: keys }],
            sort: [],
            limit: keys.length,
            withTotal: false,
          })
        ).items;
  return { items: await toldOf(model, principal, store, target, records) };
}

/** The names of `records` that the role may be told (see `recordNames`), in their order. */
async function toldOf(
  model: Model,
  principal: Principal,
  store: Store,
  target: Entity,
  records: StoredRecord[],
): Promise<Named[]> {
  const key = target.key ?? 'id';
  const told = new Set<string>();
  const rest: RecordKey[] = [];
  for (const record of records) {
    const id = record[key] as RecordKey;
    if (checkAction(model, principal, target.name, 'read', record).allowed) told.add(String(id));
    else rest.push(id);
  }
  const seen = referringFields(model, target.name).map(({ entity, field }) => ({
    entity,
    field: field.name,
  }));
  for (const id of await heldBy(model, principal, store, seen, rest)) told.add(id);
  return records
    .filter((record) => told.has(String(record[key])))
    .map((record) => ({ id: String(record[key]), name: record[target.display ?? key] ?? null }));
}

/** Names offered for a search: the first this many that the role may be told. */
export const NAMES_FOUND = 20;
/** Records whose name holds the text are looked through this many at a time, and no more than… */
const SEARCH_BATCH = 100;
/** …this many in all: a search answers quickly, and says nothing of the records past them. */
const SEARCH_LIMIT = 2_000;

/**
 * `GET {names}/{Entity}?q=lov`: the first names that hold the text (any case) among the records the role
 * may be told about, in the order of their names: what a filter by name offers a role that may not list
 * the entity itself (the warehouse filtering orders by customer).
 */
async function searchNames(
  context: Context,
  principal: Principal,
  target: Entity,
  text: string,
): Promise<Named[]> {
  const display = target.display as string;
  const found: Named[] = [];
  for (let offset = 0; offset < SEARCH_LIMIT && found.length < NAMES_FOUND; offset += SEARCH_BATCH) {
    const page = await context.store.list(target.name, {
      filters: [{ field: display, op: 'contains', value: text }],
      sort: [{ field: display, direction: 'asc' }],
      limit: SEARCH_BATCH,
      offset,
      withTotal: false,
    });
    found.push(...(await toldOf(context.model, principal, context.store, target, page.items)));
    if (page.items.length < SEARCH_BATCH) break;
  }
  return found.slice(0, NAMES_FOUND);
}

/**
 * `GET {people}?id=…`: the names (else emails) of the people with these ids that records the role may
 * read name in a person field (`user.id` set on create, "Entered by") it may see. Anyone else is left
 * out, as a person who does not exist.
 */
export async function peopleNames(request: FastifyRequest, context: Context): Promise<{ items: Named[] }> {
  const { model, store } = context;
  const principal = signedIn(model, request);
  const ids = askedIds(request);
  const seen: Seen[] = model.entities.shown
    ? model.entities.items
        .filter((entity) => !entity.embedded)
        .flatMap((entity) => personFields(entity).map((field) => ({ entity, field: field.name })))
    : [];
  const own = principal.user?.id;
  const told = await heldBy(
    model,
    principal,
    store,
    seen,
    ids.filter((id) => id !== own),
  );
  // The person asking may always be told their own name.
  if (typeof own === 'string' && ids.includes(own)) told.add(own);
  const items: Named[] = [];
  for (const id of ids) {
    if (!told.has(id)) continue;
    const user = await store.findUser({ id });
    if (!user) continue;
    items.push({ id, name: personName({ ...user.attributes, email: user.email }) ?? id });
  }
  return { items };
}

/** How many records of a condition only CEL can decide are read at a time, looking for the ids. */
const SCAN_BATCH = 500;

/**
 * Which of `ids` a record the role may read holds in one of the `seen` fields the role may see. A
 * condition that becomes SQL is the database's; one only CEL can decide is asked of each record that
 * holds one of the ids, in batches.
 */
async function heldBy(
  model: Model,
  principal: Principal,
  store: Store,
  seen: Seen[],
  ids: RecordKey[],
): Promise<Set<string>> {
  const found = new Set<string>();
  let rest = [...new Set(ids)];
  for (const { entity, field } of seen) {
    if (rest.length === 0) break;
    if (!checkGrant(model, principal, entity.name, 'read').allowed) continue;
    if (fieldAccess(model, principal, entity.name).hidden.has(field)) continue;
    const narrowing = readNarrowing(model, principal, entity);
    if (narrowing.kind !== 'cel') {
      const where = narrowing.kind === 'sql' ? narrowing.where : undefined;
      for (const id of await store.referenced(entity.name, field, rest, where)) found.add(id);
    } else {
      for (let offset = 0; ; offset += SCAN_BATCH) {
        const batch = await store.list(entity.name, {
          filters: [{ field, op: 'in', value: rest }],
          sort: [],
          limit: SCAN_BATCH,
          offset,
          withTotal: false,
        });
        for (const record of batch.items) {
          const value = record[field];
          if (value === null || value === undefined) continue;
          if (checkAction(model, principal, entity.name, 'read', record).allowed) found.add(String(value));
        }
        if (batch.items.length < SCAN_BATCH) break;
      }
    }
    rest = rest.filter((id) => !found.has(String(id)));
  }
  return found;
}

/**
 * Whoever asks must have a role where point 6 applies, their own or the visitor role: nobody unknown
 * learns any name. Which names the role may learn is the grants' (per target entity, below).
 */
function signedIn(model: Model, request: FastifyRequest): Principal {
  const principal = principalOf(request);
  if (permissionsApply(model) && actingRole(model, principal) === undefined) {
    throw new ProblemError(problem(401, 'NOT_SIGNED_IN', 'Sign in to read names.'));
  }
  return principal;
}

/** A names call's search text (`q`), where it asks by name rather than by id; at most 200 characters. */
function searchedText(request: FastifyRequest, target: Entity): string | undefined {
  const query = request.query as Record<string, unknown>;
  if (query.q === undefined) return undefined;
  const text = typeof query.q === 'string' ? query.q.trim() : '';
  const field = target.fields.find((candidate) => candidate.name === target.display);
  const problems = [
    ...(query.id !== undefined ? ['Ask by id or by name (q), not both.'] : []),
    ...(text === '' || text.length > 200 ? ['q is a text of 1 to 200 characters.'] : []),
    ...(field?.kind !== 'text'
      ? [`${target.name} is named by ${field?.name}, which is no text to search.`]
      : []),
  ];
  if (problems.length > 0) throw new ProblemError(problem(400, 'INVALID_QUERY', problems.join(' ')));
  return text;
}

/** The ids a names call asks about: `id=1&id=2`, at most `MAX_NAMED`. */
function askedIds(request: FastifyRequest): string[] {
  const asked = (request.query as Record<string, unknown>).id;
  const ids = (Array.isArray(asked) ? asked : asked === undefined ? [] : [asked]).filter(
    (id): id is string => typeof id === 'string' && id !== '',
  );
  if (ids.length === 0) {
    throw new ProblemError(problem(400, 'INVALID_QUERY', 'Name the ids to read as id=…&id=….'));
  }
  if (ids.length > MAX_NAMED) {
    throw new ProblemError(
      problem(400, 'INVALID_QUERY', `Ask for at most ${MAX_NAMED} names at a time, not ${ids.length}.`),
    );
  }
  return [...new Set(ids)];
}

/** The entity a names call names: one that is stored and has a display field. */
function nameable(model: Model, name: string): Entity {
  const entity = findEntity(model, name);
  if (!entity || entity.embedded || entity.display === undefined) {
    throw new ProblemError(
      problem(
        404,
        'NO_SUCH_CALL',
        `Nothing names ${clip(name)}: it is no stored entity with a display field (point 3).`,
      ),
    );
  }
  return entity;
}
