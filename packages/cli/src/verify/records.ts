// Records verify writes: made as `--seed` makes them (values that meet point 5's constraints), pointed at
// records the API already has, and checked against the specification's own rules before one is sent, so
// that a refusal means the server disagrees, not that verify sent something wrong.
import {
  checkAction,
  type Entity,
  type FieldType,
  fieldAccess,
  findEntity,
  grantFor,
  hasNumericKey,
  type JsonValue,
  recordToCreate,
  ruleReadsRecords,
  validateRecord,
} from '@ninefold/model';
import { generateRecords } from '@ninefold/server';
import type { Actor, Created, Fetched, VerifyRun } from './run';

type Values = Record<string, JsonValue>;

/** Candidates tried for one create before verify gives up on making a record of that entity. */
const CANDIDATES = 12;
/** Records of each entity verify reads to point references at. */
const REFERENCE_POOL = 20;

/** The fields of an entity a person writes: not read-only, derived, set on create, numbered or a state. */
export function writableFields(run: VerifyRun, entity: Entity): Set<string> {
  const machineFields = new Set(
    run.model.states.shown
      ? run.model.states.machines.filter((m) => m.entity === entity.name).map((m) => m.field)
      : [],
  );
  return new Set(
    entity.fields
      .filter(
        (field) =>
          !field.readOnly &&
          field.derived === undefined &&
          field.setOnCreate === undefined &&
          field.numbering === undefined &&
          !machineFields.has(field.name) &&
          field.kind !== 'file' &&
          !(field.kind === 'list' && field.of.kind === 'file'),
      )
      .map((field) => field.name),
  );
}

/**
 * Bodies for creating a record of an entity as an actor, each one the specification accepts: point 5's
 * constraints and rules, and the actor's grant on the record as it will be. References point at
 * records the API answers to the actor.
 */
export async function validBodies(run: VerifyRun, entity: Entity, actor: Actor): Promise<Values[]> {
  return (await meetingPointFive(run, entity, actor))
    .filter(
      ({ asStored }) => checkAction(run.model, actor.principal, entity.name, 'create', asStored).allowed,
    )
    .map(({ body }) => body);
}

/**
 * Bodies point 5 accepts from the actor, beside the record each would be once stored (defaults, values
 * set on create, the initial state): what a grant's condition is asked of.
 */
export async function meetingPointFive(
  run: VerifyRun,
  entity: Entity,
  actor: Actor,
): Promise<Array<{ body: Values; asStored: Values }>> {
  const generated = generateRecords(run.model, CANDIDATES, { seed: run.options.seed, now: run.options.now });
  const writable = writableFields(run, entity);
  const access = fieldAccess(run.model, actor.principal, entity.name);
  const pools = new Map<string, JsonValue[]>();
  const user = actor.principal.user ?? {};
  const out: Array<{ body: Values; asStored: Values }> = [];
  for (const candidate of generated.get(entity.name) ?? []) {
    const body: Values = {};
    for (const [name, value] of Object.entries(candidate)) {
      if (writable.has(name) && !access.hidden.has(name) && !access.readOnly.has(name) && value !== null) {
        body[name] = value as JsonValue;
      }
    }
    const pointed = await pointReferences(run, entity, body, actor, pools);
    if (!pointed) continue;
    // Also the same record made the actor's own, as its grant's condition reads it (`record.hirer == user.hirerId`).
    const owned = ownedBy(run, entity, actor, pointed);
    for (const variant of owned ? [owned, pointed] : [pointed]) {
      const checked = validateRecord(run.model, entity.name, variant, {
        mode: 'create',
        now: run.options.now,
        user,
      });
      if (!checked.ok) continue;
      out.push({
        body: variant,
        asStored: recordToCreate(run.model, entity.name, variant, { user, now: run.options.now }),
      });
    }
  }
  return out;
}

/**
 * The body with each field its grant's condition compares with the person (`record.F == user.G`) set to
 * the person's value, where it writes that field; undefined when the condition names none.
 */
function ownedBy(run: VerifyRun, entity: Entity, actor: Actor, body: Values): Values | undefined {
  const where = actor.role ? grantFor(run.model, actor.role, entity.name)?.where : undefined;
  const user = actor.principal.user;
  if (!where || !user) return undefined;
  const writable = writableFields(run, entity);
  const pairs = [
    ...[...where.matchAll(/record\.(\w+)\s*==\s*user\.(\w+)/g)].map((m) => [m[1], m[2]]),
    ...[...where.matchAll(/user\.(\w+)\s*==\s*record\.(\w+)/g)].map((m) => [m[2], m[1]]),
  ] as Array<[string, string]>;
  const set = pairs.filter(
    ([field, attribute]) => writable.has(field) && user[attribute] !== undefined && user[attribute] !== null,
  );
  if (set.length === 0) return undefined;
  return {
    ...body,
    ...Object.fromEntries(set.map(([field, attribute]) => [field, user[attribute] as JsonValue])),
  };
}

