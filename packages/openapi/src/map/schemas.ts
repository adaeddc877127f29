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
  uniqueName,
} from './document';

/** An object schema flattened: `allOf` merged, `oneOf`/`anyOf` branches united. */
export interface FlatObject {
  properties: Map<string, unknown>;
  /** Where each property was read, for the report. */
  pointers: Map<string, string>;
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
  flat: FlatObject;
  /** The component's own name, when it is one. */
  schemaName?: string;
  description?: string;
  title?: string;
}

const MAX_DEPTH = 24;

/** Whether a schema describes an object with properties (through allOf and unions). */
export function isObjectSchema(context: MapContext, schema: unknown, depth = 0): boolean {
  const resolved = deref(context.doc, schema);
  if (!isRecord(resolved) || depth > MAX_DEPTH) return false;
  if (isRecord(resolved.properties) && Object.keys(resolved.properties).length > 0) return true;
  if (list(resolved.allOf).some((part) => isObjectSchema(context, part, depth + 1))) return true;
  const branches = unionBranches(resolved);
  return branches.length > 0 && branches.every((branch) => isObjectSchema(context, branch, depth + 1));
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
  const flat: FlatObject = { properties: new Map(), pointers: new Map(), required: new Set() };
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
        flat.pointers.set(name, `${here}/properties/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`);
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

/** A valid entity name for a schema name: `simple-user` -> `SimpleUser`. */
export function entityNameFor(schemaName: string, taken: Set<string>): string {
  let wanted = isDataName(schemaName) ? schemaName : pascal(schemaName);
  if (wanted === '' || !/^[A-Za-z_]/.test(wanted)) wanted = `Schema${wanted}`;
  return uniqueName(wanted, taken);
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
    if (name !== schemaName) {
      context.report.add(
        'entities',
        'inferred',
        at,
        `schema "${schemaName}" is named entity "${name}": entity names have only letters, digits and _`,
      );
    }
    const flat = flattenObject(context, { $ref: `#${at}` }, at);
    const draft: EntityDraft = { name, pointer: at, schema, flat, schemaName };
    const description = text(schema.description);
    if (description !== undefined && description.trim() !== '') draft.description = description.trim();
    const title = text(schema.title);
    if (title !== undefined) draft.title = title;
    drafts.set(schemaName, draft);
  }
  return drafts;
}
