import type {
  Amount,
  Call,
  CallPurpose,
  Constant,
  FieldType,
  HttpMethod,
  Pagination,
  Parameter,
} from '@ninefold/model';
import type { MapContext } from './context';
import {
  CALL_PARAMETER,
  camel,
  deref,
  IDENTIFIER,
  isRecord,
  pascal,
  schemaRefName,
  schemaTypes,
  text,
  uniqueName,
} from './document';
import type { EntityMapper } from './entities';
import { mapListQuery, SORT_PARAMS } from './list-query-params';
import { type OperationInfo, textOf } from './operations';

const CURSOR_PARAMS = [
  'cursor',
  'after',
  'page_token',
  'pagetoken',
  'next_token',
  'nexttoken',
  'starting_after',
  'continuation',
  'continuationtoken',
  'next_cursor',
  'nextcursor',
  'page_after',
];
const SIZE_PARAMS = [
  'limit',
  'per_page',
  'perpage',
  'page_size',
  'pagesize',
  'size',
  'count',
  'max_results',
  'maxresults',
  'take',
  'top',
  '$top',
  'pagelen',
  'max',
];
const PAGE_PARAMS = ['page', 'page_number', 'pagenumber', 'pageno', 'page_no', 'p'];
const OFFSET_PARAMS = ['offset', 'skip', 'start', 'startat', 'start_at', '$skip', 'from'];
const NEXT_FIELDS = [
  'next_cursor',
  'nextCursor',
  'next_page_token',
  'nextPageToken',
  'cursor',
  'next',
  'nextToken',
  'next_token',
  'continuationToken',
];
/** Query parameters that page or sort, never filter. */
const PAGING_PARAMS = new Set([
  ...CURSOR_PARAMS,
  ...SIZE_PARAMS,
  ...PAGE_PARAMS,
  ...OFFSET_PARAMS,
  ...SORT_PARAMS,
]);
const isPagingParam = (name: string) => PAGING_PARAMS.has(name.toLowerCase());
const SIGN_IN_SEGMENTS = ['login', 'signin', 'sign-in', 'sign_in', 'session', 'sessions', 'authenticate'];
const SIGN_OUT_SEGMENTS = ['logout', 'signout', 'sign-out', 'sign_out'];
/** A POST that renews the session's token: `/auth/refresh`, `/token/refresh`, `/refresh-token`. */
const REFRESH_SEGMENTS = ['refresh', 'refresh-token', 'refresh_token', 'refreshtoken'];
/** What a bare `refresh` must follow to be the session's, not a record's action ("refresh the cache"). */
const AUTH_SEGMENTS = ['auth', 'oauth', 'oauth2', 'token', 'tokens', 'session', 'sessions', 'jwt'];
/**
 * Why a PUT, PATCH or DELETE on a path that also lists records is never one record's update or delete:
 * it changes every record it matches (Platformatic's `PUT /suppliers/`, Directus's `DELETE /items/x`),
 * and an edit of one record must never reach the others.
 */
const BULK_WRITE =
  'it writes to the collection path that lists the records, so it may change every record it matches; one record is updated or deleted only at its item path';

/** A call, with what the screens and states need to know about where it came from. */
export interface MappedCall {
  call: Call;
  info: OperationInfo;
  /** For transitions: the action's segment, e.g. `cancel`. */
  action?: string;
}

export interface CallsResult {
  calls: MappedCall[];
  constants: Constant[];
}

/**
 * Point 7: one call per operation, with its purpose, parameters, body, answer, pagination, sorting and
 * filtering. Names are the operation ids when they are valid names, else built from method and path.
 *
 * @example
 * ```ts
 * mapCalls(context, operations, mapper, entities).calls[0].call;
 * // { name: 'GetArticles', method: 'GET', path: '/articles', purpose: 'list', entity: 'Article', ... }
 * ```
 */