/** The body with every reference (also inside embedded records) pointing at a record the API has. */
async function pointReferences(
  run: VerifyRun,
  entity: Entity,
  body: Values,
  actor: Actor,
  pools: Map<string, JsonValue[]>,
): Promise<Values | undefined> {
  let missing = false;
  let turn = 0;
  const pick = async (target: string): Promise<JsonValue | undefined> => {
    let pool = pools.get(target);
    if (!pool) {
      pool = await referencePool(run, target, actor);
      pools.set(target, pool);
    }
    turn++;
    return pool.length ? pool[turn % pool.length] : undefined;
  };
  const point = async (type: FieldType, value: JsonValue): Promise<JsonValue> => {
    if (value === null || value === undefined) return value;
    switch (type.kind) {
      case 'reference': {
        const key = await pick(type.entity);
        if (key === undefined) missing = true;
        return key ?? value;
      }
      case 'object': {
        const inner = findEntity(run.model, type.entity);
        if (!inner || typeof value !== 'object' || Array.isArray(value)) return value;
        const out: Values = {};
        for (const field of inner.fields) {
          const v = (value as Values)[field.name];
          if (v !== undefined) out[field.name] = await point(field, v);
        }
        return out;
      }
      case 'list':
        return Array.isArray(value) ? Promise.all(value.map((item) => point(type.of, item))) : value;
      default:
        return value;
    }
  };
  const out: Values = {};
  for (const field of entity.fields) {
    const value = body[field.name];
    if (value !== undefined) out[field.name] = await point(field, value);
  }
  return missing ? undefined : out;
}

/** Keys of records of an entity the actor may point at: those any actor's list answers. */
async function referencePool(run: VerifyRun, entity: string, actor: Actor): Promise<JsonValue[]> {
  const target = findEntity(run.model, entity);
  // Its own records first: a transition that changes what a record points at then changes only those.
  const own = run.created.filter((made) => made.entity.name === entity);
  if (target && own.length) return own.map((made) => (hasNumericKey(target) ? Number(made.key) : made.key));
  const list = run.callFor(entity, 'list');
  if (!target || !list) return [];
  const readers = [actor, ...run.allowed(entity, 'read').filter((other) => other !== actor)];
  for (const reader of readers) {
    const { answer } = await run.send(reader, 'GET', list.path);
    if (answer.status !== 200) continue;
    const items = itemsOf(answer.json, list).slice(0, REFERENCE_POOL);
    const key = target.key ?? 'id';
    const keys = items.map((item) => item[key]).filter((k): k is JsonValue => k !== undefined && k !== null);
    if (keys.length) return keys;
  }
  return [];
}

/** The records of a list answer, by the call's response shape. */
export function itemsOf(body: unknown, call: { response?: { shape: string; items?: string } }): Values[] {
  const shape = call.response?.shape ?? 'array';
  const items =
    shape === 'envelope' && body && typeof body === 'object'
      ? (body as Record<string, unknown>)[call.response?.items ?? 'items']
      : body;
  return Array.isArray(items)
    ? items.filter((item): item is Values => item !== null && typeof item === 'object')
    : [];
}

/**
 * Creates a record the specification accepts, as the actor, and remembers it for removal. Tries the
 * next candidate only when the refusal depends on other records (`dependsOnOthers`): any other refusal
 * is the server's answer, and the caller reports it.
 */
export async function createRecord(
  run: VerifyRun,
  entity: Entity,
  actor: Actor,
  bodies?: Values[],
): Promise<
  (Fetched & { key: string }) | { refused: { status: number; body: unknown; sent: Values } } | undefined
> {
  const create = run.callFor(entity.name, 'create');
  if (!create || run.options.readOnly || !removable(run, entity)) return undefined;
  const candidates = bodies ?? (await validBodies(run, entity, actor));
  for (const body of candidates.slice(0, 8)) {
    const { answer } = await run.send(actor, 'POST', create.path, body);
    if (answer.status >= 200 && answer.status < 300) {
      const record = (answer.json ?? {}) as Values;
      const key = record[entity.key ?? 'id'];
      if (key === undefined || key === null) return undefined;
      const made: Created = { entity, key: String(key), by: actor };
      run.created.push(made);
      const etag = answer.headers.get('etag') ?? undefined;
      return { record, key: made.key, ...(etag ? { etag } : {}) };
    }
    if (!dependsOnOthers(run, entity, answer.json)) {
      return { refused: { status: answer.status, body: answer.json ?? answer.text, sent: body } };
    }
  }
  return undefined;
}

