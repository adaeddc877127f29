// Point 6 on writes: each role may create, change and remove what its grant says and nothing else, on
// records as they are and as they will be, and may not write a field its grant keeps from it.
import {
  checkAction,
  type Entity,
  fieldAccess,
  grantFor,
  type JsonValue,
  validateRecord,
} from '@ninefold/model';
import { readsThrough, variationsOf } from './breaking';
import { plural } from './check-reads';
import {
  createRecord,
  fetchRecord,
  meetingPointFive,
  removable,
  validBodies,
  writableFields,
} from './records';
import type { Actor, VerifyRun } from './run';

type Values = Record<string, JsonValue>;

/** Who made which record in the write checks, and a body the specification accepts, for later checks. */
export interface Made {
  maker: Actor;
  bodies: Values[];
  record: Values;
  key: string;
  /** The record each role made, by role: its own, which its grant's condition most likely holds for. */
  own: Map<Actor, string>;
}

export async function checkWrites(run: VerifyRun, entity: Entity): Promise<Made | undefined> {
  const create = run.callFor(entity.name, 'create');
  if (!create) return undefined;
  if (!removable(run, entity)) {
    // It creates only what it can remove: without a way to remove one, it makes none.
    run.notChecked(
      'roles',
      `who may create, change and remove ${plural(entity)}`,
      'verify makes only records it can remove, and the specification gives no delete call, or no role that may delete',
    );
    return undefined;
  }
  let made: Made | undefined;
  for (const actor of run.allowed(entity.name, 'create')) {
    const bodies = await validBodies(run, entity, actor);
    if (bodies.length === 0) {
      run.notChecked(
        'roles',
        `${actor.label} may create ${plural(entity)}`,
        'no record the specification accepts could be made for this role (its condition, or references it cannot read)',
      );
      continue;
    }
    const result = await createRecord(run, entity, actor, bodies);
    if (result && 'key' in result) {
      run.add({
        point: 'roles',
        check: `${actor.label} may create ${plural(entity)}`,
        outcome: 'agrees',
        request: { method: 'POST', path: create.path, as: actor.role ?? 'anyone', body: bodies[0] },
        expected: '201 and the record',
        received: { status: 201 },
      });
      made ??= { maker: actor, bodies, record: result.record, key: result.key, own: new Map() };
      made.own.set(actor, result.key);
    } else if (result && 'refused' in result) {
      run.add({
        point: 'roles',
        check: `${actor.label} may create ${plural(entity)}`,
        outcome: 'disagrees',
        request: { method: 'POST', path: create.path, as: actor.role ?? 'anyone', body: result.refused.sent },
        expected: '201: the specification accepts this record from this role',
        received: { status: result.refused.status, body: result.refused.body },
      });
    }
  }
  if (!made) return undefined;
  await refusedCreates(run, entity, made);
  await createsOutsideCondition(run, entity);
  await refusedFields(run, entity, made);
  await updates(run, entity, made);
  await updatesOutsideCondition(run, entity, made);
  await refusedDeletes(run, entity, made);
  return made;
}

async function refusedCreates(run: VerifyRun, entity: Entity, made: Made): Promise<void> {
  const create = run.callFor(entity.name, 'create');
  if (!create) return;
  const body = made.bodies.at(-1) ?? made.bodies[0];
  for (const actor of run.refused(entity.name, 'create')) {
    const status = run.refusalStatus(actor, entity.name, 'create');
    const sent = await run.send(actor, 'POST', create.path, body);
    keepIfMade(run, entity, actor, sent.answer);
    run.expect('roles', `${actor.label} may not create ${plural(entity)}`, sent, {
      status,
      words: `${status}: the role has no grant to create ${plural(entity)}`,
      problem: { status, code: status === 401 ? 'NOT_SIGNED_IN' : 'FORBIDDEN', entity: entity.name },
    });
  }
}

/**
 * As it will be: a role whose grant names create under a condition is refused a record the condition does
 * not hold for, once stored (an order in another customer's name).
 */
async function createsOutsideCondition(run: VerifyRun, entity: Entity): Promise<void> {
  const create = run.callFor(entity.name, 'create');
  if (!create) return;
  for (const actor of run.allowed(entity.name, 'create')) {
    const where = grantFor(run.model, actor.role ?? '', entity.name)?.where;
    if (where === undefined) continue;
    const outside = (await meetingPointFive(run, entity, actor)).find(({ asStored }) => {
      const verdict = checkAction(run.model, actor.principal, entity.name, 'create', asStored);
      return !verdict.allowed && verdict.reason === 'condition';
    });
    const check = `${actor.label} may not create a ${entity.label ?? entity.name} where ${where} does not hold`;
    if (!outside) {
      run.notChecked(
        'roles',
        check,
        'no record point 5 accepts was found that the condition refuses once stored',
      );
      continue;
    }
    const sent = await run.send(actor, 'POST', create.path, outside.body);
    keepIfMade(run, entity, actor, sent.answer);
    run.expect('roles', check, sent, {
      status: 403,
      words: `403: the condition does not hold for the record as it will be`,
      problem: { status: 403, code: 'FORBIDDEN', entity: entity.name },
    });
  }
}

