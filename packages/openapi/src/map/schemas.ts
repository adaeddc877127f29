import type { MapContext } from './context';
import {
  deref,
  isDataName,
  isRecord,
  list,
  pascal,
  pointer,
  type SchemaLike,
  schemaRefName,
  schemaTypes,
  text,
  unionBranches,
  uniqueEntityName,
} from './document';
import { createSameSchemaIndex, type SameSchemaIndex } from './same-schema';

/** An object schema flattened: `allOf` merged, `oneOf`/`anyOf` branches united. */
export interface FlatObject {
  properties: Map<string, unknown>;
  /** Pointer of the schema whose `properties` holds each property (see `propertyPointer`). */
  owners: Map<string, string>;
  required: Set<string>;
  /** The discriminator's property name, when the schema has one. */
  discriminator?: string;
  /** Values the discriminator takes (its mapping's keys, or the branch schema names). */
  variants?: string[];
}

/** An entity to be: one object schema of `components.schemas`, or an inline object given a name. */
export interface EntityDraft {
  name: string;
  pointer: string;
  schema: SchemaLike;
  /** Flattened on first use: most drafts of a large document are never built into entities. */
  readonly flat: FlatObject;
  /** The component's own name, when it is one. */
  schemaName?: string;
  description?: string;
  title?: string;
}

/** A draft whose schema is flattened only when its fields are first asked for. */
export function lazyDraft(
  context: MapContext,
  init: Omit<EntityDraft, 'flat'>,
  source: unknown,
): EntityDraft {
  return new LazyDraft(context, init, source);
}

// A class rather than an object literal with a getter: V8 keeps instances of one class fast.
class LazyDraft implements EntityDraft {
  name: string;
  pointer: string;
  schema: SchemaLike;
  schemaName?: string;
  description?: string;
  title?: string;
  #flat: FlatObject | undefined;
  readonly #context: MapContext;
  readonly #source: unknown;

  constructor(context: MapContext, init: Omit<EntityDraft, 'flat'>, source: unknown) {
    this.name = init.name;
    this.pointer = init.pointer;
    this.schema = init.schema;
    if (init.schemaName !== undefined) this.schemaName = init.schemaName;
    this.#context = context;
    this.#source = source;
  }

  get flat(): FlatObject {
    this.#flat ??= flattenObject(this.#context, this.#source, this.pointer);
    return this.#flat;
  }
}

/** Where a property of a flattened schema was read, for the report. */
export function propertyPointer(flat: FlatObject, name: string): string | undefined {
  const owner = flat.owners.get(name);
  return owner === undefined ? undefined : `${owner}/properties/${escapeSegment(name)}`;
}

function escapeSegment(segment: string): string {
  return segment.includes('~') || segment.includes('/')
    ? segment.replaceAll('~', '~0').replaceAll('/', '~1')
    : segment;
}

const MAX_DEPTH = 24;

// Asked of the same schemas many times (every field, every answer); a schema's answer never changes.
const objectSchemas = new WeakMap<object, boolean>();

/** Whether a schema describes an object with properties (through allOf and unions). */
export function isObjectSchema(context: MapContext, schema: unknown, depth = 0): boolean {
  const resolved = deref(context.doc, schema);
  if (!isRecord(resolved) || depth > MAX_DEPTH) return false;
  const known = objectSchemas.get(resolved);
  if (known !== undefined) return known;
  // A schema that reaches itself through allOf or a union is not decided by that path.
  objectSchemas.set(resolved, false);
  let answer = false;
  if (isRecord(resolved.properties) && hasKeys(resolved.properties)) answer = true;
  else if (list(resolved.allOf).some((part) => isObjectSchema(context, part, depth + 1))) answer = true;
  else {
    const branches = unionBranches(resolved);
    answer = branches.length > 0 && branches.every((branch) => isObjectSchema(context, branch, depth + 1));
  }
  objectSchemas.set(resolved, answer);
  return answer;
}

function hasKeys(value: Record<string, unknown>): boolean {
  for (const _ in value) return true;
  return false;
}

/**
 * Flattens an object schema. Refs already on the way are not followed again, so circular `allOf` ends;
 * circular properties stay refs and are mapped as references, which keeps the model finite.
 */
export function flattenObject(
  context: MapContext,
  schema: unknown,
  at: string,
  seen: Set<unknown> = new Set(),
): FlatObject {
  const flat: FlatObject = { properties: new Map(), owners: new Map(), required: new Set() };
  mergeInto(context, flat, schema, at, seen, true, 0);
  return flat;
}