/**
 * Whether a 422 is only about what other records hold, which the specification cannot decide without
 * them: a unique value taken already, or a rule that reads other records (a credit limit, a stock). A
 * new candidate may meet it; the refusal itself is no disagreement.
 */
function dependsOnOthers(run: VerifyRun, entity: Entity, body: unknown): boolean {
  const errors = (
    body as { errors?: Array<{ pointer?: unknown; code?: unknown; detail?: unknown }> } | undefined
  )?.errors;
  if (!Array.isArray(errors) || errors.length === 0 || !run.model.validation.shown) return false;
  const unique = new Set(
    run.model.validation.fields
      .filter((c) => c.entity === entity.name && c.field.length === 1 && (c.unique || c.uniqueWith))
      .map((c) => `/${c.field[0]}`),
  );
  const counted = run.model.validation.rules.filter(
    (rule) => rule.entity === entity.name && ruleReadsRecords(run.model, rule),
  );
  return errors.every(
    (error) =>
      (typeof error.pointer === 'string' && unique.has(error.pointer)) ||
      counted.some(
        (rule) => (rule.code !== undefined && error.code === rule.code) || error.detail === rule.message,
      ),
  );
}

/** Reads a record as an actor: its body and ETag, or undefined when the API does not answer 200. */
export async function fetchRecord(
  run: VerifyRun,
  entity: Entity,
  key: string,
  actor: Actor,
): Promise<Fetched | undefined> {
  const get = run.callFor(entity.name, 'get');
  if (!get) return undefined;
  const { answer } = await run.send(actor, 'GET', run.pathFor(get, key));
  if (answer.status !== 200 || !answer.json || typeof answer.json !== 'object') return undefined;
  const etag = answer.headers.get('etag') ?? undefined;
  return { record: answer.json as Values, ...(etag ? { etag } : {}) };
}

/** Whether verify could remove a record of the entity it made: a delete call, and a role that may. */
export function removable(run: VerifyRun, entity: Entity): boolean {
  return run.callFor(entity.name, 'delete') !== undefined && run.allowed(entity.name, 'delete').length > 0;
}

/** Removes what verify created, newest first, each by its maker or else a role that may delete it. */
export async function removeCreated(run: VerifyRun): Promise<string[]> {
  const left: string[] = [];
  for (const made of [...run.created].reverse()) {
    if (!(await removeOne(run, made))) left.push(`${made.entity.name} ${made.key}`);
  }
  return left;
}

/** Removes one record verify made, and forgets it; false when no role could. */
export async function removeOne(run: VerifyRun, made: Created): Promise<boolean> {
  const remove = run.callFor(made.entity.name, 'delete');
  if (!remove) return false;
  const removers = [made.by, ...run.allowed(made.entity.name, 'delete').filter((a) => a !== made.by)];
  for (const actor of removers) {
    const { answer } = await run.send(actor, 'DELETE', run.pathFor(remove, made.key));
    // A 404 is a record gone already (a check removed it) or one this role may not see: the next tries.
    if (answer.status >= 200 && answer.status < 300) {
      const at = run.created.indexOf(made);
      if (at >= 0) run.created.splice(at, 1);
      return true;
    }
  }
  return false;
}

/** Whether every record a record points at (in embedded records too) is one verify made. */
export function pointsOnlyAtOwn(run: VerifyRun, entity: Entity, record: Values): boolean {
  const own = new Set(run.created.map((made) => `${made.entity.name} ${made.key}`));
  const check = (type: FieldType, value: JsonValue | undefined): boolean => {
    if (value === null || value === undefined) return true;
    switch (type.kind) {
      case 'reference':
        return own.has(`${type.entity} ${String(value)}`);
      case 'object': {
        const inner = findEntity(run.model, type.entity);
        if (!inner || typeof value !== 'object' || Array.isArray(value)) return true;
        return inner.fields.every((field) => check(field, (value as Values)[field.name]));
      }
      case 'list':
        return !Array.isArray(value) || value.every((item) => check(type.of, item));
      default:
        return true;
    }
  };
  return entity.fields.every((field) => check(field, record[field.name]));
}