export function mapCalls(
  context: MapContext,
  operations: OperationInfo[],
  mapper: EntityMapper,
  guard: (info: OperationInfo, step: () => MappedCall | undefined) => MappedCall | undefined,
): CallsResult {
  const names = new Set<string>();
  const shapes = new Set<string>();
  const calls: MappedCall[] = [];
  const pageMaxima: Array<{ value: number; at: string; target: { pagination: Pagination } }> = [];
  // Collections with a list call: an item path below one reads one of its records, whatever it answers.
  const listed = new Map(
    operations
      .filter((info) => info.method === 'get' && !info.isItem && info.response.shape !== 'one')
      .map((info) => [info.resourcePath, info.response.record]),
  );
  for (const info of operations) {
    const mapped = guard(info, () => mapCall(context, info, mapper, names, shapes, pageMaxima, listed));
    if (mapped) calls.push(mapped);
  }
  // The most common maximum page size becomes MAX_PAGE_SIZE; others are named by their value.
  const constants: Constant[] = [];
  const counts = new Map<number, number>();
  for (const { value } of pageMaxima) counts.set(value, (counts.get(value) ?? 0) + 1);
  const ordered = [...counts].sort((a, b) => b[1] - a[1]);
  const nameOf = new Map<number, string>();
  ordered.forEach(([value], index) => {
    const name = index === 0 ? 'MAX_PAGE_SIZE' : `MAX_PAGE_SIZE_${value}`.replace(/[^A-Za-z0-9_]/g, '_');
    nameOf.set(value, name);
    constants.push({ name, value, unit: 'rows', meaning: 'Most records one page of a list call returns' });
  });
  for (const { value, at, target } of pageMaxima) {
    const name = nameOf.get(value);
    if (name === undefined) continue;
    const maxSize: Amount = { kind: 'constant', name };
    target.pagination = { ...target.pagination, maxSize } as Pagination;
    context.report.add(
      'constants',
      'inferred',
      at,
      `constant ${name} = ${value} from the maximum of a page size parameter`,
    );
  }
  return { calls, constants };
}

function mapCall(
  context: MapContext,
  info: OperationInfo,
  mapper: EntityMapper,
  names: Set<string>,
  shapes: Set<string>,
  pageMaxima: Array<{ value: number; at: string; target: { pagination: Pagination } }>,
  listed: ReadonlyMap<string, string | undefined>,
): MappedCall | undefined {
  const label = `${info.method.toUpperCase()} ${info.path}`;
  const problem = pathProblem(info.path);
  if (problem !== undefined) {
    context.report.add('calls', 'skipped', info.pointer, `${label} is left out: its path ${problem}`);
    context.issues.push({
      code: 'invalid-path',
      severity: 'warning',
      message: `${label} is left out: its path ${problem}.`,
      path: ['paths', info.path, info.method],
    });
    return undefined;
  }
  const shape = `${info.method} ${info.path.replace(/\{[^}]*\}/g, '{}')}`;
  if (shapes.has(shape)) {
    context.report.add(
      'calls',
      'skipped',
      info.pointer,
      `${label} is left out: another operation has the same method and path shape`,
    );
    return undefined;
  }
  shapes.add(shape);

  const operationId = text(info.operation.operationId);
  const wanted =
    operationId !== undefined && IDENTIFIER.test(operationId)
      ? operationId
      : operationId !== undefined && camel(operationId) !== ''
        ? camel(operationId)
        : `${info.method}${pascal(info.path) || 'Root'}`;
  const name = uniqueName(/^[A-Za-z_]/.test(wanted) ? wanted : `op${wanted}`, names);
  // What was inferred about one call is one entry of the report, so that 1,000 calls stay readable.
  const inferred: string[] = [];
  if (name !== operationId)
    inferred.push(
      `is named "${name}"${operationId ? ` (operationId "${operationId}" is not a valid name)` : ' (it has no operationId)'}`,
    );

  const entityName = info.resource === undefined ? undefined : mapper.use(info.resource);
  const { purpose, why, action } = purposeOf(info, listed);
  if (why !== undefined) inferred.push(`has purpose "${purpose}": ${why}`);

  const call: Call = {
    name,
    method: info.method.toUpperCase() as HttpMethod,
    path: info.path,
    purpose,
    parameters: [],
    filters: [],
  };
  if (entityName !== undefined) {
    call.entity = entityName;
    if (info.resourceInferred !== undefined)
      inferred.push(`works on "${entityName}": ${info.resourceInferred}`);
  }
  const description = textOf(info.operation.summary) ?? textOf(info.operation.description);
  if (description !== undefined) call.description = description;

  for (const { value, pointer: at } of info.parameters) {
    const parameter = mapParameter(value, mapper);
    if (typeof parameter === 'string') {
      context.report.add(
        'calls',
        'skipped',
        at,
        `parameter "${String(value.name)}" of ${label} is left out: ${parameter}`,
      );
      continue;
    }
    call.parameters.push(parameter);
  }
  // Every {param} of the path must be a parameter; documents that forget one still need it to call.
  for (const segment of info.path.match(/\{[^}]+\}/g) ?? []) {
    const param = segment.slice(1, -1);
    if (!call.parameters.some((p) => p.in === 'path' && p.name === param)) {
      call.parameters.push({ name: param, in: 'path', required: true, type: { kind: 'text' } });
      inferred.push(`its path parameter "${param}" is not declared; it is taken as required text`);
    }
  }

  if (info.body) {
    const body = mapBody(context, info, mapper, name);
    if (body !== undefined) call.body = body;
  }
  if (info.response.shape !== 'none' || info.responsePointer !== undefined) {
    const response: Call['response'] = { shape: info.response.shape };
    // A named envelope or wrapper is no entity: the shape (items, total) says where the records are.
    const recordEntity = info.response.record === undefined ? undefined : mapper.use(info.response.record);
    if (recordEntity !== undefined) response.entity = recordEntity;
    if (info.response.items !== undefined) response.items = info.response.items;
    if (info.response.total !== undefined) response.total = info.response.total;
    call.response = response;
    const field = info.response.field;
    if (info.response.shape === 'one' && field !== undefined) {
      context.report.add(
        'calls',
        'not-shown',
        info.responsePointer ?? info.pointer,
        recordEntity === undefined
          ? `${label} answers a list of values inside "${field}"; the model's response shape holds records, so the answer names no entity`
          : `${label} answers its "${recordEntity}" inside "${field}" ({ "${field}": ... }); the model's response shape cannot name that field, so it names the record only`,
      );
    }
  }

  const entity = entityName === undefined ? undefined : mapper.entity(entityName);
  if (purpose === 'list') {
    const pagination = paginationOf(context, info, label, inferred);
    if (pagination) {
      call.pagination = pagination.pagination;
      if (pagination.maxSize !== undefined)
        pageMaxima.push({
          value: pagination.maxSize,
          at: pagination.at,
          target: call as { pagination: Pagination },
        });
    }
    if (entity) mapListQuery(context, info, call, entity, label, inferred, isPagingParam);
  }
  context.report.add(
    'calls',
    'mapped',
    info.pointer,
    `${label} -> call "${name}" (${purpose}${entityName ? `, ${entityName}` : ''})`,
  );
  if (inferred.length > 0)
    context.report.add('calls', 'inferred', info.pointer, `${label} ${inferred.join('; ')}`);
  const mapped: MappedCall = { call, info };
  if (action !== undefined) mapped.action = action;
  return mapped;
}

