// The write calls: create, update and transition. What each checks, and in which order, is the core's
// write plan (packages/model/src/rules/write-plans.ts); here are the request, the store and the answer.
import { createHash } from 'node:crypto';
import {
  apiBase,
  type Call,
  type Entity,
  type FieldError,
  planBeforeRead,
  planCreate,
  planTransition,
  planTransitionAcrossRecords,
  planUpdate,
  transitionReadsRecords,
  type WriteActor,
} from '@ninefold/model';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, requireAction } from './access';
import { claimIdempotency, sendAnswer, writeAnswered } from './idempotency';
import { publishChange } from './live-events';
import { presenterFor } from './present';
import { applied, ProblemError, problem, refusalProblem } from './problem';
import type { Context } from './record-context';
import {
  changedSinceRead,
  coerceKey,
  etag,
  ifMatch,
  keyOf,
  keyValue,
  load,
  pathOf,
  writeFailure,
  writeProblem,
} from './record-helpers';
import { applyUpdates, beforeWrite, needsTransaction, readerOf, updatedEntity } from './record-rules';
import { forgetFiles, readRequestBody, saveFiles } from './request-body';
import type { Store, StoredRecord } from './store/store';

export async function create(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { model } = context;
  const store = context.writer(request);
  requireAction(model, request, entity, 'create');
  const {
    values: body,
    files,
    errors: uploadErrors,
  } = await readRequestBody(model, call, entity, request, context.limits);
  // Before anything is checked or stored: a repeat is answered as the first was, refusals included.
  await claimIdempotency(store, request, context.now().getTime(), {
    values: body,
    files: files.map((file) => ({
      field: file.field,
      index: file.index ?? null,
      name: file.name,
      type: file.type,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    })),
  });
  const values = await recordForCreate(context, request, entity, body, uploadErrors);
  // Bytes are stored only once the record is known to be valid, and forgotten if the write fails.
  const fileIds = await saveFiles(store, files, values, apiBase(model));
  const created = await writeAnswered(
    store,
    request,
    (tx) =>
      needsTransaction(model, entity, 'create')
        ? tx.transaction(async (inner) => {
            const user = principalOf(request).user;
            const scope = {
              mode: 'create' as const,
              record: values,
              now: context.now(),
              ...(user ? { user } : {}),
            };
            return inner.create(entity.name, await beforeWrite(model, inner, entity, scope));
          })
        : tx.create(entity.name, values),
    (record) => ({
      status: 201,
      headers: {
        etag: etag(context.store.versionAfterWrite(entity.name, record, undefined)),
        location: `${pathOf(request.url)}/${encodeURIComponent(String(keyValue(entity, record)))}`,
      },
      body: presenterFor(model, request, entity)(record),
    }),
    () => context.afterCommit?.(request),
  ).catch(async (error: unknown) => {
    await forgetFiles(store, fileIds);
    throw error;
  });
  if (!created.ok) {
    await forgetFiles(store, fileIds);
    throw new ProblemError(writeProblem(model, created.failure, entity, ''));
  }
  publishChange(context, request, {
    entity: entity.name,
    key: String(keyValue(entity, created.value)),
    kind: 'created',
    after: created.value,
  });
  return sendAnswer(reply, created.answer);
}

/**
 * The record a create would store, checked by every rule a single record is held to (the role's fields,
 * the initial state, point 5's constraints, the references, and the grant's condition on the record as
 * it will be), or a `ProblemError` saying which fails. Rules across records run where it is written
 * (`beforeWrite`). The create call and the CSV import both make records through this.
 */
export async function recordForCreate(
  context: Context,
  request: FastifyRequest,
  entity: Entity,
  body: StoredRecord,
  uploadErrors: FieldError[] = [],
  /** Where references are looked up: the import's transaction, which holds the database's one SQLite connection. */
  store: Store = context.store,
): Promise<StoredRecord> {
  const planned = await planCreate(context.model, entity, body, actorOf(context, request, store), {
    errors: uploadErrors,
  });
  return applied(planned).record;
}

/**
 * A change an update would store over `old` (the change with derived values) and the record it leaves,
 * checked as `recordForCreate` checks a new one.
 */
export async function changeForUpdate(
  context: Context,
  request: FastifyRequest,
  entity: Entity,
  old: StoredRecord,
  change: StoredRecord,
  uploadErrors: FieldError[] = [],
  store: Store = context.store,
): Promise<{ stored: StoredRecord; record: StoredRecord }> {
  const planned = await planUpdate(context.model, entity, old, change, actorOf(context, request, store), {
    errors: uploadErrors,
  });
  const { stored, record } = applied(planned);
  return { stored, record };
}

/** Who writes, for the core's plans: the request's principal, the API's clock, reads through `store`. */
export function actorOf(context: Context, request: FastifyRequest, store: Store = context.store): WriteActor {
  return { principal: principalOf(request), now: context.now(), reader: readerOf(store) };
}

