import { exhaustiveSwitchError } from '../exhaustive';
import { fromPointer, toPointer } from '../issues';
import { entityLabel, fieldLabel, findEntity } from '../lookup';
import type { CrudAction, Entity, JsonValue, Model, StateMachine, Transition } from '../model';
import { createdValuesReadRecords, createdValuesWithRecords, derivedValues, recordToCreate } from './derived';
import type { AccessDenial, AccessVerdict, Principal } from './grants';
import { fieldAccess, writeViolations } from './grants';
import { checkAction, transitionAccess } from './permissions';
import { changedSinceReadMessage, notFoundMessage, stillReferencedMessage } from './record-words';
import type { RecordReader } from './records';
import { referenceErrors, stillReferencedBy } from './references';
import {
  checkGuardWithRecords,
  checkTransition,
  guardReadsRecords,
  type TransitionVerdict,
  transitionChange,
  transitionRefusal,
} from './transitions';
import { uniqueErrors } from './unique-message';
import { checkRecordRules, type FieldError, hasRecordRules, validateRecord } from './validate';
import { createStateRefusal, updateStateRefusal, withDefaults } from './write-plan';

// The one place where the order of a write's checks is written. Every caller runs these plans and only
// applies their outcome: the prototype API (record-writes.ts, in its transaction), the playground's API in
// the tab, the client's memory provider, and the form before it sends. A plan never writes; it answers
// with what would be stored, or with the refusal, as data that each caller turns into its own answer.
//
// Each write has two stages. The plan proper checks the record itself (the role, its fields, the state,
// point 5, the references it names, the grant's condition on the record as it is and as it will be).
// The second stage, `...AcrossRecords`, checks what reads other records (rules of point 5 that count or
// sum, values set on create from other records, guards that read records): the API runs it inside its
// transaction after taking its lock, so two writes cannot both pass a limit; the in-memory callers run
// it straight after.

/** A refused write: the answer's status and catalogue code, its message, and every field refused. */
export interface WriteRefusal {
  status: 401 | 403 | 404 | 409 | 412 | 422 | 428 | 500 | 501;
  code: string;
  message: string;
  /** Every field refused, at its JSON Pointer; empty when the refusal is of the write as a whole. */
  errors: FieldError[];
  /** For a refusal of point 6: why, so that a client can word it in its own language. */
  access?: AccessDenial;
}

export type Planned<T> = ({ ok: true } & T) | { ok: false; refusal: WriteRefusal };

/** Who writes, when, and what the plan may read of other records. */
export interface WriteActor {
  /**
   * Who is asking. `unchecked` is for a caller with no principal at all (the memory provider standing in
   * for an API in tests): point 6 is then not asked, everything else is.
   */
  principal: Principal | 'unchecked';
  now: Date;
  /**
   * Reads other records. Without one (the form before it sends), references and everything across
   * records are left to the API, which has one.
   */
  reader?: RecordReader;
}

/** Options of a create or update plan. */
export interface BodyOptions {
  /**
   * The entity the body is checked against when a call takes its own shape (an imported API's request
   * body); the entity itself otherwise.
   */
  shape?: Entity;
  /** Field errors the caller found before the plan (files that could not be read), reported with its own. */
  errors?: FieldError[];
  /** The version the change was made on, checked after the role may write the record at all. */
  versions?: Versions;
}

/**
 * The version a write says it was made on (`If-Match`) and the record's own: a stale one is refused,
 * before the values are looked at, since they were chosen looking at another version.
 */
export interface Versions {
  sent: string | undefined;
  current: string;
  /** Whether a write must say its version (an update must; a transition may). */
  required: boolean;
}

/** A write of a record that exists, as far as it is known before the record is read. */
export type WriteOfRecord =
  | { kind: 'update' | 'delete'; entity: Entity }
  | { kind: 'transition'; machine: StateMachine; step: Transition };

/**
 * What is refused before a record is read: a role that may never make this write. Every caller asks it
 * first, so that a role without the grant is told so (403) rather than whether the record exists (404).
 */
export function planBeforeRead(model: Model, actor: WriteActor, write: WriteOfRecord): Planned<object> {
  switch (write.kind) {
    case 'update':
    case 'delete':
      return access(model, actor, write.entity, write.kind) ?? { ok: true };
    case 'transition':
      return transitionAllowed(model, actor, write.machine, write.step) ?? { ok: true };
    default:
      return exhaustiveSwitchError(write);
  }
}

