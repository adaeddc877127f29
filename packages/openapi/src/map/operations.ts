import type { MapContext } from './context';
import {
  deref,
  HTTP_METHODS_LOWER,
  isRecord,
  type LowerMethod,
  list,
  pointer,
  refSegments,
  type SchemaLike,
  schemaRefName,
  schemaTypes,
  text,
} from './document';
import type { SameSchemaIndex } from './same-schema';
import { type EntityDraft, isObjectSchema } from './schemas';

export type Encoding = 'json' | 'form' | 'multipart';

/** What the records of an answer look like, by schema name (the entity drafts' keys). */
export interface ResponseRead {
  shape: 'one' | 'array' | 'envelope' | 'none';
  /** Schema name of the records (unwrapped from a one-property wrapper or an envelope). */
  record?: string;
  /** Why the records were matched by their fields rather than named by a reference. */
  recordInferred?: string;
  /** Schema name of the answer itself when it is a named wrapper (around a record or a list). */
  wrapper?: string;
  /** The one property of a wrapper that holds the answer (`{ article: Article }` -> `article`). */
  field?: string;
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
  /**
   * The path as resources nest, without a format suffix (`/Accounts/{Sid}.json` -> `/Accounts/{Sid}`):
   * what lists, items and routes are matched on. Calls keep `path`.
   */
  resourcePath: string;
  pathSegments: string[];
  /** The path ends with a `{param}` segment: it names one record. */
  isItem: boolean;
  /** A literal segment after a record's id, and no GET on the path: an action (`/orders/{id}/cancel`). */
  isAction: boolean;
  lastParam?: string;
  response: ResponseRead;
  responsePointer?: string;
  body?: {
    schema: unknown;
    encoding: Encoding;
    pointer: string;
    /** The name of the `components.requestBodies` entry it comes from, which names an inline schema. */
    name?: string;
  };
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

/** The property names of each named schema, and for each name the schemas that have it. */
interface FieldIndex {
  names: Map<EntityDraft, Set<string>>;
  holders: Map<string, EntityDraft[]>;
}

// Built once per set of drafts: answers are matched against every named schema.
const fieldIndexes = new WeakMap<Map<string, EntityDraft>, FieldIndex>();

function fieldIndex(drafts: Map<string, EntityDraft>): FieldIndex {
  let index = fieldIndexes.get(drafts);
  if (index !== undefined) return index;
  index = { names: new Map(), holders: new Map() };
  for (const draft of drafts.values()) {
    // Most schemas list their properties plainly: they are read without flattening them.
    const schema = draft.schema;
    const plain =
      isRecord(schema.properties) &&
      schema.allOf === undefined &&
      schema.oneOf === undefined &&
      schema.anyOf === undefined
        ? schema.properties
        : undefined;
    const names = new Set(plain === undefined ? draft.flat.properties.keys() : Object.keys(plain));
    index.names.set(draft, names);
    for (const name of names) {
      const holders = index.holders.get(name);
      if (holders === undefined) index.holders.set(name, [draft]);
      else holders.push(draft);
    }
  }
  fieldIndexes.set(drafts, index);
  return index;
}

/**
 * The named record an inline object stands for: the entity whose fields include all of the object's,
 * with the fewest extra. APIs often list records without their heaviest fields (Conduit lists articles
 * without their body), inline rather than by reference.
 */
export function recordByFields(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  items: unknown,
): string | undefined {
  const inline = deref(context.doc, items);
  if (!isRecord(inline) || !isRecord(inline.properties)) return undefined;
  const wanted = Object.keys(inline.properties);
  if (wanted.length < 2) return undefined;
  const index = fieldIndex(drafts);
  // The schemas that have the rarest of the wanted names are the only candidates.
  let candidates: EntityDraft[] | undefined;
  for (const name of wanted) {
    const holders = index.holders.get(name);
    if (holders === undefined) return undefined;
    if (candidates === undefined || holders.length < candidates.length) candidates = holders;
  }
  let best: { draft: EntityDraft; extra: number } | undefined;
  for (const draft of candidates ?? []) {
    const names = index.names.get(draft);
    if (names === undefined || !wanted.every((name) => names.has(name))) continue;
    const extra = names.size - wanted.length;
    if (!best || extra < best.extra) best = { draft, extra };
  }
  return best?.draft.schemaName;
}

/** The named record a schema is: by reference, or as a verbatim copy (a fully dereferenced document). */
function recordOf(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  named: SameSchemaIndex<EntityDraft>,
  schema: unknown,
): { name: string; copy: boolean } | undefined {
  const refName = schemaRefName(schema);
  if (refName !== undefined) return drafts.has(refName) ? { name: refName, copy: false } : undefined;
  const resolved = deref(context.doc, schema);
  if (!isRecord(resolved) || !isObjectSchema(context, resolved)) return undefined;
  const same = named.find(resolved)?.schemaName;
  return same === undefined ? undefined : { name: same, copy: true };
}

/**
 * Reads an answer's schema: a record (`one`), a bare array, an envelope with the records in an array
 * property, or a one-property wrapper around one record (Conduit's `{ article: Article }`) or around a
 * list of values (`{ tags: string[] }`). A named envelope or wrapper is described by the call's response
 * shape, so it is no entity of its own.
 */
export function readResponseSchema(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  named: SameSchemaIndex<EntityDraft>,
  schema: unknown,
): Omit<ResponseRead, 'headers'> {
  const resolved = deref(context.doc, schema);
  if (!isRecord(resolved)) return { shape: 'none' };
  const { types } = schemaTypes(resolved);
  if (types.includes('array') || resolved.items !== undefined) {
    const item = recordOf(context, drafts, named, resolved.items);
    if (item === undefined) return { shape: 'array' };
    const read: Omit<ResponseRead, 'headers'> = { shape: 'array', record: item.name };
    if (item.copy) read.recordInferred = `its list items are a copy of schema "${item.name}"`;
    return read;
  }
  const self = recordOf(context, drafts, named, schema);
  const refName = self?.name;
  const draft = refName === undefined ? undefined : drafts.get(refName);
  const properties = draft
    ? draft.flat.properties
    : isRecord(resolved.properties)
      ? new Map(Object.entries(resolved.properties))
      : new Map<string, unknown>();
  // An envelope: one array property of records, maybe a total and paging fields beside it.
  let arrays = 0;
  let envelope: [string, Record<string, unknown>] | undefined;
  for (const [name, value] of properties) {
    const inner = deref(context.doc, value);
    if (!isRecord(inner)) continue;
    // Records inline in the array (Conduit lists articles without their body) still make an envelope.
    const itemName = schemaRefName(inner.items);
    if (itemName !== undefined ? drafts.has(itemName) : isObjectSchema(context, inner.items)) {
      arrays += 1;
      envelope = [name, inner];
    }
  }
  if (arrays === 1 && envelope !== undefined) {
    const [items, inner] = envelope;
    const total = [...properties.keys()].find((name) => name !== items && TOTAL_NAMES.test(name));
    const read: Omit<ResponseRead, 'headers'> = { shape: 'envelope', items, body: resolved };
    const record = recordOf(context, drafts, named, inner.items);
    if (record !== undefined) {
      read.record = record.name;
      if (record.copy) read.recordInferred = `its list items are a copy of schema "${record.name}"`;
    } else {
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
  // A wrapper: exactly one property, holding a record or a list of values.
  const [single] = properties.size === 1 ? properties : [];
  if (single !== undefined) {
    const [field, only] = single;
    const inner = recordOf(context, drafts, named, only);
    if (inner !== undefined) {
      const read: Omit<ResponseRead, 'headers'> = { shape: 'one', record: inner.name, field, body: resolved };
      if (inner.copy) read.recordInferred = `its "${field}" is a copy of schema "${inner.name}"`;
      if (refName !== undefined) read.wrapper = refName;
      return read;
    }
    const value = deref(context.doc, only);
    if (isRecord(value) && schemaTypes(value).types.includes('array')) {
      const read: Omit<ResponseRead, 'headers'> = { shape: 'one', field, body: resolved };
      if (refName !== undefined) read.wrapper = refName;
      return read;
    }
  }
  if (self !== undefined) {
    const read: Omit<ResponseRead, 'headers'> = { shape: 'one', record: self.name, body: resolved };
    if (self.copy) read.recordInferred = `its answer is a copy of schema "${self.name}"`;
    return read;
  }
  return { shape: 'one', body: resolved };
}

/** The first success answer of an operation: 200, 201, other 2xx, then `2XX`. */
export function successResponse(responses: unknown): [string, unknown] | undefined {
  if (!isRecord(responses)) return undefined;
  // The lowest exact 2xx code, else 2XX: one pass, as this runs for every operation.
  let exact: string | undefined;
  let range: string | undefined;
  for (const code in responses) {
    if (code.length !== 3 || code.charCodeAt(0) !== 50) continue;
    if (/^2\d\d$/.test(code)) {
      if (exact === undefined || code < exact) exact = code;
    } else if (range === undefined && /^2xx$/i.test(code)) range = code;
  }
  const code = exact ?? range;
  return code === undefined ? undefined : [code, responses[code]];
}

/** Splits a path into segments: `/stores/{id}/employees` -> `['stores', '{id}', 'employees']`. */
export function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/**
 * A path without the format suffix some APIs put on every path (Twilio's `/Accounts/{Sid}.json`) or the
 * trailing slash others do (Platformatic's `/parts/`), so its item path sits below its list path as in
 * any other API, and its screen's route is the one the item routes extend.
 */
export function withoutFormatSuffix(path: string): string {
  return path.replace(/(?<=[^/])\.json$/i, '').replace(/(?<=.)\/+$/, '');
}

export function paramOf(segment: string | undefined): string | undefined {
  return segment !== undefined && /^\{[^{}]+\}$/.test(segment) ? segment.slice(1, -1) : undefined;
}

/** Reads every operation; each read failure is an issue for that operation only. */
export function readOperations(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  named: SameSchemaIndex<EntityDraft>,
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
        readOperation(context, drafts, named, path, item, method, operation),
      );
      if (info) out.push(info);
    }
  }
  keepSuffixWhereItCollides(out);
  readItemsAsRecords(out);
  assignResources(out);
  const listed = new Set<string>();
  for (const info of out) if (info.method === 'get') listed.add(info.resourcePath);
  for (const info of out)
    info.isAction = isActionSegments(info.pathSegments) && !listed.has(info.resourcePath);
  return out;
}

