import {
  type FieldError,
  type JsonValue,
  type Planned,
  validationRefusal,
  type WriteRefusal,
} from '@ninefold/model';

/** An RFC 9457 problem details answer, with field errors as JSON pointers into the request body. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** A stable code the error catalogue (point 8) can match on. */
  code: string;
  errors?: Array<{ pointer: string; code: string; detail: string }>;
  /** For 500s: a reference the person can quote; the server's log has the details under it. */
  reference?: string;
  /** For 412s: the record as it is now (the fields the role may read); its ETag is in the `etag` header. */
  current?: Record<string, JsonValue>;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Request too large',
  414: 'Address too long',
  415: 'Unsupported media type',
  422: 'Invalid values',
  428: 'Precondition required',
  429: 'Too many requests',
  500: 'Server error',
  501: 'Not implemented',
  503: 'Unavailable',
};

/**
 * Builds a problem. `code` is SCREAMING_SNAKE so that the error catalogue can name it.
 *
 * @example
 * ```ts
 * problem(404, 'NOT_FOUND', 'There is no Order 7.');
 * ```
 */
export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Pick<Problem, 'errors' | 'reference' | 'current'> = {},
): Problem {
  return {
    type: `/problems/${code.toLowerCase().replaceAll('_', '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}

/** A refusal of the core's write plans, as the answer says it. */
export function refusalProblem(refusal: WriteRefusal): Problem {
  return problem(
    refusal.status,
    refusal.code,
    refusal.message,
    refusal.errors.length > 0 || refusal.status === 422
      ? {
          errors: refusal.errors.map((error) => ({
            pointer: error.pointer,
            code: error.ruleCode ?? error.code,
            detail: error.message,
          })),
        }
      : {},
  );
}

/** A 422 of field errors, coded as the core's `validationRefusal` codes it. */
export function validationProblem(errors: FieldError[]): Problem {
  return refusalProblem(validationRefusal(errors));
}

/** Throws the answer to a refused plan, or gives its outcome. */
export function applied<T extends object>(planned: Planned<T>): T {
  if (!planned.ok) throw new ProblemError(refusalProblem(planned.refusal));
  return planned;
}

/** Thrown inside a handler to answer with a problem; the error handler turns it into the response. */
export class ProblemError extends Error {
  constructor(
    readonly problem: Problem,
    /** Headers the answer carries besides the problem (`retry-after`, the `etag` of a 412). */
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail);
    this.name = 'ProblemError';
  }
}

/** The core's `clip`: a piece of the request quoted in a message, cut short. */
export { clip } from '@ninefold/model';