/**
 * A read of one record: allowed, refused for the role (401, 403), or answered as missing (404) when the
 * role may read the entity but not this record, so that another person's ids cannot be told from ids that
 * do not exist.
 */
export function planRead(
  model: Model,
  actor: WriteActor,
  entity: Entity,
  record: Record<string, JsonValue>,
): Planned<object> {
  return access(model, actor, entity, 'read') ?? hiddenRecord(model, actor, entity, record) ?? { ok: true };
}

/**
 * A create: the record exactly as it will be stored (defaults, values set on create, the initial state,
 * derived values), or every refusal found.
 *
 * @example
 * ```ts
 * await planCreate(model, order, { customer: 99 }, { principal, now, reader });
 * // { ok: false, refusal: { status: 422, code: 'VALIDATION_FAILED', message: 'There is no Customer 99.', … } }
 * ```
 */
export async function planCreate(
  model: Model,
  entity: Entity,
  body: Record<string, JsonValue>,
  actor: WriteActor,
  options: BodyOptions = {},
): Promise<Planned<{ record: Record<string, JsonValue> }>> {
  const refused = access(model, actor, entity, 'create') ?? forbiddenFields(model, actor, entity, body);
  if (refused) return refused;
  const user = userOf(actor);
  const errors: FieldError[] = [...(options.errors ?? [])];
  const state = createStateRefusal(model, entity, body);
  if (state) errors.push(state);
  const shape = options.shape ?? entity;
  const result = validateRecord(model, shape.name, withDefaults(shape, body), {
    mode: 'create',
    now: actor.now,
    ...(user ? { user } : {}),
  });
  // The state field's own refusal says more than "read-only" at the same place.
  if (!result.ok) errors.push(...result.errors.filter((error) => error.pointer !== state?.pointer));
  else if (actor.reader) errors.push(...(await referenceErrors(model, shape, result.record, actor.reader)));
  if (errors.length > 0 || !result.ok) return invalid(errors);
  const record = recordToCreate(model, entity.name, result.record, { user: user ?? {}, now: actor.now });
  // The grant's condition holds for the record as it will be stored, or a role could create one in
  // another person's name (and that person would then see it).
  return access(model, actor, entity, 'create', record) ?? { ok: true, record };
}

/**
 * An update of `old`: what to store (the change with its derived values) and the record it leaves, or
 * every refusal found. Given `versions`, a stale or missing version is refused once the role may update
 * `old` at all, before the values are looked at.
 */
export async function planUpdate(
  model: Model,
  entity: Entity,
  old: Record<string, JsonValue>,
  change: Record<string, JsonValue>,
  actor: WriteActor,
  options: BodyOptions = {},
): Promise<Planned<{ stored: Record<string, JsonValue>; record: Record<string, JsonValue> }>> {
  const refused =
    access(model, actor, entity, 'update') ??
    hiddenRecord(model, actor, entity, old) ??
    access(model, actor, entity, 'update', old) ??
    staleVersion(entity, old, options.versions) ??
    forbiddenFields(model, actor, entity, change);
  if (refused) return refused;
  const renamed = keyChange(entity, old, change);
  if (renamed) return invalid([renamed]);
  const state = updateStateRefusal(model, entity, old, change);
  if (state) return refusal(state.status, state.code, state.message);
  const user = userOf(actor);
  const shape = options.shape ?? entity;
  const result = validateRecord(model, shape.name, change, {
    mode: 'update',
    old,
    now: actor.now,
    ...(user ? { user } : {}),
  });
  const errors: FieldError[] = [...(options.errors ?? [])];
  if (!result.ok) errors.push(...result.errors);
  else if (actor.reader) {
    const changed = Object.fromEntries(
      Object.keys(change)
        .filter((name) => name in result.record)
        .map((name) => [name, result.record[name] as JsonValue]),
    );
    errors.push(...(await referenceErrors(model, shape, changed, actor.reader)));
  }
  if (errors.length > 0 || !result.ok) return invalid(errors);
  const after = { ...old, ...result.record };
  // A change may not move a record out of what the role may change (another customer's, say).
  const moved = access(model, actor, entity, 'update', after);
  if (moved) return moved;
  const derived = derivedValues(model, entity.name, result.record);
  return { ok: true, stored: { ...change, ...derived }, record: { ...after, ...derived } };
}

/**
 * A change of the key itself: the key names the record (in addresses, references, the history), so an
 * update keeps it, and one that sends another value is refused on that field rather than stored.
 */
