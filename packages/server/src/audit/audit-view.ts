import {
  checkAction,
  findEntity,
  type JsonValue,
  type Model,
  managesPeople,
  mayKnowWhoActed,
  PERSON_AUDIT_ENTITY,
  type Principal,
  permissionsApply,
} from '@ninefold/model';
import { presenterOf } from '../present';
import type { AuditAction, AuditEntry, StoredRecord } from '../store/store';

/** A field a write changed, as one reader may see it: a side they may not read is left out. */
export interface AuditChange {
  field: string;
  before?: JsonValue;
  after?: JsonValue;
}

/** An entry of the audit trail as one reader sees it (`GET /api/_audit`). */
export interface ShownAuditEntry {
  id: number;
  at: string;
  entity: string;
  key: string;
  action: AuditAction;
  transition?: string;
  call: string;
  /** Who made it: only for a reader the history would tell (the core's `mayKnowWhoActed`). */
  by?: { id: string; name: string | null } | null;
  changes: AuditChange[];
}

/**
 * What a person sees of an entry, by the rules of their reads and of the live events: nothing unless
 * their role may read the entity and the record as it was or as it became (a condition on the record is
 * asked of both); of each side, only when they may read that side, and then only the fields their role
 * is shown (hidden and write-only fields never, before or after); who made it, only when the history
 * would tell them.
 */
export function auditEntryFor(
  model: Model,
  principal: Principal,
  entry: AuditEntry,
): ShownAuditEntry | undefined {
  // Changes of people are for those who manage them, whole: nobody else learns who exists.
  if (entry.entity === PERSON_AUDIT_ENTITY) {
    if (!managesPeople(model, principal)) return undefined;
    return shownEntry(entry, changesBetween(entry.before ?? undefined, entry.after ?? undefined), true);
  }
  const entity = findEntity(model, entry.entity);
  if (!entity || entity.embedded) return undefined;
  const applies = permissionsApply(model);
  if (applies && !checkAction(model, principal, entity.name, 'read').allowed) return undefined;
  const readable = (record: StoredRecord | null): record is StoredRecord =>
    record !== null && (!applies || checkAction(model, principal, entity.name, 'read', record).allowed);
  const before = readable(entry.before) ? entry.before : undefined;
  const after = readable(entry.after) ? entry.after : undefined;
  if (before === undefined && after === undefined) return undefined;
  const present = presenterOf(model, principal, entity);
  const was = before === undefined ? undefined : (present(before) as Record<string, JsonValue>);
  const is = after === undefined ? undefined : (present(after) as Record<string, JsonValue>);
  const shown = after ?? before;
  return shownEntry(
    { ...entry, entity: entity.name },
    changesBetween(was, is),
    mayKnowWhoActed(model, principal, entity.name, shown),
  );
}

/** The fields that differ, each side only where it is known (a side the reader may not read is not). */
function changesBetween(
  was: Record<string, JsonValue> | undefined,
  is: Record<string, JsonValue> | undefined,
): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const field of new Set([...Object.keys(was ?? {}), ...Object.keys(is ?? {})])) {
    const from = was?.[field];
    const to = is?.[field];
    if (was !== undefined && is !== undefined && same(from, to)) continue;
    changes.push({
      field,
      ...(from === undefined ? {} : { before: from }),
      ...(to === undefined ? {} : { after: to }),
    });
  }
  return changes;
}

function shownEntry(entry: AuditEntry, changes: AuditChange[], tellsWho: boolean): ShownAuditEntry {
  return {
    id: entry.seq,
    at: entry.at,
    entity: entry.entity,
    key: entry.key,
    action: entry.action,
    ...(entry.transition === undefined ? {} : { transition: entry.transition }),
    call: entry.call,
    ...(tellsWho ? { by: entry.by } : {}),
    changes,
  };
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
