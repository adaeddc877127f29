import { type JsonValue, personName } from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../access';
import type { AuditAction, NewAuditEntry, RecordKey, Store, StoredRecord, WriteResult } from '../store/store';

/** Who writes, through which call, on which clock: what every entry of one request says. */
export interface AuditMark {
  /** `POST /api/orders`: the method and the route's pattern. */
  call: string;
  by: { id: string; name: string | null } | null;
  now: () => Date;
}

/**
 * The store, whose every write of a record records its entry of the audit trail in the write's own
 * transaction: a write that commits has its entry, and one that does not, none. The record as it was
 * is read in that transaction, held (`lock`) so that no other write comes between it and the change.
 * A transaction opened on it is audited too, so that what a request writes in one (a transition and
 * the records it updates, the rows of an import) is audited however it reaches the store.
 */
export function auditedStore(store: Store, mark: AuditMark): Store {
  const entry = (
    action: AuditAction,
    entity: string,
    key: string,
    before: StoredRecord | null,
    after: StoredRecord | null,
    transition?: string,
  ): NewAuditEntry => ({
    at: mark.now().toISOString(),
    entity,
    key,
    action,
    ...(transition === undefined ? {} : { transition }),
    call: mark.call,
    by: mark.by,
    before,
    after,
  });
  /** Runs a write and its entry in one transaction: the caller's, or one of their own. */
  const audit = <T>(
    target: Store,
    write: (tx: Store, before: StoredRecord | null) => Promise<T>,
    made: (value: T, before: StoredRecord | null) => NewAuditEntry | undefined,
    before?: { entity: string; key: RecordKey },
  ): Promise<T> =>
    target.transaction(async (tx) => {
      const was = before ? ((await tx.get(before.entity, before.key, { lock: true })) ?? null) : null;
      const value = await write(tx, was);
      const written = made(value, was);
      if (written) await tx.appendAudit([written]);
      return value;
    });
  const ok = <T>(result: WriteResult<T>): result is { ok: true; value: T } => result.ok;

  const wrap = (inner: Store): Store =>
    new Proxy(inner, {
      get(target, property) {
        switch (property) {
          case 'transaction':
            return <T>(work: (tx: Store) => Promise<T>) => target.transaction((tx) => work(wrap(tx)));
          case 'create':
            return (entity: string, values: StoredRecord) =>
              target.createAudited(entity, values, {
                at: mark.now().toISOString(),
                call: mark.call,
                by: mark.by,
              });
          case 'update':
            return (entity: string, key: RecordKey, values: StoredRecord, expected?: number) =>
              audit(
                target,
                (tx) => tx.update(entity, key, values, expected),
                (result, before) =>
                  ok(result) ? entry('update', entity, String(key), before, result.value) : undefined,
                { entity, key },
              );
          case 'applyTransition':
            return (
              entity: string,
              key: RecordKey,
              values: StoredRecord,
              expected: number | undefined,
              step: Parameters<Store['applyTransition']>[4],
            ) =>
              audit(
                target,
                (tx) => tx.applyTransition(entity, key, values, expected, step),
                (result, before) =>
                  ok(result)
                    ? entry('transition', entity, String(key), before, result.value, step.transition)
                    : undefined,
                { entity, key },
              );
          case 'delete':
            return (entity: string, key: RecordKey) =>
              audit(
                target,
                (tx) => tx.delete(entity, key),
                (result, before) =>
                  ok(result) && before ? entry('delete', entity, String(key), before, null) : undefined,
                { entity, key },
              );
          case 'change':
            // An effect of a transition on another record (`stock -= quantity`): its own entry, an update.
            return (entity: string, key: RecordKey, field: string, op: '=' | '+=' | '-=', value: JsonValue) =>
              audit(
                target,
                (tx) => tx.change(entity, key, field, op, value),
                (after, before) => (after ? entry('update', entity, String(key), before, after) : undefined),
                { entity, key },
              );
          default: {
            const value = Reflect.get(target, property, target);
            return typeof value === 'function' ? value.bind(target) : value;
          }
        }
      },
    });
  return wrap(store);
}

/** The call a request made, as the audit trail names it: `PATCH /api/orders/:id`. */
export function callOf(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
}

/** Who a request writes as: the signed-in person's id and name, or nobody. */
export function writerOf(request: FastifyRequest): AuditMark['by'] {
  const user = principalOf(request).user;
  if (user?.id === undefined || user.id === null) return null;
  const name = personName(user) ?? (typeof user.email === 'string' ? user.email : undefined);
  return { id: String(user.id), name: name ?? null };
}
