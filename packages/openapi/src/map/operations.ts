import type { MapContext } from './context';
import {
  deref,
  HTTP_METHODS_LOWER,
  isRecord,
  type LowerMethod,
  list,
  pointer,
  type SchemaLike,
  schemaRefName,
  schemaTypes,
  text,
} from './document';
import { type EntityDraft, isObjectSchema } from './schemas';

export type Encoding = 'json' | 'form' | 'multipart';

/** What the records of an answer look like, by schema name (the entity drafts' keys). */
export interface ResponseRead {
  shape: 'one' | 'array' | 'envelope' | 'none';
  /** Schema name of the records (unwrapped from a one-property wrapper or an envelope). */
  record?: string;
  /** Why the records were matched by their fields rather than named by a reference. */
  recordInferred?: string;
  /** Schema name of the answer itself when it is a named wrapper around the record. */
  wrapper?: string;
  items?: string;
  total?: string;
  /** The answer's object schema, to look for a next-cursor field. */
  body?: SchemaLike;
  headers: string[];
}

/** One operation of the document, read once and shared by calls, screens and states. */
export interface OperationInfo {
  path: string;
  method: LowerMethod;
  operation: Record<string, unknown>;
  pointer: string;
  pathSegments: string[];
  /** The path ends with a `{param}` segment: it names one record. */
  isItem: boolean;
  lastParam?: string;
  response: ResponseRead;
  responsePointer?: string;
  body?: { schema: unknown; encoding: Encoding; pointer: string };
  /** Schema name of the records this operation works on. */
  resource?: string;
  resourceInferred?: string;
  parameters: Array<{ value: Record<string, unknown>; pointer: string }>;
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:;.*)?$|^\*\/\*$/;

/** The first media type of a content map that the client can send or read, with its encoding. */
export function pickContent(
  content: unknown,
): { type: string; media: Record<string, unknown>; encoding: Encoding } | undefined {
  if (!isRecord(content)) return undefined;
  const entries = Object.entries(content).filter((entry): entry is [string, Record<string, unknown>] =>
    isRecord(entry[1]),
  );
  const json = entries.find(([type]) => JSON_TYPE.test(type.toLowerCase()));
  if (json) return { type: json[0], media: json[1], encoding: 'json' };
  const form = entries.find(([type]) => type.toLowerCase().startsWith('application/x-www-form-urlencoded'));
  if (form) return { type: form[0], media: form[1], encoding: 'form' };
  const multipart = entries.find(([type]) => type.toLowerCase().startsWith('multipart/form-data'));
  if (multipart) return { type: multipart[0], media: multipart[1], encoding: 'multipart' };
  return undefined;
}

const TOTAL_NAMES =
  /^(?:total|count|totalcount|total_count|totalitems|total_items|totalresults|total_results|.+count)$/i;

/**
 * Reads an answer's schema: a record (`one`), a bare array, an envelope with the records in an array
 * property, or a named one-property wrapper around one record (Conduit's `{ article: Article }`).
 */
/**
 * The named record an inline object stands for: the entity whose fields include all of the object's,
 * with the fewest extra. APIs often list records without their heaviest fields (Conduit lists articles
 * without their body), inline rather than by reference.
 */
function recordByFields(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  items: unknown,
): string | undefined {
  const inline = deref(context.doc, items);
  if (!isRecord(inline) || !isRecord(inline.properties)) return undefined;
  const names = Object.keys(inline.properties);
  if (names.length < 2) return undefined;
  let best: { name: string; extra: number } | undefined;
  for (const [name, draft] of drafts) {
    if (!names.every((field) => draft.flat.properties.has(field))) continue;
    const extra = draft.flat.properties.size - names.length;
    if (!best || extra < best.extra) best = { name, extra };
  }
  return best?.name;
}

