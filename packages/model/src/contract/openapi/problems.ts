// Point 8 as OpenAPI: every refusal an operation of the prototype API can answer, with its status, its
// code and the words the error catalogue gives it, as RFC 9457 problems.
import type { Call, Entity, Model, StateMachine, Transition } from '../../model';
import { matchError } from '../../rules/errors';
import { permissionsApply } from '../../rules/grants';
import type { JsonObject } from './schemas';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** One refusal an operation may answer: `detail` is what the API says, in the specification's words where it has them. */
export interface ProblemAnswer {
  status: number;
  code: string;
  detail: string;
}

/** The problem `type` the API gives a code: `VALIDATION_FAILED` is `/problems/validation-failed`. */
export function problemType(code: string): string {
  return `/problems/${code.toLowerCase().replaceAll('_', '-')}`;
}

/** The components every problem answer refers to. */
export function problemSchemas(): Record<string, JsonObject> {
  return {
    Problem: {
      type: 'object',
      description: 'An RFC 9457 problem. `code` is stable, for the error catalogue (point 8) to match.',
      required: ['type', 'title', 'status', 'detail', 'code'],
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        status: { type: 'integer', minimum: 400, maximum: 599 },
        detail: { type: 'string' },
        code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
        errors: { type: 'array', items: { $ref: '#/components/schemas/FieldProblem' } },
        reference: { type: 'string', description: 'For a 500: quote it; the server log has the details.' },
        current: {
          type: 'object',
          description: 'For a 412: the record as it is now, as the role may read it; its ETag is in `ETag`.',
        },
      },
    },
    FieldProblem: {
      type: 'object',
      required: ['pointer', 'code', 'detail'],
      properties: {
        pointer: { type: 'string', description: 'A JSON Pointer into the request body.' },
        code: { type: 'string' },
        detail: { type: 'string' },
      },
    },
  };
}

/**
 * The refusals a call can answer, by what the prototype API checks for its purpose (docs/prototype-api.md,
 * *Errors*). Rules of point 5 and guards of point 4 add their own codes and messages.
 */
