// The prototype API's own paths beside the calls of point 7: the session, the history of point 4, CSV
// imports, names, figures, files and the event stream. Each carries `x-ninefold-service`, so that an
// import of the document reads them as the API's services and not as calls of the specification.
import type { Model } from '../../model';
import type { ApiDescription } from '../api';
import { type ProblemAnswer, problemResponses } from './problems';
import type { JsonObject } from './schemas';

export type ServiceName =
  | 'session'
  | 'refresh'
  | 'sign-out'
  | 'password-reset'
  | 'password'
  | 'accounts'
  | 'invite'
  | 'account'
  | 'account-sign-out'
  | 'invitation'
  | 'history'
  | 'audit'
  | 'record-audit'
  | 'import'
  | 'names'
  | 'people'
  | 'figures'
  | 'events'
  | 'tickets'
  | 'files';

const json = (schema: JsonObject) => ({ 'application/json': { schema } });
const SIGNED_IN: ProblemAnswer[] = [
  { status: 401, code: 'NOT_SIGNED_IN', detail: 'Sign in first: no credentials were sent.' },
  { status: 401, code: 'SESSION_EXPIRED', detail: 'The session has ended; sign in again.' },
];
const SERVER_ERROR: ProblemAnswer = {
  status: 500,
  code: 'SERVER_ERROR',
  detail: 'The server failed; quote `reference`.',
};

type Operation = (
  service: ServiceName,
  summary: string,
  answers: ProblemAnswer[],
  success: Record<string, JsonObject>,
  extra?: JsonObject,
) => JsonObject;

const BAD_BODY: ProblemAnswer = {
  status: 422,
  code: 'VALIDATION_FAILED',
  detail: 'A value is not one this call takes; each is named at its pointer.',
};

/** Resetting a password by email, and setting one with a link's token (a reset or an invitation). */
function passwordPaths(api: ApiDescription, operation: Operation): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  // Shapes in words, as the audit trail's: a schema would be read by a plain OpenAPI import as an
  // entity of the specification.
  const body = (description: string) => ({
    requestBody: { required: true, description, content: json({ type: 'object' }) },
  });
  if (api.auth?.passwordReset) {
    paths[api.auth.passwordReset] = {
      post: operation(
        'password-reset',
        'Email a one-use link to reset a password',
        [
          BAD_BODY,
          { status: 429, code: 'TOO_MANY_ATTEMPTS', detail: 'Too many links asked for this email.' },
        ],
        { '202': { description: 'Sent if the email is an active account; the answer never tells which.' } },
        body('`{ "email": "…" }`, and nothing else.'),
      ),
    };
  }
  if (api.auth?.password) {
    paths[api.auth.password] = {
      post: operation(
        'password',
        "Set a password with a link's token; the person's other sessions end",
        [
          BAD_BODY,
          {
            status: 400,
            code: 'LINK_NOT_VALID',
            detail: 'The link was used, has expired, or is not one sent.',
          },
        ],
        { '204': { description: 'The password is set: sign in with it.' } },
        body(
          '`{ "token": "…", "password": "…" }`: the token of the link, a password of at least 8 characters.',
        ),
      ),
    };
  }
  return paths;
}

/** A role that manages people (point 6): lists, invites, changes, deactivates and signs them out. */
function accountPaths(
  base: string,
  operation: Operation,
  path: (name: string) => JsonObject,
): Record<string, JsonObject> {
  // A person's shape in words, as the audit trail's: a schema would be read by a plain OpenAPI import
  // as an entity of the specification, with screens of its own.
  const person = {
    type: 'object',
    description:
      '`{ id, email, role, status, attributes }`: `status` is `invited`, `active` or `deactivated`; `attributes` what the role’s conditions read as `user.<name>`.',
  };
  const managing: ProblemAnswer[] = [
    ...SIGNED_IN,
    { status: 403, code: 'FORBIDDEN', detail: 'The role does not manage people (point 6).' },
  ];
  const notFound: ProblemAnswer = { status: 404, code: 'NOT_FOUND', detail: 'No such person.' };
  return {
    [base]: {
      get: operation('accounts', 'The people who sign in here', managing, {
        '200': {
          description: 'Every person, by email.',
          content: json({ type: 'object', description: '`{ items: [person] }`, by email.' }),
        },
      }),
      post: operation(
        'invite',
        'Invite a person by email: a one-use link to set their password',
        [
          ...managing,
          BAD_BODY,
          { status: 409, code: 'ALREADY_EXISTS', detail: 'Somebody has this email already.' },
          {
            status: 502,
            code: 'MAIL_NOT_SENT',
            detail: 'They are invited, but the mail server did not take it.',
          },
        ],
        { '201': { description: 'The person, invited.', content: json(person) } },
        { requestBody: { required: true, content: json(person) } },
      ),
    },
    [`${base}/{id}`]: {
      patch: operation(
        'account',
        "Change a person's role or attributes, deactivate or reactivate them",
        [
          ...managing,
          BAD_BODY,
          notFound,
          {
            status: 409,
            code: 'OWN_ACCOUNT',
            detail: 'Nobody changes their own role or deactivates themselves.',
          },
        ],
        { '200': { description: 'The person, changed.', content: json(person) } },
        { parameters: [path('id')], requestBody: { required: true, content: json({ type: 'object' }) } },
      ),
    },
    [`${base}/{id}/sign-out`]: {
      post: operation(
        'account-sign-out',
        'End every session of a person: their tokens are refused from now on',
        [...managing, notFound],
        { '204': { description: 'Their sessions have ended.' } },
        { parameters: [path('id')] },
      ),
    },
    [`${base}/{id}/invitation`]: {
      post: operation(
        'invitation',
        'Send a new invitation to someone still invited',
        [
          ...managing,
          notFound,
          { status: 409, code: 'NOT_INVITED', detail: 'They have a password: they can reset it themselves.' },
          { status: 502, code: 'MAIL_NOT_SENT', detail: 'The mail server did not take it; send it again.' },
        ],
        { '204': { description: 'The invitation is sent.' } },
        { parameters: [path('id')] },
      ),
    },
  };
}

