import {
  type AccessVerdict,
  accessRefusal,
  type FieldError,
  type Planned,
  validationRefusal,
  type WriteRefusal,
} from '@ninefold/model';
import type { ApiError, ApiRecord } from '../data/data-provider';
import { refusalError } from '../data/refusal-error';

// The prototype API's answers, made in the tab: the same statuses, codes and field pointers as
// packages/server (problem.ts, access.ts, record-helpers.ts), so that the client reads them the same way
// and the shared API cases (test/api-cases) find the two in agreement.

export function refusal(
  status: number,
  code: string,
  detail: string,
  fieldErrors: FieldError[] = [],
  extras: { current?: ApiRecord; currentVersion?: string } = {},
): ApiError {
  return refusalError({ status, code, message: detail, errors: fieldErrors }, extras);
}

/** A refused verdict of the shared rules: 401 for nobody signed in, 403 for a role or a condition. */
export function enforce(verdict: AccessVerdict): void {
  if (!verdict.allowed) throw refused(accessRefusal(verdict));
}

/** A refusal of the core's write plans, as the prototype API answers it. */
export function refused(planned: WriteRefusal): ApiError {
  return refusalError(planned);
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