function keyChange(
  entity: Entity,
  old: Record<string, JsonValue>,
  change: Record<string, JsonValue>,
): FieldError | undefined {
  const key = entity.key;
  if (key === undefined || !(key in change) || String(change[key]) === String(old[key])) return undefined;
  const field = entity.fields.find((candidate) => candidate.name === key);
  return {
    pointer: toPointer([key]),
    code: 'read-only',
    message: `${field ? fieldLabel(field) : key} names the ${entityLabel(entity)}, and cannot change.`,
  };
}

/**
 * What a create or update must also pass among other records, with `reader` seeing the database as the
 * write will leave it: values set on create that count other records, then unique values and the rules
 * of point 5 that read records, every clash in one list. Answers the record with those values in.
 */
export async function planAcrossRecords(
  model: Model,
  entity: Entity,
  scope: { mode: 'create' | 'update'; record: Record<string, JsonValue>; old?: Record<string, JsonValue> },
  actor: WriteActor & { reader: RecordReader },
): Promise<Planned<{ record: Record<string, JsonValue> }>> {
  const user = userOf(actor);
  let record = scope.record;
  if (scope.mode === 'create' && createdValuesReadRecords(model, entity.name)) {
    const created = await createdValuesWithRecords(
      model,
      entity.name,
      { user: user ?? {}, now: actor.now, record },
      actor.reader,
    );
    if (!created.ok) {
      return refusal(
        500,
        'EFFECT_FAILED',
        `The value set on create of ${created.field} could not be computed: ${created.message}`,
      );
    }
    record = { ...record, ...created.values };
  }
  const key = scope.old?.[entity.key ?? 'id'];
  const errors = await uniqueErrors(model, entity, record, actor.reader, key);
  if (hasRecordRules(model, entity.name, scope.mode)) {
    errors.push(
      ...(await checkRecordRules(model, entity.name, record, {
        mode: scope.mode,
        ...(scope.old ? { old: scope.old } : {}),
        ...(user ? { user } : {}),
        now: actor.now,
        reader: actor.reader,
      })),
    );
  }
  return errors.length > 0 ? invalid(errors) : { ok: true, record };
}

/**
 * A transition of `record`: the change it makes (the new state, its effects, derived values), or why it
 * is refused. What it writes must keep point 5: the field constraints of the values it sets (a value
 * out of bounds), and the rules whose `On` names this transition (not those on update: a step is not an
 * edit). A guard or a rule that reads other records is checked by `planTransitionAcrossRecords`.
 */
export function planTransition(
  model: Model,
  machine: StateMachine,
  step: Transition,
  record: Record<string, JsonValue>,
  actor: WriteActor,
  versions?: Versions,
): Planned<{ change: Record<string, JsonValue> }> {
  const entity = findEntity(model, machine.entity) ?? { name: machine.entity, fields: [] };
  const refused =
    transitionAllowed(model, actor, machine, step) ??
    hiddenRecord(model, actor, entity, record) ??
    transitionAllowed(model, actor, machine, step, record);
  if (refused) return refused;
  const context = transitionContext(actor);
  // The machine is asked of the record as it is now: a step someone else already took (the order paid
  // in another tab) is an illegal transition, which says more than "changed since read".
  const verdict = checkTransition(model, machine, step, record, context);
  if (!verdict.allowed) return verdictRefusal(verdict);
  const stale = staleVersion(entity, record, versions);
  if (stale) return stale;
  const computed = transitionChange(model, machine, step, record, { now: actor.now });
  if (!computed.ok) return refusal(500, 'EFFECT_FAILED', computed.message);
  const user = userOf(actor);
  const result = validateRecord(model, machine.entity, computed.change, {
    mode: 'update',
    old: record,
    now: actor.now,
    transition: step.name,
    ...(user ? { user } : {}),
  });
  // What the transition writes (the state, the values it sets) and its own rules: a record stored before
  // a constraint was added, or made by another program, is not refused a step for a field it leaves alone.
  const written = new Set(Object.keys(computed.change));
  const errors = result.ok
    ? []
    : result.errors.filter(
        (error) => error.code === 'rule' || written.has(fromPointer(error.pointer)[0] ?? ''),
      );
  if (errors.length > 0) return invalid(errors);
  const change = {
    ...computed.change,
    ...derivedValues(model, machine.entity, { ...record, ...computed.change }),
  };
  return { ok: true, change };
}

/**
 * What a transition must also pass among other records, decided where the write is made: its guard, on
 * the record as it is, then the rules of point 5 that read records, on the record as the transition
 * leaves it (`change`, from `planTransition`).
 */
