import type { FieldError } from '@ninefold/model';
import { ApiError, type ApiRecord } from './data-provider';

// A refusal made in the page (the memory provider, the playground's API in the tab) as the error the
// HTTP provider would throw for the prototype API's answer: the same status, code and field pointers, so
// that the client reads it the same way. The titles are the prototype API's (server/src/problem.ts).

const TITLES: Record<number, string> = {
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  412: 'Precondition failed',
  422: 'Invalid values',
  428: 'Precondition required',
  500: 'Server error',
  501: 'Not implemented',
};

/** A refusal (a write plan's `WriteRefusal`, or one the caller words) as the data interface's error. */
export function refusalError(
  refusal: { status: number; code: string; message: string; errors?: readonly FieldError[] },
  /** For a stale version (412): the record as it is now, for the person to compare with. */
  extras: { current?: ApiRecord; currentVersion?: string } = {},
): ApiError {
  return new ApiError(
    refusal.status,
    TITLES[refusal.status] ?? 'Refused',
    refusal.message,
    refusal.code,
    undefined,
    (refusal.errors ?? []).map((error) => ({
      pointer: error.pointer,
      message: error.message,
      code: error.ruleCode ?? error.code,
    })),
    undefined,
    extras,
  );
}
