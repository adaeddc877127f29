import {
  type AccessVerdict,
  type Entity,
  type FieldError,
  findEntity,
  type JsonValue,
  type Model,
  toPointer,
  uniqueMessage,
} from '@ninefold/model';
import { ApiError, type ApiRecord } from '../data/data-provider';

// The prototype API's answers, made in the tab: the same statuses, codes and field pointers as
// packages/server (problem.ts, access.ts, record-helpers.ts), so that the client reads them the same way
// and the shared API cases (test/api-cases) find the two in agreement.

const TITLES: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed',
  422: 'Unprocessable content',
  428: 'Precondition required',
  500: 'Server error',
  501: 'Not implemented',
};

export function refusal(
  status: number,
  code: string,
  detail: string,
  fieldErrors: FieldError[] = [],
  extras: { current?: ApiRecord; currentVersion?: string } = {},
): ApiError {
  return new ApiError(
    status,
    TITLES[status] ?? 'Refused',
    detail,
    code,
    undefined,
    fieldErrors.map((error) => ({
      pointer: error.pointer,
      message: error.message,
      code: error.ruleCode ?? error.code,
    })),
    undefined,
    extras,
  );
}

/** A refused verdict of the shared rules: 401 for nobody signed in, 403 for a role or a condition. */
export function enforce(verdict: AccessVerdict): void {
  if (verdict.allowed) return;
  throw verdict.reason === 'not-signed-in'
    ? refusal(401, 'NOT_SIGNED_IN', verdict.message)
    : refusal(403, 'FORBIDDEN', verdict.message);
}

/** As the prototype API's `validationProblem`: one rule's own code when all errors share it. */
export function invalid(errors: FieldError[]): ApiError {
  const codes = new Set(errors.map((error) => error.ruleCode));
  const [only] = codes;
  const code = errors.length > 0 && codes.size === 1 && only !== undefined ? only : 'VALIDATION_FAILED';
  const detail =
    errors.length === 1
      ? (errors[0]?.message ?? 'A value is not valid.')
      : `${errors.length} values are not valid.`;
  return refusal(422, code, detail, errors);
}

/** Every reference in a record names a record that exists, as `checkReferences` on the server. */
export function referenceErrors(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  exists: (entity: string, key: JsonValue) => boolean,
  prefix = '',
  depth = 0,
): FieldError[] {
  if (depth > 8) return [];
  const errors: FieldError[] = [];
  const check = (target: string, key: JsonValue, pointer: string) => {
    if (typeof key !== 'string' && typeof key !== 'number') return;
    if (exists(target, key)) return;
    const label = findEntity(model, target)?.label ?? target;
    errors.push({ pointer, code: 'rule', message: `There is no ${label} ${String(key)}.` });
  };
  for (const field of entity.fields) {
    const value = record[field.name];
    if (value === undefined || value === null) continue;
    const pointer = `${prefix}${toPointer([field.name])}`;
    if (field.kind === 'reference') check(field.entity, value, pointer);
    else if (field.kind === 'object' && isObject(value)) {
      const nested = findEntity(model, field.entity);
      if (nested) errors.push(...referenceErrors(model, nested, value, exists, pointer, depth + 1));
    } else if (field.kind === 'list' && Array.isArray(value)) {
      const of = field.of;
      value.forEach((item, index) => {
        const at = `${pointer}/${index}`;
        if (of.kind === 'reference') check(of.entity, item, at);
        else if (of.kind === 'object' && isObject(item)) {
          const nested = findEntity(model, of.entity);
          if (nested) errors.push(...referenceErrors(model, nested, item, exists, at, depth + 1));
        }
      });
    }
  }
  return errors;
}

/**
 * The first unique constraint of point 5 that `record` would break among `others` (the entity's other
 * records), as the database's unique index refuses it on the server.
 */
export function uniqueError(
  model: Model,
  entity: Entity,
  record: Record<string, JsonValue>,
  others: readonly Record<string, JsonValue>[],
): ApiError | undefined {
  if (!model.validation.shown) return undefined;
  for (const constraint of model.validation.fields) {
    if (constraint.entity !== entity.name || !constraint.unique || constraint.field.length !== 1) continue;
    const field = constraint.field[0] as string;
    const together = [field, ...(constraint.uniqueWith ?? [])];
    const value = record[field];
    if (value === undefined || value === null) continue;
    const clash = others.some((other) =>
      together.every((name) => JSON.stringify(other[name] ?? null) === JSON.stringify(record[name] ?? null)),
    );
    if (!clash) continue;
    return invalid([{ pointer: `/${field}`, code: 'rule', message: uniqueMessage(model, entity, field) }]);
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
