// Point 7 as OpenAPI operations: each call of the prototype API with its parameters as the API reads
// them (pages, sort, filters, search), its body, its answers and its headers.
import { findEntity } from '../../lookup';
import type { Call, Entity, FilterParam, Model, Pagination, StateMachine, Transition } from '../../model';
import { permissionsApply } from '../../rules/grants';
import { sortParamNames } from '../../rules/sort-param';
import { listDefaultPageSize, listMaxSize } from '../api';
import { callProblems, problemResponses } from './problems';
import { componentName, type JsonObject, newComponentName, parameterSchema, schemaRef } from './schemas';

/** What a transition operation says of its step of point 4, beside the words, for tools to read. */
export interface TransitionInfo {
  machine: StateMachine;
  transition: Transition;
}

const ETAG_HEADER = {
  description: "The record's version, for `If-Match` on its next update.",
  schema: { type: 'string' },
};

/** One call as an OpenAPI operation. `transition` is the step a transition call takes, when it is known. */
export function operationOf(
  model: Model,
  call: Call,
  transition: TransitionInfo | undefined,
  callDocument: unknown,
): JsonObject {
  const entity = call.entity ? findEntity(model, call.entity) : undefined;
  const parameters = [...declaredParameters(model, call), ...listParameters(model, call, entity)];
  if (call.purpose === 'update') {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: true,
      description: 'The ETag of the version the change was made on; without it the answer is 428.',
      schema: { type: 'string' },
    });
  }
  if (call.purpose === 'transition') {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: false,
      description: 'The ETag of the version the person saw; a stale one is 412.',
      schema: { type: 'string' },
    });
  }
  if (
    call.method === 'POST' &&
    (call.purpose === 'create' || call.purpose === 'transition' || call.purpose === 'other')
  ) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retry safe: the call changes the data at most once, and a repeat gets the first answer again.',
      schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
    });
  }
  const body = requestBody(model, call, entity);
  const operation: JsonObject = {
    operationId: call.name,
    summary: summaryOf(call, entity),
    ...(call.description ? { description: call.description } : {}),
    ...(entity ? { tags: [entity.name] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: {
      ...successResponses(model, call, entity),
      ...problemResponses(model, callProblems(model, call, entity, transition), entity?.name),
    },
  };
  if (call.purpose === 'sign-in' || (call.purpose === 'list' && isPublicList(model))) {
    operation.security =
      call.purpose === 'sign-in' ? [] : [{}, ...securityNames(model).map((n) => ({ [n]: [] }))];
  }
  if (transition) operation['x-ninefold-transition'] = transitionExtension(transition);
  // The call exactly as point 7 writes it, where point 7 is shown: an import reads it back whole.
  if (callDocument !== undefined) operation['x-ninefold-call'] = callDocument;
  return operation;
}

/** The security scheme names the document declares (see `securitySchemes`). */
export function securityNames(model: Model): string[] {
  if (!model.roles.shown || !permissionsApply(model)) return [];
  return ['ninefold'];
}

function isPublicList(model: Model): boolean {
  return model.roles.shown && model.roles.roles.some((role) => role.signedOut === true);
}

function summaryOf(call: Call, entity: Entity | undefined): string {
  const name = entity?.label ?? entity?.name ?? '';
  const plural = entity?.plural ?? `${name}s`;
  switch (call.purpose) {
    case 'list':
      return `A page of ${plural}`;
    case 'get':
      return `One ${name}`;
    case 'create':
      return `A new ${name}`;
    case 'update':
      return `Change a ${name}`;
    case 'delete':
      return `Remove a ${name}`;
    case 'transition':
      return `${call.name} (a transition of ${name})`;
    case 'sign-in':
      return 'Sign in';
    case 'refresh':
      return 'A fresh token';
    case 'sign-out':
      return 'Sign out';
    case 'upload':
    case 'other':
      return call.name;
  }
}

function declaredParameters(model: Model, call: Call): JsonObject[] {
  const out: JsonObject[] = call.parameters.map((parameter) => ({
    name: parameter.name,
    in: parameter.in,
    required: parameter.in === 'path' ? true : parameter.required,
    ...(parameter.description ? { description: parameter.description } : {}),
    schema: parameterSchema(model, parameter.type),
  }));
  // OpenAPI needs every `{name}` of the path declared; a call that names none gets text.
  for (const [, name] of call.path.matchAll(/\{([^}]+)\}/g)) {
    if (!out.some((p) => p.in === 'path' && p.name === name)) {
      out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  return out;
}

function listParameters(model: Model, call: Call, entity: Entity | undefined): JsonObject[] {
  if (call.purpose !== 'list' || !entity) return [];
  const declared = new Set(call.parameters.map((p) => p.name));
  const out: JsonObject[] = [];
  const add = (parameter: JsonObject) => {
    if (!declared.has(parameter.name as string)) out.push(parameter);
    declared.add(parameter.name as string);
  };
  const max = listMaxSize(model, call);
  const size = (name: string) =>
    add({
      name,
      in: 'query',
      description: `How many records a page holds, at most ${max}.`,
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: max,
        default: Math.min(listDefaultPageSize(model, entity), max),
      },
    });
  for (const parameter of paginationParameters(call.pagination)) add(parameter);
  if (call.pagination && call.pagination.style !== 'none') {
    const sizeParam = sizeParamOf(call.pagination);
    if (sizeParam) size(sizeParam);
  }
  if (call.sort) for (const parameter of sortParameters(call.sort)) add(parameter);
  for (const filter of call.filters) {
    const field = entity.fields.find((f) => f.name === filter.field);
    if (field) add(filterParameter(filter, parameterSchema(model, field)));
  }
  if (call.search) {
    add({
      name: call.search.param,
      in: 'query',
      description:
        'Words, each the start of a word of a record, in any searched field, in any case. Not a query language.',
      schema: { type: 'string', maxLength: 1000 },
      ...(call.search.fields ? { 'x-ninefold-search': { fields: call.search.fields } } : {}),
    });
  }
  return out;
}

function paginationParameters(pagination: Pagination | undefined): JsonObject[] {
  if (!pagination) return [];
  switch (pagination.style) {
    case 'page':
      return [
        {
          name: pagination.pageParam,
          in: 'query',
          description: 'The page, from 1.',
          schema: { type: 'integer', minimum: 1, default: 1 },
        },
      ];
    case 'link-header':
      return [
        {
          name: 'page',
          in: 'query',
          description: 'The page, from 1; `Link` names the next.',
          schema: { type: 'integer', minimum: 1, default: 1 },
        },
      ];
    case 'offset':
      return [
        {
          name: pagination.offsetParam,
          in: 'query',
          description: 'How many records to skip.',
          schema: { type: 'integer', minimum: 0, default: 0 },
        },
      ];
    case 'cursor':
      return [
        {
          name: pagination.cursorParam,
          in: 'query',
          description: 'Opaque: the last answer gives it.',
          schema: { type: 'string' },
        },
      ];
    case 'none':
      return [];
  }
}

function sizeParamOf(pagination: Pagination): string | undefined {
  switch (pagination.style) {
    case 'page':
    case 'cursor':
      return pagination.sizeParam;
    case 'link-header':
      return pagination.sizeParam ?? 'per_page';
    case 'offset':
      return pagination.limitParam;
    case 'none':
      return undefined;
  }
}

function sortParameters(sort: NonNullable<Call['sort']>): JsonObject[] {
  switch (sort.style) {
    case 'field,-field':
    case 'field:asc': {
      const keys =
        sort.style === 'field,-field'
          ? sort.fields.flatMap((f) => [f, `-${f}`])
          : sort.fields.flatMap((f) => [`${f}:asc`, `${f}:desc`]);
      return [
        {
          name: sort.param,
          in: 'query',
          description: 'Sort keys, comma-separated, the first deciding first; ties are broken by the key.',
          style: 'form',
          explode: false,
          schema: { type: 'array', items: { type: 'string', enum: keys } },
        },
      ];
    }
    case 'param-per-field':
      return sortParamNames(sort).map((name) => ({
        name,
        in: 'query',
        schema: { type: 'string', enum: ['asc', 'desc'] },
      }));
  }
}

function filterParameter(filter: FilterParam, schema: JsonObject): JsonObject {
  const words = {
    eq: 'equal to',
    contains: 'holding the text, in any case',
    gte: 'at least',
    lte: 'at most',
    in: 'one of, comma-separated,',
  }[filter.op];
  return {
    name: filter.param,
    in: 'query',
    description: `Records whose ${filter.field} is ${words} the value${filter.pattern ? `, written as \`${filter.pattern}\`` : ''}.`,
    ...(filter.op === 'in'
      ? { style: 'form', explode: false, schema: { type: 'array', items: schema } }
      : { schema: filter.op === 'contains' || filter.pattern ? { type: 'string' } : schema }),
    'x-ninefold-filter': {
      field: filter.field,
      op: filter.op,
      ...(filter.pattern ? { pattern: filter.pattern } : {}),
    },
  };
}

function requestBody(model: Model, call: Call, entity: Entity | undefined): JsonObject | undefined {
  if (
    !call.body ||
    !entity ||
    (call.purpose !== 'create' && call.purpose !== 'update' && call.purpose !== 'other')
  ) {
    return undefined;
  }
  const name = call.purpose === 'create' ? newComponentName(model, entity.name) : componentName(entity.name);
  const base = schemaRef(name);
  const schema = call.body.fields ? { allOf: [base], propertyNames: { enum: call.body.fields } } : base;
  const content: JsonObject = { 'application/json': { schema } };
  if (call.body.encoding === 'form') content['application/x-www-form-urlencoded'] = { schema };
  if (call.body.encoding === 'multipart') content['multipart/form-data'] = { schema };
  return { required: true, content };
}

function successResponses(_model: Model, call: Call, entity: Entity | undefined): Record<string, JsonObject> {
  const one = entity ? schemaRef(componentName(entity.name)) : { type: 'object' };
  const record = (description: string, extra: JsonObject = {}) => ({
    description,
    headers: { ETag: ETAG_HEADER, ...extra },
    content: { 'application/json': { schema: one } },
  });
  switch (call.purpose) {
    case 'list':
      return { '200': listResponse(call, one) };
    case 'get':
      return { '200': record('The record, with the fields the role may read.') };
    case 'create':
      return {
        '201': record('The new record.', {
          Location: { description: 'Where the new record is read.', schema: { type: 'string' } },
        }),
      };
    case 'update':
      return { '200': record('The record as it is now.') };
    case 'transition':
      return { '200': record('The record in its new state.') };
    case 'delete':
      return { '204': { description: 'Removed.' } };
    case 'sign-in':
      return {
        '200': {
          description: 'A session.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Session' } } },
        },
      };
    case 'refresh':
      return {
        '200': {
          description: 'A fresh session; the old token is revoked.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Session' } } },
        },
      };
    case 'sign-out':
      return { '204': { description: 'Signed out; the token is refused from now on.' } };
    case 'upload':
    case 'other':
      return { '200': { description: 'Served by the real API; the prototype answers 501.' } };
  }
}

function listResponse(call: Call, one: JsonObject): JsonObject {
  const response = call.response ?? { shape: 'array' as const };
  const items = { type: 'array', items: one };
  const headers: JsonObject = {
    'X-Total-Count': {
      description: 'How many records the role may read match.',
      schema: { type: 'integer' },
    },
  };
  if (call.pagination?.style === 'link-header') {
    headers.Link = {
      description: 'The next and previous pages (`rel="next"`, `rel="prev"`).',
      schema: { type: 'string' },
    };
  }
  let schema: JsonObject = items;
  if (response.shape === 'envelope') {
    const properties: Record<string, JsonObject> = { [response.items ?? 'items']: items };
    if (response.total) properties[response.total] = { type: 'integer', minimum: 0 };
    if (call.pagination?.style === 'cursor') {
      properties[call.pagination.nextField] = {
        type: ['string', 'null'],
        description: "The next page's cursor; null on the last.",
      };
    }
    schema = { type: 'object', required: Object.keys(properties), properties };
  }
  return {
    description:
      'The records the role may read, filtered, sorted and paged. `Accept: text/csv` gives the whole list as a file.',
    headers,
    content: {
      'application/json': { schema },
      'text/csv': { schema: { type: 'string' } },
    },
  };
}

function transitionExtension({ machine, transition }: TransitionInfo): JsonObject {
  return {
    entity: machine.entity,
    field: machine.field,
    name: transition.name,
    from: transition.from,
    to: transition.to,
    ...(transition.roles ? { roles: transition.roles } : {}),
    ...(transition.guard ? { guard: transition.guard } : {}),
  };
}