function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'does not start with "/"';
  if (/[?#\s]/.test(path)) return 'has a query, fragment or space';
  if (path.includes('//')) return 'has an empty segment';
  const seen = new Set<string>();
  const open = (path.match(/\{/g) ?? []).length;
  const close = (path.match(/\}/g) ?? []).length;
  if (open !== close) return 'has unbalanced braces';
  const parameters = /\{([^{}]*)\}/g;
  for (let match = parameters.exec(path); match !== null; match = parameters.exec(path)) {
    const name = match[1] ?? '';
    if (!CALL_PARAMETER.test(name)) return `has parameter "{${name}}", which is not a plain name`;
    if (seen.has(name)) return `has parameter "{${name}}" twice`;
    seen.add(name);
  }
  if (path.includes('/:')) return 'has a ":param" segment';
  return undefined;
}

/** A token renewal: no record in its path, and a name that says so on its own or after an auth segment. */
function isRefresh(info: OperationInfo, last: string): boolean {
  if (info.isItem || !REFRESH_SEGMENTS.includes(last)) return false;
  if (last !== 'refresh') return true;
  const before = (info.pathSegments[info.pathSegments.length - 2] ?? '').toLowerCase();
  return AUTH_SEGMENTS.includes(before);
}

function purposeOf(
  info: OperationInfo,
  listed: ReadonlyMap<string, string | undefined>,
): { purpose: CallPurpose; why?: string; action?: string } {
  const last = (info.pathSegments[info.pathSegments.length - 1] ?? '').toLowerCase();
  const action = info.isAction;
  switch (info.method) {
    case 'get':
      if (info.response.shape === 'array' && info.isItem && listed.has(parentPath(info)))
        return {
          purpose: 'get',
          why: `it reads one record at an item path below the list ${parentPath(info)}; the document says it answers an array, of which the client shows the first record`,
        };
      if (
        info.response.shape === 'envelope' &&
        info.isItem &&
        info.response.record !== undefined &&
        listed.get(parentPath(info)) === info.response.record
      )
        return {
          purpose: 'get',
          why: `it reads one record at an item path below the list ${parentPath(info)}; the document says it answers that list's envelope, of whose records the client shows the first`,
        };
      if (info.response.shape === 'array' || info.response.shape === 'envelope')
        return {
          purpose: 'list',
          why: `it answers ${info.response.shape === 'array' ? 'an array' : 'an envelope with an array'} of records`,
        };
      if (info.response.shape === 'one')
        return {
          purpose: 'get',
          why: info.isItem ? 'it reads one record at an item path' : 'it answers one record',
        };
      return { purpose: 'other', why: 'its answer names no records' };
    case 'post':
      if (SIGN_IN_SEGMENTS.includes(last)) return { purpose: 'sign-in', why: `its path ends in "${last}"` };
      if (SIGN_OUT_SEGMENTS.includes(last)) return { purpose: 'sign-out', why: `its path ends in "${last}"` };
      if (isRefresh(info, last))
        return { purpose: 'refresh', why: `its path ends in "${info.pathSegments.slice(-2).join('/')}"` };
      if (action)
        return {
          purpose: 'transition',
          why: `"${last}" after a record's id names an action (no GET on this path)`,
          action: info.pathSegments[info.pathSegments.length - 1] ?? last,
        };
      if (!info.isItem) return { purpose: 'create', why: 'POST to a collection path' };
      return { purpose: 'other', why: 'POST to an item path' };
    case 'put':
    case 'patch':
      if (action)
        return {
          purpose: 'transition',
          why: `"${last}" after a record's id names an action`,
          action: info.pathSegments[info.pathSegments.length - 1] ?? last,
        };
      if (!info.isItem && listed.has(info.resourcePath)) return { purpose: 'other', why: BULK_WRITE };
      return {
        purpose: 'update',
        why: `${info.method.toUpperCase()} ${info.isItem ? 'to an item path' : 'to a path without an id (a single record)'}`,
      };
    case 'delete':
      if (SIGN_OUT_SEGMENTS.includes(last) || (last === 'session' && !info.isItem))
        return { purpose: 'sign-out', why: `its path ends in "${last}"` };
      if (action)
        return { purpose: 'other', why: `DELETE on the action "${last}" undoes it; no state is named` };
      if (!info.isItem && listed.has(info.resourcePath)) return { purpose: 'other', why: BULK_WRITE };
      return { purpose: 'delete' };
    default:
      return { purpose: 'other' };
  }
}

function mapParameter(value: Record<string, unknown>, mapper: EntityMapper): Parameter | string {
  const name = text(value.name);
  const where = value.in;
  if (name === undefined || name === '') return 'it has no name';
  if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie')
    return `its location "${String(where)}" is not path, query, header or cookie`;
  let type: FieldType | undefined;
  if (value.schema !== undefined) type = mapper.scalarType(value.schema);
  else if (isRecord(value.content)) type = { kind: 'text' };
  if (type === undefined) return 'its schema is an object or has no type a parameter can carry';
  const parameter: Parameter = {
    name,
    in: where,
    required: where === 'path' || value.required === true,
    type,
  };
  const description = textOf(value.description);
  if (description !== undefined) parameter.description = description;
  return parameter;
}

function mapBody(
  context: MapContext,
  info: OperationInfo,
  mapper: EntityMapper,
  callName: string,
): Call['body'] | undefined {
  const body = info.body;
  if (body === undefined) return undefined;
  const label = `${info.method.toUpperCase()} ${info.path}`;
  const single = oneOrMany(context, body.schema);
  if (single !== undefined)
    context.report.add(
      'calls',
      'inferred',
      body.pointer,
      `request body of ${label} takes one record or an array of them (oneOf/anyOf): the client sends one`,
    );
  const schema = single?.schema ?? body.schema;
  const at = single === undefined ? `${body.pointer}/schema` : `${body.pointer}/schema/${single.at}`;
  const refName = schemaRefName(schema);
  const entity =
    (refName === undefined ? undefined : mapper.use(refName)) ??
    mapper.sameAs(schema, at) ??
    mapper.inline(schema, body.name ?? `${callName}Body`, at);
  if (entity === undefined) {
    const resolved = deref(context.doc, schema);
    const kind = isRecord(resolved) ? schemaTypes(resolved).types.join(', ') || 'untyped' : 'missing';
    context.report.add(
      'calls',
      'skipped',
      body.pointer,
      `request body of ${label} is left out: its schema (${kind}) is not an object with named properties`,
    );
    return undefined;
  }
  return { entity, encoding: body.encoding };
}

/**
 * The record branch of a body that takes one record or a batch (`oneOf: [array of X, X]`, as Directus's
 * creates do), with its place under the schema; undefined for any other body.
 */
function oneOrMany(context: MapContext, schema: unknown): { schema: unknown; at: string } | undefined {
  const resolved = deref(context.doc, schema);
  if (!isRecord(resolved)) return undefined;
  const keyword = Array.isArray(resolved.oneOf)
    ? 'oneOf'
    : Array.isArray(resolved.anyOf)
      ? 'anyOf'
      : undefined;
  const branches = keyword === undefined ? [] : (resolved[keyword] as unknown[]);
  if (keyword === undefined || branches.length !== 2) return undefined;
  const arrayAt = branches.findIndex((branch) => {
    const value = deref(context.doc, branch);
    return isRecord(value) && (value.type === 'array' || isRecord(value.items));
  });
  if (arrayAt < 0) return undefined;
  const one = branches[1 - arrayAt];
  const many = deref(context.doc, branches[arrayAt]);
  if (!isRecord(many)) return undefined;
  const item = many.items;
  const same =
    (schemaRefName(item) !== undefined && schemaRefName(item) === schemaRefName(one)) ||
    JSON.stringify(deref(context.doc, item)) === JSON.stringify(deref(context.doc, one));
  return same ? { schema: one, at: `${keyword}/${1 - arrayAt}` } : undefined;
}

function parentPath(info: OperationInfo): string {
  return `/${info.pathSegments.slice(0, -1).join('/')}`;
}

function paginationOf(
  context: MapContext,
  info: OperationInfo,
  label: string,
  inferred: string[],
): { pagination: Pagination; maxSize?: number; at: string } | undefined {
  const query = info.parameters.filter((p) => p.value.in === 'query');
  const find = (names: string[]) => query.find((p) => names.includes(String(p.value.name).toLowerCase()));
  const size = find(SIZE_PARAMS);
  const page = find(PAGE_PARAMS);
  const offset = find(OFFSET_PARAMS);
  const cursor = find(CURSOR_PARAMS);
  const hasLink = info.response.headers.some((h) => h.toLowerCase() === 'link');
  const sizeName = size ? String(size.value.name) : undefined;
  const schema = size ? deref(context.doc, size.value.schema) : undefined;
  const maximum = isRecord(schema) && typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const at = size?.pointer ?? info.pointer;
  const done = (pagination: Pagination, why: string) => {
    inferred.push(`pages by ${pagination.style}: ${why}`);
    return maximum === undefined
      ? { pagination, at }
      : { pagination, maxSize: maximum, at: `${at}/schema/maximum` };
  };
  if (cursor && sizeName) {
    const properties =
      isRecord(info.response.body) && isRecord(info.response.body.properties)
        ? Object.keys(info.response.body.properties)
        : [];
    const next = NEXT_FIELDS.find((field) => properties.includes(field));
    if (next !== undefined)
      return done(
        { style: 'cursor', cursorParam: String(cursor.value.name), sizeParam: sizeName, nextField: next },
        `parameters "${String(cursor.value.name)}" and "${sizeName}", next cursor in "${next}"`,
      );
    if (!hasLink) {
      context.report.add(
        'calls',
        'skipped',
        info.pointer,
        `${label} has a cursor parameter "${String(cursor.value.name)}", but its answer names no next-cursor field; its pagination is left out`,
      );
      return undefined;
    }
  }
  if (page && sizeName)
    return done(
      { style: 'page', pageParam: String(page.value.name), sizeParam: sizeName },
      `parameters "${String(page.value.name)}" and "${sizeName}"`,
    );
  if (offset && sizeName)
    return done(
      { style: 'offset', offsetParam: String(offset.value.name), limitParam: sizeName },
      `parameters "${String(offset.value.name)}" and "${sizeName}"`,
    );
  if (hasLink) {
    const pagination: Pagination = sizeName
      ? { style: 'link-header', sizeParam: sizeName }
      : { style: 'link-header' };
    return done(pagination, 'its answer has a Link header');
  }
  return undefined;
}