/** A field the role may read but not write (its grant's read-only list) is refused on a create. */
async function refusedFields(run: VerifyRun, entity: Entity, made: Made): Promise<void> {
  const create = run.callFor(entity.name, 'create');
  if (!create) return;
  const writable = writableFields(run, entity);
  for (const actor of run.allowed(entity.name, 'create')) {
    const { readOnly } = fieldAccess(run.model, actor.principal, entity.name);
    const field = [...readOnly].find(
      (name) => writable.has(name) && made.bodies.some((b) => b[name] !== undefined),
    );
    if (!field) continue;
    const value = made.bodies.find((b) => b[field] !== undefined)?.[field] as JsonValue;
    const base = (await validBodies(run, entity, actor))[0];
    if (!base) continue;
    const sent = await run.send(actor, 'POST', create.path, { ...base, [field]: value });
    keepIfMade(run, entity, actor, sent.answer);
    run.expect(
      'roles',
      `${actor.label} may not write ${field} of a new ${entity.label ?? entity.name}`,
      sent,
      {
        status: 403,
        words: `403: ${field} is read-only for the role`,
        problem: { status: 403, code: 'FORBIDDEN_FIELDS', entity: entity.name },
      },
    );
  }
}

/** Changes: allowed for roles whose grant names update and holds before and after, refused for the rest. */
async function updates(run: VerifyRun, entity: Entity, made: Made): Promise<void> {
  const update = run.callFor(entity.name, 'update');
  if (!update) return;
  const change = changeOf(run, entity, made);
  if (!change) {
    run.notChecked(
      'roles',
      `who may change ${plural(entity)}`,
      'no change of a field the specification accepts was found',
    );
    return;
  }
  for (const actor of run.actors) {
    const current = await fetchRecord(run, entity, made.key, made.maker);
    if (!current) return;
    const after = { ...current.record, ...change };
    const allowed =
      checkAction(run.model, actor.principal, entity.name, 'update', current.record).allowed &&
      checkAction(run.model, actor.principal, entity.name, 'update', after).allowed &&
      !Object.keys(change).some((name) =>
        fieldAccess(run.model, actor.principal, entity.name).readOnly.has(name),
      );
    const canRead = checkAction(run.model, actor.principal, entity.name, 'read', current.record).allowed;
    const headers: Record<string, string> = current.etag ? { 'if-match': current.etag } : {};
    // A PUT sends the whole record, as the client's form does; a PATCH the change alone.
    const body = update.method === 'PUT' ? { ...writableOf(run, entity, current.record), ...change } : change;
    const sent = await run.send(actor, update.method, run.pathFor(update, made.key), body, headers);
    if (allowed) {
      run.expect(
        'roles',
        `${actor.label} may change ${Object.keys(change).join(', ')} of a ${entity.label ?? entity.name}`,
        sent,
        {
          status: 200,
          words: '200 and the record as it is now',
        },
      );
      continue;
    }
    const granted = run.allowed(entity.name, 'update').includes(actor);
    const status = !granted ? run.refusalStatus(actor, entity.name, 'update') : canRead ? 403 : 404;
    run.expect('roles', `${actor.label} may not change this ${entity.label ?? entity.name}`, sent, {
      status,
      words: `${status}: ${!granted ? 'the role has no grant to change it' : canRead ? "the grant's condition does not hold, before or after" : 'the role may not read it'}`,
      problem: {
        status,
        code: status === 404 ? 'NOT_FOUND' : status === 401 ? 'NOT_SIGNED_IN' : 'FORBIDDEN',
        entity: entity.name,
      },
    });
  }
}

/**
 * As it will be: a change that would take a record out of the role's condition (a ticket handed to
 * another team) is refused, though the role may change the record as it is.
 */
