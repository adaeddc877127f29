import {
  type AccessVerdict,
  type FieldError,
  type Planned,
  validationRefusal,
  type WriteRefusal,
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

/** A refusal of the core's write plans, as the prototype API answers it. */
export function refused(refusal_: WriteRefusal): ApiError {
  return refusal(refusal_.status, refusal_.code, refusal_.message, refusal_.errors);
}

/** The outcome of a write plan, or its refusal thrown as the prototype API answers it. */
export function settled<T extends object>(planned: Planned<T>): T {
  if (!planned.ok) throw refused(planned.refusal);
  return planned;
}

/** As the prototype API's `validationProblem`: one rule's own code when all errors share it. */
export function invalid(errors: FieldError[]): ApiError {
  return refused(validationRefusal(errors));
}