export function callProblems(
  model: Model,
  call: Call,
  entity: Entity | undefined,
  /** The step a transition call takes (`transitionsByCall`). */
  found?: { machine: StateMachine; transition: Transition },
): ProblemAnswer[] {
  const out: ProblemAnswer[] = [];
  const add = (status: number, code: string, detail: string) => out.push({ status, code, detail });
  const label = entity?.label ?? entity?.name ?? 'record';
  if (permissionsApply(model) && call.purpose !== 'sign-in') {
    add(401, 'NOT_SIGNED_IN', 'Sign in first: no credentials were sent.');
    add(401, 'SESSION_EXPIRED', 'The session has ended; sign in again.');
    add(401, 'INVALID_TOKEN', 'The credentials are not good.');
  }
  const withBody = () => {
    add(400, 'MALFORMED_JSON', 'The body is not JSON that parses.');
    add(400, 'BODY_NOT_AN_OBJECT', 'The body must be a JSON object.');
    add(400, 'BODY_TOO_DEEP', 'The body is nested more than 32 levels.');
    add(413, 'BODY_TOO_LARGE', 'The body is over the limit.');
    add(415, 'UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON (or the form encoding the call names).');
  };
  const keyed = () => {
    add(400, 'INVALID_IDEMPOTENCY_KEY', 'An Idempotency-Key is 1 to 200 visible ASCII characters.');
    add(409, 'IDEMPOTENCY_IN_PROGRESS', 'The same request is still being handled; try again in a second.');
    add(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request.');
  };
  const guarded = permissionsApply(model);
  const forbidden = () => {
    if (!guarded) return;
    add(403, 'FORBIDDEN', `Your role may not do this with this ${label}.`);
    add(403, 'FORBIDDEN_FIELDS', 'A field is hidden from your role, or read-only for it.');
  };
  const notFound = () => add(404, 'NOT_FOUND', `There is no such ${label}.`);
  switch (call.purpose) {
    case 'list':
      add(400, 'INVALID_QUERY', 'A parameter is unknown or its value is not one the list takes.');
      if (call.pagination?.style === 'cursor')
        add(400, 'INVALID_CURSOR', 'The cursor was not given by this API.');
      forbidden();
      break;
    case 'get':
      forbidden();
      notFound();
      break;
    case 'create':
      withBody();
      keyed();
      forbidden();
      add(422, 'VALIDATION_FAILED', 'Some values are not valid; `errors` points at each.');
      if (entity) out.push(...ruleProblems(model, entity, (rule) => rule.on.includes('create')));
      break;
    case 'update':
      withBody();
      add(400, 'INVALID_IF_MATCH', 'If-Match must be an ETag this API gave.');
      forbidden();
      notFound();
      if (entity && machineOf(model, entity)) {
        add(409, 'USE_A_TRANSITION', 'The state changes only through its transitions.');
      }
      add(
        412,
        'CHANGED_SINCE_READ',
        `The ${label} was changed since it was read; \`current\` holds it as it is.`,
      );
      add(422, 'VALIDATION_FAILED', 'Some values are not valid; `errors` points at each.');
      if (entity) out.push(...ruleProblems(model, entity, (rule) => rule.on.includes('update')));
      add(428, 'PRECONDITION_REQUIRED', 'An update needs If-Match with the ETag of the version it changes.');
      break;
    case 'delete':
      forbidden();
      notFound();
      if (entity && isReferenced(model, entity)) {
        add(409, 'STILL_REFERENCED', `Other records still refer to this ${label}.`);
      }
      break;
    case 'transition': {
      keyed();
      add(400, 'INVALID_IF_MATCH', 'If-Match must be an ETag this API gave.');
      forbidden();
      notFound();
      add(
        409,
        'ILLEGAL_TRANSITION',
        found ? fromWords(found.transition) : 'The record is not in a state that allows it.',
      );
      if (found?.transition.guard !== undefined) {
        add(
          409,
          found.transition.guardCode ?? 'GUARD_FAILED',
          found.transition.guardMessage ?? `The condition of ${found.transition.name} does not hold.`,
        );
      }
      if (found?.transition.updates?.length) {
        add(409, 'UPDATE_REFUSED', 'A record this transition changes would no longer be valid.');
      }
      add(412, 'CHANGED_SINCE_READ', `The ${label} was changed since it was read.`);
      if (entity && found) {
        const name = found.transition.name;
        out.push(...ruleProblems(model, entity, (rule) => rule.transitions?.includes(name) === true));
      }
      if (found?.transition.set.length || found?.transition.updates?.length) {
        add(500, 'EFFECT_FAILED', 'An effect of the transition could not be computed for this record.');
      }
      if (found?.transition.guard !== undefined) {
        add(500, 'EVALUATION_FAILED', 'The guard could not be evaluated; `reference` finds the log line.');
      }
      break;
    }
    case 'sign-in':
      add(400, 'INVALID_SIGN_IN', 'The body must be exactly {"email", "password"}.');
      add(401, 'SIGN_IN_FAILED', 'The email or the password does not match.');
      add(429, 'TOO_MANY_ATTEMPTS', 'Too many failed sign-ins; wait as Retry-After says.');
      break;
    case 'refresh':
    case 'sign-out':
      break;
    case 'upload':
    case 'other':
      add(501, 'NOT_IMPLEMENTED', `The prototype API does not serve ${call.purpose} calls yet.`);
      break;
  }
  add(500, 'SERVER_ERROR', 'The server failed; quote `reference`.');
  return out;
}

/** The problem responses of an operation, one per status, each code an example in the catalogue's words. */
export function problemResponses(
  model: Model,
  answers: readonly ProblemAnswer[],
  entity: string | undefined,
): Record<string, JsonObject> {
  const byStatus = new Map<number, ProblemAnswer[]>();
  for (const answer of answers) {
    const list = byStatus.get(answer.status) ?? [];
    if (!list.some((known) => known.code === answer.code)) list.push(answer);
    byStatus.set(answer.status, list);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples: Record<string, JsonObject> = {};
    for (const answer of list) {
      const entry = matchError(model, { status, code: answer.code, ...(entity ? { entity } : {}) });
      examples[answer.code] = {
        summary: entry?.message ?? answer.detail,
        value: {
          type: problemType(answer.code),
          title: answer.code,
          status,
          detail: answer.detail,
          code: answer.code,
        },
        ...(entry ? { 'x-ninefold-catalogue': { message: entry.message, action: entry.action } } : {}),
      };
    }
    responses[String(status)] = {
      description: list.map((answer) => `\`${answer.code}\`: ${answer.detail}`).join(' '),
      ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
      content: {
        [PROBLEM_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Problem' }, examples },
      },
    };
  }
  return responses;
}

function ruleProblems(
  model: Model,
  entity: Entity,
  applies: (rule: NonNullable<Model['validation'] & { shown: true }>['rules'][number]) => boolean,
): ProblemAnswer[] {
  if (!model.validation.shown) return [];
  return model.validation.rules
    .filter((rule) => rule.entity === entity.name && applies(rule))
    .map((rule) => ({ status: 422, code: rule.code ?? 'VALIDATION_FAILED', detail: rule.message }));
}

function machineOf(model: Model, entity: Entity): StateMachine | undefined {
  return model.states.shown ? model.states.machines.find((m) => m.entity === entity.name) : undefined;
}

function fromWords(transition: Transition): string {
  return `Only a record in ${transition.from.map((s) => `\`${s}\``).join(' or ')} can take ${transition.name}.`;
}

function isReferenced(model: Model, entity: Entity): boolean {
  if (!model.entities.shown) return false;
  const names = (type: { kind: string; entity?: string; of?: unknown }): boolean =>
    (type.kind === 'reference' && type.entity === entity.name) ||
    (type.kind === 'list' && names(type.of as { kind: string }));
  return model.entities.items.some((other) => other.fields.some((field) => names(field)));
}
