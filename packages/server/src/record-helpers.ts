// Helpers the record handlers share: reading a record, keys and versions, and write failures as problems.
import {
  type Call,
  changedSinceReadMessage,
  checkAction,
  type Entity,
  hasNumericKey,
  type JsonValue,
  type Model,
  notFoundMessage,
  stillReferencedMessage,
  tableCheckMessage,
  tableRequiredMessage,
  uniqueMessage,
} from '@ninefold/model';
import type { FastifyRequest } from 'fastify';
import { principalOf } from './access';
import { presenterFor } from './present';
import { type Problem, ProblemError, problem, validationProblem } from './problem';
import type { Context } from './record-context';
import type { RecordKey, StoredRecord, VersionedRecord, WriteFailure } from './store/store';

/** The record and its version, read together; 404 when there is none. */
export async function load(entity: Entity, context: Context, key: string): Promise<VersionedRecord> {
  const found = Number.isNaN(coerceKey(entity, key))
    ? undefined
    : await context.store.getVersioned(entity.name, coerceKey(entity, key));
  if (!found) throw new ProblemError(problem(404, 'NOT_FOUND', notFoundMessage(entity, key)));
  return found;
}

/**
 * The 412 for a change made on a version that is no longer the record's. It carries the record as it is
 * now (the fields the role may read; nothing if it may not read the record) and that version's ETag, so
 * that the client can show both versions without asking again.
 */
export async function changedSinceRead(
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  key: string,
): Promise<ProblemError> {
  const { model } = context;
  const found = await context.store.getVersioned(entity.name, coerceKey(entity, key));
  if (!found)
    return new ProblemError(writeProblem(model, { kind: 'not-found', entity: entity.name }, entity, key));
  const readable = checkAction(model, principalOf(request), entity.name, 'read', found.record).allowed;
  return new ProblemError(
    problem(
      412,
      'CHANGED_SINCE_READ',
      changedSinceReadMessage(entity, key),
      readable ? { current: presenterFor(model, request, entity)(found.record) } : {},
    ),
    { etag: etag(found.version) },
  );
}

/** A write the store refused; a stale version is answered with the record as it is now. */
export async function writeFailure(
  failure: WriteFailure,
  entity: Entity,
  context: Context,
  request: FastifyRequest,
  key: string,
): Promise<ProblemError> {
  if (failure.kind === 'version-mismatch') return changedSinceRead(entity, context, request, key);
  return new ProblemError(writeProblem(context.model, failure, entity, key));
}

export function keyOf(call: Call, request: FastifyRequest): string {
  const parameters = [...call.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const name = parameters.at(-1) ?? 'id';
  return String((request.params as Record<string, string>)[name] ?? '');
}

/** Keys arrive as text; numeric keys become numbers (NaN when the text is not one). */
export function coerceKey(entity: Entity, key: string): RecordKey {
  if (hasNumericKey(entity)) return /^\d{1,15}$/.test(key) ? Number(key) : Number.NaN;
  return key;
}

export function keyValue(entity: Entity, record: StoredRecord): RecordKey {
  return record[entity.key ?? 'id'] as RecordKey;
}

export function ifMatch(request: FastifyRequest): number | undefined {
  const header = request.headers['if-match'];
  if (typeof header !== 'string') return undefined;
  const version = Number(header.replace(/^W\//, '').replaceAll('"', ''));
  if (!Number.isInteger(version))
    throw new ProblemError(problem(400, 'INVALID_IF_MATCH', 'If-Match must be an ETag this API gave.'));
  return version;
}

export function etag(version: number | undefined): string {
  return `"${version ?? 0}"`;
}

export function pick(record: StoredRecord, keys: string[]): StoredRecord {
  return Object.fromEntries(
    keys.filter((key) => key in record).map((key) => [key, record[key] as JsonValue]),
  );
}

export function writeProblem(model: Model, failure: WriteFailure, entity: Entity, key: string): Problem {
  switch (failure.kind) {
    case 'unique':
      return validationProblem([
        { pointer: `/${failure.field}`, code: 'rule', message: uniqueMessage(model, entity, failure.field) },
      ]);
    case 'check':
      return validationProblem([
        {
          pointer: failure.field === undefined ? '' : `/${failure.field}`,
          code: 'rule',
          message: tableCheckMessage(entity, failure.field, failure.constraint),
        },
      ]);
    case 'required':
      return validationProblem([
        {
          pointer: `/${failure.field}`,
          code: 'required',
          message: tableRequiredMessage(entity, failure.field),
        },
      ]);
    case 'referenced':
      return problem(409, 'STILL_REFERENCED', stillReferencedMessage(entity, key, failure.by));
    case 'not-found':
      return problem(404, 'NOT_FOUND', notFoundMessage(entity, key));
    case 'version-mismatch':
      return problem(412, 'CHANGED_SINCE_READ', changedSinceReadMessage(entity, key));
  }
}

/** A request's path without its query: where a created record is, relative to the call's own path. */
export function pathOf(url: string): string {
  return url.split('?')[0] ?? url;
}