/** The paths of the API's own services, relative to its base, as OpenAPI path items. */
export function servicePaths(
  model: Model,
  api: ApiDescription,
  hasFiles: boolean,
): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  const operation = (
    service: ServiceName,
    summary: string,
    answers: ProblemAnswer[],
    success: Record<string, JsonObject>,
    extra: JsonObject = {},
  ): JsonObject => ({
    operationId: `ninefold_${service.replaceAll('-', '_')}`,
    summary,
    tags: ['Ninefold'],
    ...extra,
    responses: { ...success, ...problemResponses(model, [...answers, SERVER_ERROR], undefined) },
    'x-ninefold-service': service,
  });
  const path = (name: string, in_: 'path' | 'query' = 'path', schema: JsonObject = { type: 'string' }) => ({
    name,
    in: in_,
    required: in_ === 'path',
    schema,
  });
  if (api.auth) {
    paths[api.auth.session] = {
      get: operation('session', 'Who the credentials are', SIGNED_IN, {
        '200': {
          description: 'The user and when the token ends.',
          content: json({ $ref: '#/components/schemas/Session' }),
        },
      }),
    };
    if (api.auth.refresh) {
      paths[api.auth.refresh] = {
        post: operation('refresh', 'A fresh token; the old one is revoked', SIGNED_IN, {
          '200': { description: 'A fresh session.', content: json({ $ref: '#/components/schemas/Session' }) },
        }),
      };
    }
    paths[api.auth.signOut] = {
      post: operation('sign-out', 'Sign out', SIGNED_IN, {
        '204': { description: 'The token is refused from now on.' },
      }),
    };
    Object.assign(paths, passwordPaths(api, operation));
  }
  if (api.accounts) Object.assign(paths, accountPaths(api.accounts, operation, path));
  if (api.history) {
    paths[`${api.history}/{entity}/{id}`] = {
      get: operation(
        'history',
        "A record's transitions, newest first",
        [...SIGNED_IN, { status: 404, code: 'NOT_FOUND', detail: 'No such record, or no state machine.' }],
        {
          '200': {
            description: 'Who took each step is told only to a role that may change the record as it is.',
            content: json({
              type: 'object',
              required: ['items'],
              properties: {
                items: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['transition', 'from', 'to', 'at'],
                    properties: {
                      transition: { type: 'string' },
                      from: { type: 'string' },
                      to: { type: 'string' },
                      by: { type: ['object', 'null'] },
                      at: { type: 'string', format: 'date-time' },
                    },
                  },
                },
              },
            }),
          },
        },
        { parameters: [path('entity'), path('id')] },
      ),
    };
  }
  if (api.audit) {
    const page = [
      path('before', 'query', { type: 'string', description: 'The `next` of the page before.' }),
      path('limit', 'query', { type: 'integer', minimum: 1, maximum: 200, default: 50 }),
    ];
    const trail = (description: string) => ({
      '200': {
        description,
        // Its shape in words, as the figures': a schema would be read by a plain OpenAPI import as an
        // entity of the specification, with a list screen of its own.
        content: {
          ...json({ type: 'object' }),
          'text/csv': { schema: { type: 'string', description: 'One row per changed field.' } },
        },
      },
    });
    paths[api.audit] = {
      get: operation(
        'audit',
        'Every write, newest first: who made it, through which call, field by field',
        [...SIGNED_IN, { status: 404, code: 'NOT_FOUND', detail: 'No such entity.' }],
        trail(
          '`{ items: [{ id, at, entity, key, action, transition?, call, by?, changes: [{ field, before?, after? }] }], next? }`: the entries of records the role may read, as it may read them (hidden fields never; who made a change only to a role that may change the record).',
        ),
        { parameters: [path('entity', 'query'), ...page] },
      ),
    };
    paths[`${api.audit}/{entity}/{id}`] = {
      get: operation(
        'record-audit',
        "A record's changes, newest first",
        [
          ...SIGNED_IN,
          { status: 404, code: 'NOT_FOUND', detail: 'No such record, or not one the role may read.' },
        ],
        trail('As across records, for one record the role may read.'),
        { parameters: [path('entity'), path('id'), ...page] },
      ),
    };
  }
  if (api.import) {
    paths[`${api.import}/{entity}`] = {
      post: operation(
        'import',
        "Records from CSV rows, by the create call's own checks",
        [
          ...SIGNED_IN,
          { status: 400, code: 'BAD_CSV', detail: 'The file is not CSV that can be read.' },
          {
            status: 400,
            code: 'BAD_ENCODING',
            detail: 'The file does not decode cleanly; the byte and line are named.',
          },
          { status: 413, code: 'TOO_MANY_ROWS', detail: 'More than 100,000 rows: send the file in parts.' },
          { status: 422, code: 'AMBIGUOUS_FORMAT', detail: 'A number or date could be read two ways.' },
          { status: 422, code: 'MISSING_COLUMNS', detail: 'A column every new record needs is missing.' },
        ],
        {
          '200': {
            description: 'A report: created, updated, skipped, refused, with every error.',
            content: json({ type: 'object' }),
          },
        },
        {
          parameters: [
            path('entity'),
            path('dryRun', 'query', { type: 'boolean' }),
            path('match', 'query'),
            path('existing', 'query', { type: 'string', enum: ['skip', 'update'] }),
            path('firstRow', 'query', { type: 'integer', minimum: 1 }),
          ],
          requestBody: {
            required: true,
            content: { 'text/csv': { schema: { type: 'string' } }, ...json({ type: 'object' }) },
          },
        },
      ),
    };
  }
  const namesAnswer = {
    '200': {
      description: 'Names of records the role may read or see referred to; any other id is left out.',
      content: json({
        type: 'object',
        required: ['items'],
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name'],
              properties: { id: { type: 'string' }, name: { type: 'string' } },
            },
          },
        },
      }),
    },
  };
  const ids = {
    name: 'id',
    in: 'query',
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string' }, maxItems: 100 },
  };
  const badQuery: ProblemAnswer = {
    status: 400,
    code: 'INVALID_QUERY',
    detail: 'None, or more than 100, ids.',
  };
  if (api.names) {
    paths[`${api.names}/{entity}`] = {
      get: operation('names', 'The names of records', [...SIGNED_IN, badQuery], namesAnswer, {
        parameters: [path('entity'), ids, path('q', 'query')],
      }),
    };
  }
  if (api.people) {
    paths[api.people] = {
      get: operation(
        'people',
        'The names of people that person fields hold',
        [...SIGNED_IN, badQuery],
        namesAnswer,
        {
          parameters: [ids],
        },
      ),
    };
  }
  if (api.figures) {
    paths[`${api.figures}/{screen}/{figure}`] = {
      get: operation(
        'figures',
        "A dashboard's figure, computed over the records the role may read",
        [
          ...SIGNED_IN,
          { status: 403, code: 'FORBIDDEN', detail: 'The role may not see this figure.' },
          { status: 404, code: 'NO_SUCH_FIGURE', detail: 'No such figure on that dashboard.' },
          { status: 400, code: 'INVALID_PERIOD', detail: 'A period other than day, week or month.' },
        ],
        {
          '200': {
            description: '`{ value }`, or `{ groups: [{ key, value }], more }`.',
            content: json({ type: 'object' }),
          },
        },
        { parameters: [path('screen'), path('figure')] },
      ),
    };
  }
  if (api.events) {
    paths[api.events] = {
      get: operation(
        'events',
        'Changes to records, as server-sent events, as the role may read them',
        SIGNED_IN,
        {
          '200': {
            description: 'Events `ready`, `change` and `reset`; resume with `Last-Event-ID`.',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          '204': { description: 'No stream here.' },
        },
        {
          parameters: [
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
            {
              name: 'ticket',
              in: 'query',
              required: false,
              description: 'For `EventSource`, which sends no headers.',
              schema: { type: 'string' },
            },
          ],
        },
      ),
    };
    paths[`${api.events}/tickets`] = {
      post: operation('tickets', 'A ticket for one stream, good once within 30 s', SIGNED_IN, {
        '200': {
          description: 'The ticket.',
          content: json({
            type: 'object',
            properties: { ticket: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } },
          }),
        },
      }),
    };
  }
  if (hasFiles) {
    paths['/_files/{id}'] = {
      get: operation(
        'files',
        'A file a record holds, as a download',
        [...SIGNED_IN, { status: 404, code: 'NOT_FOUND', detail: 'No such file.' }],
        {
          '200': {
            description: 'The bytes.',
            content: {
              'application/octet-stream': {
                schema: { type: 'string', contentMediaType: 'application/octet-stream' },
              },
            },
          },
        },
        { parameters: [path('id')] },
      ),
    };
  }
  return paths;
}

/** The session a sign-in or a refresh answers. */
export const SESSION_SCHEMA: JsonObject = {
  type: 'object',
  required: ['user'],
  properties: {
    token: { type: 'string' },
    tokenType: { type: 'string', enum: ['Bearer'] },
    expiresAt: { type: 'string', format: 'date-time' },
    user: {
      type: 'object',
      required: ['id', 'email', 'role'],
      properties: { id: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    },
  },
};