function mergeInto(
  context: MapContext,
  flat: FlatObject,
  schema: unknown,
  at: string,
  seen: Set<unknown>,
  requiredCounts: boolean,
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  let here = at;
  let resolved = schema;
  const refName = schemaRefName(schema);
  if (isRecord(schema) && typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return;
    seen.add(schema.$ref);
    resolved = deref(context.doc, schema);
    if (refName !== undefined) here = pointer('components', 'schemas', refName);
  }
  if (!isRecord(resolved)) return;
  if (isRecord(resolved.properties)) {
    for (const [name, property] of Object.entries(resolved.properties)) {
      if (!flat.properties.has(name)) {
        flat.properties.set(name, property);
        flat.owners.set(name, here);
      }
    }
  }
  if (requiredCounts)
    for (const name of list(resolved.required)) if (typeof name === 'string') flat.required.add(name);
  list(resolved.allOf).forEach((part, index) => {
    mergeInto(context, flat, part, `${here}/allOf/${index}`, seen, requiredCounts, depth + 1);
  });
  const branches = unionBranches(resolved);
  if (branches.length > 0) {
    const key = isRecord(resolved.oneOf) || Array.isArray(resolved.oneOf) ? 'oneOf' : 'anyOf';
    // A property is required of the union only if every branch requires it; that is rare, so none is.
    branches.forEach((branch, index) => {
      mergeInto(context, flat, branch, `${here}/${key}/${index}`, new Set(seen), false, depth + 1);
    });
    const discriminator = isRecord(resolved.discriminator)
      ? text(resolved.discriminator.propertyName)
      : undefined;
    if (discriminator !== undefined && flat.discriminator === undefined) {
      flat.discriminator = discriminator;
      const mapping =
        isRecord(resolved.discriminator) && isRecord(resolved.discriminator.mapping)
          ? resolved.discriminator.mapping
          : undefined;
      flat.variants = mapping
        ? Object.keys(mapping)
        : branches
            .map((branch) => schemaRefName(branch))
            .filter((name): name is string => name !== undefined);
    }
  }
}

/** The drafts of named schemas, to be found again from verbatim copies of their schemas. */
export function namedSchemaIndex(drafts: Map<string, EntityDraft>): SameSchemaIndex<EntityDraft> {
  const index = createSameSchemaIndex<EntityDraft>();
  for (const draft of drafts.values()) index.add(draft.schema, draft);
  return index;
}

/** A valid entity name for a schema name: `simple-user` -> `SimpleUser`. */
export function entityNameFor(schemaName: string, taken: Set<string>): string {
  let wanted = isDataName(schemaName) ? schemaName : pascal(schemaName);
  if (wanted === '' || !/^[A-Za-z_]/.test(wanted)) wanted = `Schema${wanted}`;
  return uniqueEntityName(wanted, taken);
}

/**
 * Phase one: every object schema of `components.schemas` becomes an entity draft, under a valid name.
 * Schemas that are not objects (enums, strings, arrays) are mapped where they are used.
 */
export function collectDrafts(context: MapContext, taken: Set<string>): Map<string, EntityDraft> {
  const drafts = new Map<string, EntityDraft>();
  const schemas = context.doc.components?.schemas;
  if (!isRecord(schemas)) return drafts;
  for (const [schemaName, schema] of Object.entries(schemas)) {
    const at = pointer('components', 'schemas', schemaName);
    if (!isRecord(schema)) continue;
    if (!isObjectSchema(context, schema)) {
      const { types } = schemaTypes(schema);
      if (types.includes('object') || (types.length === 0 && schema.additionalProperties !== undefined)) {
        context.report.add(
          'entities',
          'skipped',
          at,
          `schema "${schemaName}" is an object without named properties (a free-form map), so it has no fields to map`,
        );
      }
      continue;
    }
    const name = entityNameFor(schemaName, taken);
    const draft = lazyDraft(context, { name, pointer: at, schema, schemaName }, { $ref: `#${at}` });
    const description = text(schema.description);
    if (description !== undefined && description.trim() !== '') draft.description = description.trim();
    const title = text(schema.title);
    if (title !== undefined) draft.title = title;
    drafts.set(schemaName, draft);
  }
  return drafts;
}