async function updatesOutsideCondition(run: VerifyRun, entity: Entity, made: Made): Promise<void> {
  const update = run.callFor(entity.name, 'update');
  if (!update) return;
  for (const actor of run.allowed(entity.name, 'update')) {
    const where = grantFor(run.model, actor.role ?? '', entity.name)?.where;
    if (where === undefined) continue;
    const check = `${actor.label} may not change a ${entity.label ?? entity.name} so that ${where} no longer holds`;
    const key = made.own.get(actor) ?? made.key;
    const current = await fetchRecord(run, entity, key, actor);
    if (!current || !checkAction(run.model, actor.principal, entity.name, 'update', current.record).allowed) {
      run.notChecked('roles', check, 'the record verify made is not one the role may change');
      continue;
    }
    const access = fieldAccess(run.model, actor.principal, entity.name);
    const writable = writableFields(run, entity);
    const fields = readsThrough(entity, where).filter(
      (name) => writable.has(name) && !access.readOnly.has(name) && !access.hidden.has(name),
    );
    let change: Values | undefined;
    // Values other accepted bodies hold (a reference to another hirer), then edge values of each kind.
    const others = made.bodies.flatMap((body) =>
      fields
        .filter((f) => body[f] !== undefined)
        .map((f) => ({ ...current.record, [f]: body[f] as JsonValue })),
    );
    for (const after of [...others, ...variationsOf(run.model, entity, current.record, fields)]) {
      const changed = Object.fromEntries(
        fields.filter((f) => after[f] !== current.record[f]).map((f) => [f, after[f] ?? null]),
      );
      if (Object.keys(changed).length === 0) continue;
      const verdict = checkAction(run.model, actor.principal, entity.name, 'update', {
        ...current.record,
        ...changed,
      });
      if (verdict.allowed || verdict.reason !== 'condition') continue;
      const valid = validateRecord(run.model, entity.name, changed, {
        mode: 'update',
        old: current.record,
        now: run.options.now,
        user: actor.principal.user ?? {},
      });
      if (valid.ok) {
        change = changed;
        break;
      }
    }
    if (!change) {
      run.notChecked(
        'roles',
        check,
        'no change point 5 accepts was found that takes the record out of the condition',
      );
      continue;
    }
    const body = update.method === 'PUT' ? { ...writableOf(run, entity, current.record), ...change } : change;
    const headers: Record<string, string> = current.etag ? { 'if-match': current.etag } : {};
    const sent = await run.send(actor, update.method, run.pathFor(update, key), body, headers);
    run.expect('roles', check, sent, {
      status: 403,
      words: '403: the condition would not hold for the record as it will be',
      problem: { status: 403, code: 'FORBIDDEN', entity: entity.name },
    });
  }
}

/** One field of another accepted body: a change the specification accepts of the record made. */
function changeOf(run: VerifyRun, entity: Entity, made: Made): Values | undefined {
  const unique = new Set(
    run.model.validation.shown
      ? run.model.validation.fields
          .filter((c) => c.entity === entity.name && (c.unique || c.uniqueWith))
          .map((c) => c.field[0])
      : [],
  );
  const writable = writableFields(run, entity);
  for (const other of made.bodies.slice(1)) {
    for (const [name, value] of Object.entries(other)) {
      // The key names the record: an update keeps it (the core's planUpdate refuses a new one).
      if (!writable.has(name) || unique.has(name) || name === (entity.key ?? 'id')) continue;
      if (JSON.stringify(value) === JSON.stringify(made.record[name])) continue;
      const field = entity.fields.find((f) => f.name === name);
      if (!field || field.kind === 'reference' || field.kind === 'object' || field.kind === 'list') continue;
      const result = validateRecord(
        run.model,
        entity.name,
        { [name]: value },
        {
          mode: 'update',
          old: made.record,
          now: run.options.now,
          user: made.maker.principal.user ?? {},
        },
      );
      if (result.ok) return { [name]: value };
    }
  }
  return undefined;
}

async function refusedDeletes(run: VerifyRun, entity: Entity, made: Made): Promise<void> {
  const remove = run.callFor(entity.name, 'delete');
  if (!remove) return;
  for (const actor of run.refused(entity.name, 'delete')) {
    const current = await fetchRecord(run, entity, made.key, made.maker);
    if (!current) return;
    const canRead = checkAction(run.model, actor.principal, entity.name, 'read', current.record).allowed;
    const status = run.refusalStatus(actor, entity.name, 'delete');
    const sent = await run.send(actor, 'DELETE', run.pathFor(remove, made.key));
    run.expect('roles', `${actor.label} may not remove ${plural(entity)}`, sent, {
      // A role that may not read the record is told it is not there, as the specification allows.
      status: (s) => s === status || (!canRead && s === 404),
      words: `${status}: the role has no grant to remove ${plural(entity)}`,
      problem: { status, code: status === 401 ? 'NOT_SIGNED_IN' : 'FORBIDDEN', entity: entity.name },
    });
  }
}

/** A refused create that the server made all the same is still verify's to remove. */
export function keepIfMade(
  run: VerifyRun,
  entity: Entity,
  actor: Actor,
  answer: { status: number; json: unknown },
): void {
  if (answer.status < 200 || answer.status >= 300) return;
  const key = (answer.json as Values | undefined)?.[entity.key ?? 'id'];
  if (key !== undefined && key !== null) run.created.push({ entity, key: String(key), by: actor });
}

/** The values of a record a person writes, as a whole-record update sends them back. */
function writableOf(run: VerifyRun, entity: Entity, record: Values): Values {
  const writable = writableFields(run, entity);
  return Object.fromEntries(Object.entries(record).filter(([name]) => writable.has(name)));
}