export function readResponseSchema(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  schema: unknown,
): Omit<ResponseRead, 'headers'> {
  const refName = schemaRefName(schema);
  const resolved = deref(context.doc, schema);
  if (!isRecord(resolved)) return { shape: 'none' };
  const { types } = schemaTypes(resolved);
  if (types.includes('array') || resolved.items !== undefined) {
    const itemName = schemaRefName(resolved.items);
    return itemName !== undefined && drafts.has(itemName)
      ? { shape: 'array', record: itemName }
      : { shape: 'array' };
  }
  const draft = refName === undefined ? undefined : drafts.get(refName);
  const properties = draft
    ? draft.flat.properties
    : isRecord(resolved.properties)
      ? new Map(Object.entries(resolved.properties))
      : new Map<string, unknown>();
  // An envelope: one array property of records, maybe a total and paging fields beside it.
  const arrays = [...properties].filter(([, value]) => {
    const inner = deref(context.doc, value);
    if (!isRecord(inner)) return false;
    const itemName = schemaRefName(inner.items);
    // Records inline in the array (Conduit lists articles without their body) still make an envelope.
    return itemName !== undefined ? drafts.has(itemName) : isObjectSchema(context, inner.items);
  });
  if (arrays.length === 1 && arrays[0] !== undefined) {
    const [items, value] = arrays[0];
    const inner = deref(context.doc, value) as Record<string, unknown>;
    const total = [...properties.keys()].find((name) => name !== items && TOTAL_NAMES.test(name));
    const read: Omit<ResponseRead, 'headers'> = { shape: 'envelope', items, body: resolved };
    const record = schemaRefName(inner.items);
    if (record !== undefined) read.record = record;
    else {
      const match = recordByFields(context, drafts, inner.items);
      if (match !== undefined) {
        read.record = match;
        read.recordInferred = `its list items are inline objects whose fields all belong to "${match}"`;
      }
    }
    if (total !== undefined) read.total = total;
    if (refName !== undefined) read.wrapper = refName;
    return read;
  }
  // A wrapper: exactly one property, a record.
  if (properties.size === 1) {
    const [only] = [...properties.values()];
    const innerName = schemaRefName(only);
    if (innerName !== undefined && drafts.has(innerName)) {
      const read: Omit<ResponseRead, 'headers'> = { shape: 'one', record: innerName, body: resolved };
      if (refName !== undefined) read.wrapper = refName;
      return read;
    }
  }
  if (refName !== undefined && drafts.has(refName)) return { shape: 'one', record: refName, body: resolved };
  return { shape: 'one', body: resolved };
}

/** The first success answer of an operation: 200, 201, other 2xx, then `2XX`. */
function successResponse(responses: unknown): [string, unknown] | undefined {
  if (!isRecord(responses)) return undefined;
  const codes = Object.keys(responses).filter((code) => /^2(?:\d\d|XX)$/i.test(code));
  codes.sort(
    (a, b) => (a.toUpperCase() === '2XX' ? 1 : 0) - (b.toUpperCase() === '2XX' ? 1 : 0) || a.localeCompare(b),
  );
  const code = codes[0];
  return code === undefined ? undefined : [code, responses[code]];
}

/** Splits a path into segments: `/stores/{id}/employees` -> `['stores', '{id}', 'employees']`. */
export function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

export function paramOf(segment: string | undefined): string | undefined {
  return segment !== undefined && /^\{[^{}]+\}$/.test(segment) ? segment.slice(1, -1) : undefined;
}

/** Reads every operation; each read failure is an issue for that operation only. */
export function readOperations(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  guardedRead: (
    path: string,
    method: string,
    read: () => OperationInfo | undefined,
  ) => OperationInfo | undefined,
): OperationInfo[] {
  const paths = context.doc.paths;
  const out: OperationInfo[] = [];
  if (!isRecord(paths)) return out;
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(context.doc, rawItem);
    if (!isRecord(item)) continue;
    for (const method of ['head', 'options', 'trace'] as const) {
      if (isRecord(item[method])) {
        context.report.add(
          'calls',
          'skipped',
          pointer('paths', path, method),
          `${method.toUpperCase()} ${path}: the client makes only GET, POST, PUT, PATCH and DELETE calls`,
        );
      }
    }
    for (const method of HTTP_METHODS_LOWER) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const info = guardedRead(path, method, () =>
        readOperation(context, drafts, path, item, method, operation),
      );
      if (info) out.push(info);
    }
  }
  assignResources(out);
  return out;
}

