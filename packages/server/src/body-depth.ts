import { ProblemError, problem } from './problem';

/**
 * Deeper bodies than this are refused before anything reads them. A record nests a few levels (an
 * order, its lines, a line's fields); the rules, the idempotency hash and the store all walk a body, and
 * one nested 100,000 levels deep once overflowed the stack in that hash (a 500).
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Throws `400 BODY_TOO_DEEP` when a decoded body (or a JSON value sent in a form field) nests deeper
 * than MAX_BODY_DEPTH. Walks with a stack, never recursion, so the check itself cannot overflow.
 *
 * @example
 * refuseDeepBody({ lines: [{ quantity: 1 }] }); // fine
 * refuseDeepBody(JSON.parse('['.repeat(100) + ']'.repeat(100))); // throws 400 BODY_TOO_DEEP
 */
export function refuseDeepBody(value: unknown, where = 'The request body'): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    if (entry.value === null || typeof entry.value !== 'object') continue;
    if (entry.depth >= MAX_BODY_DEPTH) {
      throw new ProblemError(
        problem(
          400,
          'BODY_TOO_DEEP',
          `${where} nests more than ${MAX_BODY_DEPTH} levels deep; a record needs a few.`,
        ),
      );
    }
    const children = Array.isArray(entry.value) ? entry.value : Object.values(entry.value as object);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: entry.depth + 1 });
    }
  }
}