export async function update(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { model } = context;
  const store = context.writer(request);
  applied(planBeforeRead(model, actorOf(context, request), { kind: 'update', entity }));
  const key = keyOf(call, request);
  const { record: old, version } = await load(entity, context, key);
  // Read before the body, so that a malformed If-Match is a 400 whatever was sent.
  const sent = ifMatch(request);
  const {
    values: change,
    files,
    errors: uploadErrors,
  } = await readRequestBody(model, call, entity, request, context.limits);
  // Lost updates: the plan refuses a change that does not say its version, or says a stale one, before
  // its values are looked at (they were chosen looking at another version).
  const versions = {
    sent: sent === undefined ? undefined : String(sent),
    current: String(version),
    required: true,
  };
  const planned = await planUpdate(model, entity, old, change, actorOf(context, request), {
    errors: uploadErrors,
    versions,
  });
  if (!planned.ok && planned.refusal.code === 'CHANGED_SINCE_READ') {
    throw await changedSinceRead(entity, context, request, key);
  }
  const { stored, record: changed } = applied(planned);
  const expected = version;
  const fileIds = await saveFiles(store, files, stored, apiBase(model));
  const write = (tx: Store) => tx.update(entity.name, coerceKey(entity, key), stored, expected);
  const updated = await (needsTransaction(model, entity, 'update')
    ? store.transaction(async (tx) => {
        const editor = principalOf(request).user;
        const scope = {
          mode: 'update' as const,
          record: changed,
          old,
          now: context.now(),
          ...(editor ? { user: editor } : {}),
        };
        await beforeWrite(model, tx, entity, scope);
        return write(tx);
      })
    : write(store)
  ).catch(async (error: unknown) => {
    await forgetFiles(store, fileIds);
    throw error;
  });
  if (!updated.ok) {
    await forgetFiles(store, fileIds);
    throw await writeFailure(updated.failure, entity, context, request, key);
  }
  publishChange(context, request, {
    entity: entity.name,
    key: String(keyValue(entity, updated.value)),
    kind: 'updated',
    before: old,
    after: updated.value,
  });
  // The update was made over `expected`, which it moved on.
  reply.header('etag', etag(store.versionAfterWrite(entity.name, updated.value, expected)));
  return presenterFor(model, request, entity)(updated.value);
}

export async function transition(
  call: Call,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { model } = context;
  const store = context.writer(request);
  const found = context.transitions.get(call.name);
  if (!found)
    throw new ProblemError(
      problem(501, 'NOT_IMPLEMENTED', `No transition of point 4 is taken by ${call.name}.`),
    );
  const { machine, transition: step } = found;
  const now = context.now();
  // A transition takes no values: a repeat is what the key, the path and any body sent say it is.
  await claimIdempotency(store, request, now.getTime(), request.body ?? null);
  const principal = principalOf(request);
  const actor = { ...actorOf(context, request), now };
  applied(planBeforeRead(model, actor, { kind: 'transition', machine, step }));
  const key = keyOf(call, request);
  // If-Match is optional here: the machine itself refuses a transition from a state the record left.
  const expected = ifMatch(request);
  const user = principal.user;
  const by =
    user?.id === undefined
      ? null
      : { id: String(user.id), email: typeof user.email === 'string' ? user.email : null };
  for (let attempt = 1; ; attempt++) {
    const { record, version } = await load(entity, context, key);
    const planned = planTransition(model, machine, step, record, actor);
    if (!planned.ok) throw new ProblemError(refusalProblem(planned.refusal));
    if (expected !== undefined && expected !== version) {
      throw await changedSinceRead(entity, context, request, key);
    }
    const { change } = planned;
    // Written only over the version the checks were made on, so two requests racing cannot both take it;
    // a keyed request's answer is stored with it.
    const apply = (tx: Store) =>
      tx.applyTransition(entity.name, coerceKey(entity, key), change, version, {
        transition: step.name,
        from: String(record[machine.field]),
        to: step.to,
        by,
        at: now.toISOString(),
      });
    const readsRecords = transitionReadsRecords(model, machine, step);
    const updated = await writeAnswered(
      store,
      request,
      (tx) =>
        readsRecords || (step.updates?.length ?? 0) > 0
          ? tx.transaction(async (inner) => {
              const who = { now, ...(principal.user === undefined ? {} : { user: principal.user }) };
              if (readsRecords) {
                // A guard or a rule over other records (at most two on hold) is decided where the write is made.
                await inner.lockForRules([entity.name]);
                applied(
                  await planTransitionAcrossRecords(model, machine, step, record, change, {
                    ...actor,
                    reader: readerOf(inner),
                  }),
                );
              }
              const written = await apply(inner);
              // Other records change with the transition or not at all (an order takes its stock): a
              // refused change throws, and the transaction takes the transition back with it.
              if (written.ok) await applyUpdates(model, inner, machine, step, record, who);
              return written;
            })
          : apply(tx),
      // The new version, so that the client's next change can say which one it read.
      (value) => ({
        status: 200,
        headers: { etag: etag(context.store.versionAfterWrite(entity.name, value, version)) },
        body: presenterFor(model, request, entity)(value),
      }),
      () => context.afterCommit?.(request),
    );
    if (updated.ok) {
      publishChange(context, request, {
        entity: entity.name,
        key: String(keyValue(entity, updated.value)),
        kind: 'updated',
        before: record,
        after: updated.value,
      });
      // Records the transition changed elsewhere (stock taken) are told as a change of their entity.
      const touched = new Set((step.updates ?? []).map((statement) => updatedEntity(statement)));
      for (const other of touched) {
        if (other !== undefined) publishChange(context, request, { entity: other, kind: 'changed' });
      }
      return sendAnswer(reply, updated.answer);
    }
    // Changed between the read and the write. A client that named no version meant "from whatever state
    // it is in": the transition is checked again on the new version (a second `place` is then refused
    // as illegal, never taken twice).
    const again = updated.failure.kind === 'version-mismatch' && expected === undefined && attempt < 3;
    if (!again) throw await writeFailure(updated.failure, entity, context, request, key);
  }
}