export async function planTransitionAcrossRecords(
  model: Model,
  machine: StateMachine,
  step: Transition,
  record: Record<string, JsonValue>,
  change: Record<string, JsonValue>,
  actor: WriteActor & { reader: RecordReader },
): Promise<Planned<object>> {
  const guarded = await checkGuardWithRecords(
    model,
    machine,
    step,
    record,
    transitionContext(actor),
    actor.reader,
  );
  if (!guarded.allowed) return verdictRefusal(guarded);
  if (!hasRecordRules(model, machine.entity, 'update', step.name)) return { ok: true };
  const user = userOf(actor);
  const errors = await checkRecordRules(
    model,
    machine.entity,
    { ...record, ...change },
    {
      mode: 'update',
      old: record,
      now: actor.now,
      transition: step.name,
      reader: actor.reader,
      ...(user ? { user } : {}),
    },
  );
  return errors.length > 0 ? invalid(errors) : { ok: true };
}

/** A refused transition as an answer: its reason's status and code, or the guard's own code. */
function verdictRefusal(verdict: Exclude<TransitionVerdict, { allowed: true }>): {
  ok: false;
  refusal: WriteRefusal;
} {
  const { status, code } = transitionRefusal(verdict.reason);
  return refusal(status, verdict.code ?? code, verdict.message);
}

/** Whether a transition reads other records (a guard, a rule): then it is decided inside the write's transaction. */
export function transitionReadsRecords(model: Model, machine: StateMachine, step: Transition): boolean {
  return (
    guardReadsRecords(model, machine, step) || hasRecordRules(model, machine.entity, 'update', step.name)
  );
}

/** A delete of `record`: allowed, or refused for the role or because other records still name it. */
export async function planDelete(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  actor: WriteActor,
): Promise<Planned<object>> {
  const refused =
    access(model, actor, entity, 'delete') ??
    hiddenRecord(model, actor, entity, record) ??
    access(model, actor, entity, 'delete', record);
  if (refused) return refused;
  if (actor.reader) {
    const key = record[entity.key ?? 'id'] ?? null;
    const by = await stillReferencedBy(model, entity, key, actor.reader);
    if (by) return refusal(409, 'STILL_REFERENCED', stillReferencedMessage(entity, String(key), by));
  }
  return { ok: true };
}

/**
 * A refusal of point 5's constraints as one answer: the rule's own code when every error has the same
 * one (`CREDIT_LIMIT`), `VALIDATION_FAILED` otherwise.
 */
export function validationRefusal(errors: FieldError[]): WriteRefusal {
  const codes = new Set(errors.map((error) => error.ruleCode));
  const [only] = codes;
  return {
    status: 422,
    code: errors.length > 0 && codes.size === 1 && only !== undefined ? only : 'VALIDATION_FAILED',
    message:
      errors.length === 1
        ? (errors[0]?.message ?? 'A value is not valid.')
        : `${errors.length} values are not valid.`,
    errors,
  };
}

/** A refused verdict of point 6: 401 for nobody signed in, 403 for a role or a condition. */
export function accessRefusal(verdict: Exclude<AccessVerdict, { allowed: true }>): WriteRefusal {
  switch (verdict.reason) {
    case 'not-signed-in':
      return {
        status: 401,
        code: 'NOT_SIGNED_IN',
        message: verdict.message,
        errors: [],
        access: verdict.reason,
      };
    case 'role':
    case 'no-grant':
    case 'condition':
      return { status: 403, code: 'FORBIDDEN', message: verdict.message, errors: [], access: verdict.reason };
    default:
      return exhaustiveSwitchError(verdict.reason);
  }
}

function refusal(
  status: WriteRefusal['status'],
  code: string,
  message: string,
): { ok: false; refusal: WriteRefusal } {
  return { ok: false, refusal: { status, code, message, errors: [] } };
}

function invalid(errors: FieldError[]): { ok: false; refusal: WriteRefusal } {
  return { ok: false, refusal: validationRefusal(errors) };
}

function staleVersion(
  entity: Pick<Entity, 'name' | 'label' | 'key'>,
  record: Record<string, JsonValue>,
  versions: Versions | undefined,
): { ok: false; refusal: WriteRefusal } | undefined {
  if (!versions) return undefined;
  const label = entityLabel(entity);
  if (versions.sent === undefined) {
    return versions.required
      ? refusal(
          428,
          'PRECONDITION_REQUIRED',
          `Send If-Match with the ETag of the ${label} you changed, so that nobody's changes are lost.`,
        )
      : undefined;
  }
  if (versions.sent === versions.current) return undefined;
  return refusal(
    412,
    'CHANGED_SINCE_READ',
    changedSinceReadMessage(entity, String(record[entity.key ?? 'id'] ?? '')),
  );
}