/** `/a.json` and `/a` both in the document are two resources: each keeps its path as it is. */
function keepSuffixWhereItCollides(operations: OperationInfo[]): void {
  const pathsOf = new Map<string, Set<string>>();
  for (const info of operations) {
    const paths = pathsOf.get(info.resourcePath) ?? new Set<string>();
    paths.add(info.path);
    pathsOf.set(info.resourcePath, paths);
  }
  for (const info of operations) {
    if ((pathsOf.get(info.resourcePath)?.size ?? 0) < 2) continue;
    info.resourcePath = info.path;
    info.pathSegments = segmentsOf(info.path);
    setItemParam(info);
  }
}

function setItemParam(info: OperationInfo): void {
  const lastParam = paramOf(info.pathSegments[info.pathSegments.length - 1]);
  info.isItem = lastParam !== undefined;
  if (lastParam !== undefined) info.lastParam = lastParam;
  else delete info.lastParam;
}

function readOperation(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  named: SameSchemaIndex<EntityDraft>,
  path: string,
  item: Record<string, unknown>,
  method: LowerMethod,
  operation: Record<string, unknown>,
): OperationInfo {
  const at = pointer('paths', path, method);
  const resourcePath = withoutFormatSuffix(path);
  const info: OperationInfo = {
    path,
    method,
    operation,
    pointer: at,
    resourcePath,
    pathSegments: segmentsOf(resourcePath),
    isItem: false,
    isAction: false,
    response: { shape: 'none', headers: [] },
    parameters: [],
  };
  setItemParam(info);

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
      // A body shared through components.requestBodies has a name there, and is read there.
      const name = componentName(operation.requestBody, 'requestBodies');
      const base = name === undefined ? `${at}/requestBody` : pointer('components', 'requestBodies', name);
      info.body = {
        schema: picked.media.schema,
        encoding: picked.encoding,
        pointer: `${base}/content/${picked.type.replaceAll('~', '~0').replaceAll('/', '~1')}`,
      };
      if (name !== undefined) info.body.name = name;
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
      const read: Omit<ResponseRead, 'headers'> =
        picked && picked.media.schema !== undefined
          ? readResponseSchema(context, drafts, named, picked.media.schema)
          : { shape: 'none' };
      // The read is a fresh object: it takes the headers rather than being copied with them.
      const answer = read as ResponseRead;
      answer.headers = headers;
      info.response = answer;
    }
  }
  if (info.response.record !== undefined) {
    info.resource = info.response.record;
    if (info.response.recordInferred !== undefined) info.resourceInferred = info.response.recordInferred;
  }
  return info;
}

