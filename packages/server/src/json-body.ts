import type { FastifyInstance } from 'fastify';
import { ProblemError, problem } from './problem';

/**
 * JSON as Fastify reads it, but an empty body is no body: a transition sent with a JSON content type and
 * nothing in it runs, and a write without one is told that its body is not an object.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : json(request, body as string, readableJson(body as string, done)),
  );
}

/**
 * Fastify refuses a `__proto__` or `constructor.prototype` key as it refuses JSON that does not parse;
 * the first is valid JSON, and "not valid JSON" would send its sender looking in the wrong place.
 */
function readableJson(
  body: string,
  done: (error: Error | null, value?: unknown) => void,
): (error: Error | null, value?: unknown) => void {
  return (error, value) => {
    if (error && parsesAsJson(body)) {
      done(
        new ProblemError(
          problem(
            400,
            'BAD_REQUEST',
            'The body has a key this API does not take ("__proto__" or "constructor").',
          ),
        ),
      );
    } else done(error, value);
  };
}

function parsesAsJson(body: string): boolean {
  try {
    // An own property named __proto__ is all JSON.parse makes of one: nothing is polluted here.
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