function userOf(actor: WriteActor): Record<string, JsonValue> | undefined {
  return actor.principal === 'unchecked' ? undefined : actor.principal.user;
}

function transitionContext(actor: WriteActor) {
  const principal = actor.principal === 'unchecked' ? {} : actor.principal;
  return {
    now: actor.now,
    ...(principal.role === undefined ? {} : { role: principal.role }),
    ...(principal.user === undefined ? {} : { user: principal.user }),
  };
}

function access(
  model: Model,
  actor: WriteActor,
  entity: Entity,
  action: CrudAction,
  record?: Record<string, JsonValue>,
): { ok: false; refusal: WriteRefusal } | undefined {
  return actor.principal === 'unchecked'
    ? undefined
    : denied(checkAction(model, actor.principal, entity.name, action, record));
}

/**
 * A record the role may read of this entity, but not this one: answered as a record that does not exist.
 */
function hiddenRecord(
  model: Model,
  actor: WriteActor,
  entity: Pick<Entity, 'name' | 'label' | 'key'>,
  record: Record<string, JsonValue>,
): { ok: false; refusal: WriteRefusal } | undefined {
  if (actor.principal === 'unchecked') return undefined;
  if (!checkAction(model, actor.principal, entity.name, 'read').allowed) return undefined;
  if (checkAction(model, actor.principal, entity.name, 'read', record).allowed) return undefined;
  return refusal(404, 'NOT_FOUND', notFoundMessage(entity, String(record[entity.key ?? 'id'] ?? '')));
}

function transitionAllowed(
  model: Model,
  actor: WriteActor,
  machine: StateMachine,
  step: Transition,
  record?: Record<string, JsonValue>,
): { ok: false; refusal: WriteRefusal } | undefined {
  return actor.principal === 'unchecked'
    ? undefined
    : denied(transitionAccess(model, actor.principal, machine, step, record));
}

function denied(verdict: AccessVerdict): { ok: false; refusal: WriteRefusal } | undefined {
  return verdict.allowed ? undefined : { ok: false, refusal: accessRefusal(verdict) };
}

/**
 * A list's query: filtering or sorting on a field the role may not read (hidden, or hidden under a
 * condition on some records) is refused, since the answers would tell its values where the records do
 * not; a search looks only where the role may read, and answers which fields that is.
 */
export function planListQuery(
  model: Model,
  principal: Principal,
  entity: Entity,
  asked: { fields: readonly string[]; search?: readonly string[] },
): Planned<{ search?: string[] }> {
  const search = asked.search && searchableFields(model, principal, entity, asked.search);
  const { hidden } = fieldAccess(model, principal, entity.name);
  const refused = [...new Set(asked.fields)].filter((field) => hidden.has(field));
  if (refused.length === 0) return { ok: true, ...(search ? { search } : {}) };
  return {
    ok: false,
    refusal: {
      status: 403,
      code: 'FORBIDDEN_FIELDS',
      message: `Your role may not filter or sort on ${refused[0]}.`,
      errors: refused.map((field) => ({
        pointer: `/${field}`,
        code: 'forbidden',
        message: 'Your role may not read this field.',
      })),
    },
  };
}

/**
 * The fields of a search the role may look in: those it may read on every record. Finding a record by a
 * word in a field it may not read would tell it that word.
 */
export function searchableFields(
  model: Model,
  principal: Principal,
  entity: Entity,
  fields: readonly string[],
): string[] {
  const { hidden } = fieldAccess(model, principal, entity.name);
  return fields.filter((field) => !hidden.has(field));
}

/** Fields the role may not read or may not write: refused, never dropped silently. */
function forbiddenFields(
  model: Model,
  actor: WriteActor,
  entity: Entity,
  body: Record<string, unknown>,
): { ok: false; refusal: WriteRefusal } | undefined {
  if (actor.principal === 'unchecked') return undefined;
  const violations = writeViolations(model, actor.principal, entity.name, body);
  if (violations.length === 0) return undefined;
  return {
    ok: false,
    refusal: {
      status: 403,
      code: 'FORBIDDEN_FIELDS',
      message:
        violations.length === 1
          ? (violations[0]?.message ?? 'A field may not be set.')
          : `${violations.length} fields may not be set by your role.`,
      errors: violations.map((violation) => ({
        pointer: `/${violation.field}`,
        code: 'forbidden',
        message: violation.message,
      })),
    },
  };
}