/**
 * An item read whose answer is the very record its collection lists is a read of that record, even when
 * the record holds a list of its own (a SCIM schema and its `attributes`), which looks like an envelope.
 */
function readItemsAsRecords(operations: OperationInfo[]): void {
  const listed = new Map<string, string>();
  for (const info of operations)
    if (info.method === 'get' && !info.isItem && info.response.record !== undefined)
      listed.set(info.resourcePath, info.response.record);
  for (const info of operations) {
    if (info.method !== 'get' || !info.isItem || info.response.shape !== 'envelope') continue;
    const wrapper = info.response.wrapper;
    if (wrapper === undefined || listed.get(`/${info.pathSegments.slice(0, -1).join('/')}`) !== wrapper)
      continue;
    info.response = { shape: 'one', record: wrapper, headers: info.response.headers };
    info.resource = wrapper;
  }
}

/**
 * Operations whose answer names no record (a DELETE, an action) take the records of the other
 * operations on the same path, then of the collection above an item path.
 */
function assignResources(operations: OperationInfo[]): void {
  const byPath = new Map<string, string>();
  for (const info of operations) {
    if (info.resource !== undefined && !byPath.has(info.resourcePath))
      byPath.set(info.resourcePath, info.resource);
  }
  for (const info of operations) {
    if (info.resource !== undefined) continue;
    const same = byPath.get(info.resourcePath);
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

/** The name of a `#/components/<kind>/Name` ref. */
function componentName(value: unknown, kind: string): string | undefined {
  const ref = isRecord(value) ? text(value.$ref) : undefined;
  const segments = ref === undefined ? undefined : refSegments(ref);
  return segments?.length === 3 && segments[0] === 'components' && segments[1] === kind
    ? segments[2]
    : undefined;
}

/** Whether the path ends in a literal segment right after a `{param}`: an action unless a GET lists it. */
function isActionSegments(segments: string[]): boolean {
  const last = segments[segments.length - 1];
  if (last === undefined || paramOf(last) !== undefined) return false;
  return paramOf(segments[segments.length - 2]) !== undefined;
}

export function textOf(value: unknown): string | undefined {
  const t = text(value)?.trim();
  return t === undefined || t === '' ? undefined : t;
}
