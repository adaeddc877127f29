/**
 * The minimal structural view of a bundled OpenAPI 3.0/3.1 document that the mapping reads, and the
 * helpers that walk it. Everything is read as untrusted: real documents break their own rules, so each
 * accessor answers undefined rather than throwing.
 */

/** A schema object, read loosely: 3.0 and 3.1 spell some keywords differently (nullable, type arrays). */
export type SchemaLike = Record<string, unknown>;

/**
 * The part of a bundled OpenAPI 3.x document that `toModel` reads. Every `$ref` is internal
 * (`#/components/...`); circular schemas stay as refs.
 *
 * @example
 * ```ts
 * const doc: OpenApi3Like = { openapi: '3.1.0', info: { title: 'Shop' }, paths: {} };
 * ```
 */
export interface OpenApi3Like {
  openapi?: string;
  info?: { title?: string; summary?: string; description?: string; [key: string]: unknown };
  servers?: Array<{ url?: string; variables?: Record<string, { default?: unknown }> }>;
  paths?: Record<string, unknown>;
  components?: {
    schemas?: Record<string, unknown>;
    parameters?: Record<string, unknown>;
    requestBodies?: Record<string, unknown>;
    responses?: Record<string, unknown>;
    securitySchemes?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    [key: string]: unknown;
  };
  security?: unknown[];
  [key: string]: unknown;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// One empty list for every absent one: most schemas have no allOf, enum or required.
const NONE: readonly unknown[] = Object.freeze([]);

export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : NONE;
}

/** JSON Pointer (RFC 6901) from path segments: `['paths', '/articles', 'get']` -> `/paths/~1articles/get`. */
export function pointer(...segments: Array<string | number>): string {
  let out = '';
  for (const segment of segments) {
    const text = String(segment);
    out += `/${text.includes('~') || text.includes('/') ? text.replaceAll('~', '~0').replaceAll('/', '~1') : text}`;
  }
  return out;
}

function unescapeSegment(segment: string): string {
  return segment.includes('~') ? segment.replaceAll('~1', '/').replaceAll('~0', '~') : segment;
}

// A large document names the same few thousand refs hundreds of thousands of times: each is split once.
const segmentCache = new Map<string, string[] | undefined>();
const SEGMENT_CACHE_LIMIT = 100_000;

/** The segments of an internal `$ref` (`#/components/schemas/Pet` -> components, schemas, Pet). */
export function refSegments(ref: string): string[] | undefined {
  const cached = segmentCache.get(ref);
  if (cached !== undefined || segmentCache.has(ref)) return cached;
  let segments: string[] | undefined;
  if (ref.startsWith('#/')) {
    try {
      segments = ref
        .slice(2)
        .split('/')
        .map((segment) =>
          segment.includes('%') ? decodeURIComponent(unescapeSegment(segment)) : unescapeSegment(segment),
        );
    } catch {
      // A malformed percent escape: the ref cannot name anything.
      segments = undefined;
    }
  }
  // The cache only saves work; bounding it keeps a long-lived process (the dev server) from growing.
  if (segmentCache.size >= SEGMENT_CACHE_LIMIT) segmentCache.clear();
  segmentCache.set(ref, segments);
  return segments;
}

// What each ref of a document resolves to, per document: the mapping only reads the document.
const resolved = new WeakMap<object, Map<string, unknown>>();

/** The value at an internal `$ref`, or undefined when it does not resolve. */
export function resolvePointer(document: OpenApi3Like, ref: string): unknown {
  let cache = resolved.get(document);
  if (cache === undefined) {
    cache = new Map();
    resolved.set(document, cache);
  } else {
    const hit = cache.get(ref);
    if (hit !== undefined || cache.has(ref)) return hit;
  }
  const value = walkPointer(document, ref);
  cache.set(ref, value);
  return value;
}

function walkPointer(document: OpenApi3Like, ref: string): unknown {
  const segments = refSegments(ref);
  if (segments === undefined) return undefined;
  let current: unknown = document;
  for (const segment of segments) {
    if (!isRecord(current) && !Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** The name of a `#/components/schemas/Name` ref, or undefined for any other value. */
export function schemaRefName(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const ref = text(value.$ref);
  if (ref === undefined) return undefined;
  const segments = refSegments(ref);
  if (segments?.length === 3 && segments[0] === 'components' && segments[1] === 'schemas') return segments[2];
  return undefined;
}

/**
 * Follows `$ref`s (parameters, request bodies, responses, schemas) to the object they name. A chain of
 * refs is followed a bounded number of times, so a ref to itself ends.
 */
export function deref(document: OpenApi3Like, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 16 && isRecord(current) && typeof current.$ref === 'string'; hops++) {
    current = resolvePointer(document, current.$ref);
  }
  return isRecord(current) && typeof current.$ref === 'string' ? undefined : current;
}

/** The schema's types without `null`: 3.1 writes `type: [string, 'null']`, 3.0 writes `nullable: true`. */
export function schemaTypes(schema: SchemaLike): { types: string[]; nullable: boolean } {
  const raw = schema.type;
  const all = Array.isArray(raw)
    ? raw.filter((t): t is string => typeof t === 'string')
    : text(raw)
      ? [raw as string]
      : [];
  const types = all.filter((t) => t !== 'null');
  return { types, nullable: schema.nullable === true || all.includes('null') };
}

/** The non-null branches of a `oneOf`/`anyOf`, dropping `{type: 'null'}` branches that 3.1 uses for nullable. */
export function unionBranches(schema: SchemaLike): unknown[] {
  const branches = [...list(schema.oneOf), ...list(schema.anyOf)];
  return branches.filter(
    (branch) => !(isRecord(branch) && branch.type === 'null' && Object.keys(branch).length === 1),
  );
}

/** `PascalCase` of any text, for names built from paths and operation ids. */
export function pascal(value: string): string {
  return value
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

export function camel(value: string): string {
  const p = pascal(value);
  return p.charAt(0).toLowerCase() + p.slice(1);
}

/** Names of entities, fields and constants: used in CEL expressions, so no `-`. */
export const DATA_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names of screens, calls and roles. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Route parameters (`:name`). */
export const ROUTE_PARAMETER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Call path parameters (`{name}`). */
export const CALL_PARAMETER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Whether a name is safe as a key of a plain object and in the model's name rules. */
export function isDataName(name: string): boolean {
  return DATA_NAME.test(name) && name !== '__proto__';
}

/** A unique name from a wanted one: `Pet`, `Pet2`, `Pet3`, ... */
export function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
  taken.add(name);
  return name;
}

/**
 * An entity name not yet taken, whatever its case: entity names are table names too, and SQLite's are
 * not case-sensitive, so GitHub's schemas `repository` and `Repository` were one table. `taken` holds the
 * lower-cased names.
 */
export function uniqueEntityName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${wanted}${n}`;
  taken.add(name.toLowerCase());
  return name;
}

export const HTTP_METHODS_LOWER = ['get', 'put', 'post', 'patch', 'delete'] as const;
export type LowerMethod = (typeof HTTP_METHODS_LOWER)[number];