function readOperation(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  path: string,
  item: Record<string, unknown>,
  method: LowerMethod,
  operation: Record<string, unknown>,
): OperationInfo {
  const at = pointer('paths', path, method);
  const pathSegments = segmentsOf(path);
  const lastParam = paramOf(pathSegments[pathSegments.length - 1]);
  const info: OperationInfo = {
    path,
    method,
    operation,
    pointer: at,
    pathSegments,
    isItem: lastParam !== undefined,
    response: { shape: 'none', headers: [] },
    parameters: [],
  };
  if (lastParam !== undefined) info.lastParam = lastParam;

  // Operation parameters override path-level ones with the same name and location.
  const byKey = new Map<string, { value: Record<string, unknown>; pointer: string }>();
  list(item.parameters).forEach((raw, index) => {
    const value = deref(context.doc, raw);
    if (isRecord(value))
      byKey.set(`${String(value.in)}:${String(value.name)}`, {
        value,
        pointer: `${pointer('paths', path)}/parameters/${index}`,
      });
  });
  list(operation.parameters).forEach((raw, index) => {
    const value = deref(context.doc, raw);
    if (isRecord(value))
      byKey.set(`${String(value.in)}:${String(value.name)}`, { value, pointer: `${at}/parameters/${index}` });
  });
  info.parameters = [...byKey.values()];

  const requestBody = deref(context.doc, operation.requestBody);
  if (isRecord(requestBody)) {
    const picked = pickContent(requestBody.content);
    if (picked) {
      info.body = {
        schema: picked.media.schema,
        encoding: picked.encoding,
        pointer: `${at}/requestBody/content/${picked.type.replaceAll('~', '~0').replaceAll('/', '~1')}`,
      };
    } else if (isRecord(requestBody.content)) {
      context.report.add(
        'calls',
        'skipped',
        `${at}/requestBody`,
        `${method.toUpperCase()} ${path}: the request body's media types (${Object.keys(requestBody.content).join(', ')}) are not JSON, form or multipart`,
      );
    }
  }

  const success = successResponse(operation.responses);
  if (success) {
    const [code, raw] = success;
    const response = deref(context.doc, raw);
    info.responsePointer = `${at}/responses/${code}`;
    if (isRecord(response)) {
      const headers = isRecord(response.headers) ? Object.keys(response.headers) : [];
      const picked = pickContent(response.content);
      const read =
        picked && picked.media.schema !== undefined
          ? readResponseSchema(context, drafts, picked.media.schema)
          : { shape: 'none' as const };
      info.response = { ...read, headers };
    }
  }
  if (info.response.record !== undefined) {
    info.resource = info.response.record;
    if (info.response.recordInferred !== undefined) info.resourceInferred = info.response.recordInferred;
  }
  return info;
}

/**
 * Operations whose answer names no record (a DELETE, an action) take the records of the other
 * operations on the same path, then of the collection above an item path.
 */
function assignResources(operations: OperationInfo[]): void {
  const byPath = new Map<string, string>();
  for (const info of operations) {
    if (info.resource !== undefined && !byPath.has(info.path)) byPath.set(info.path, info.resource);
  }
  for (const info of operations) {
    if (info.resource !== undefined) continue;
    const same = byPath.get(info.path);
    if (same !== undefined) {
      info.resource = same;
      info.resourceInferred = `the other operations on ${info.path} work on it`;
      continue;
    }
    if (info.isItem) {
      const parent = `/${info.pathSegments.slice(0, -1).join('/')}`;
      const above = byPath.get(parent);
      if (above !== undefined) {
        info.resource = above;
        info.resourceInferred = `the collection ${parent} holds it`;
      }
    }
  }
}

/** Whether a literal segment names an action rather than a collection (no GET lists it). */
export function isActionPath(info: OperationInfo, operations: OperationInfo[]): boolean {
  const segments = info.pathSegments;
  const last = segments[segments.length - 1];
  if (last === undefined || paramOf(last) !== undefined) return false;
  if (paramOf(segments[segments.length - 2]) === undefined) return false;
  return !operations.some((other) => other.path === info.path && other.method === 'get');
}

export function textOf(value: unknown): string | undefined {
  const t = text(value)?.trim();
  return t === undefined || t === '' ? undefined : t;
}
