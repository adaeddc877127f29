import { exhaustiveSwitchError } from '../exhaustive';
import { findEntity, hasNumericKey } from '../lookup';
import type { Entity, FieldConstraints, FieldType, Model } from '../model';
import { type ResolvedAmount, resolveAmount, toBytes } from './constants';
import { formatCheck } from './formats';

/** The subset of JSON Schema (2020-12) that entity schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  required?: string[];
  allOf?: JsonSchema[];
}

/** The constraints that apply to one field: what its own path says, and what its embedded entity says. */
export interface Bounds {
  constraints: FieldConstraints | undefined;
  min?: ResolvedAmount;
  max?: ResolvedAmount;
}

/** Embedded objects nest; past this depth their values are accepted as they are. */
const MAX_DEPTH = 8;

/**
 * The constraints of point 5 for a field, reached from `root` through `path` (field names through
 * embedded objects). A constraint written on the embedded entity itself (`OrderLine.quantity`) applies
 * wherever that entity is embedded; one written through the parent (`Order.lines`) applies only there,
 * and wins where both say something.
 */
export function boundsOf(model: Model, root: string, path: readonly string[], owner: string): Bounds {
  if (!model.validation.shown) return { constraints: undefined };
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  const field = path.at(-1) ?? '';
  const own = model.validation.fields.find((c) => c.entity === owner && same(c.field, [field]));
  const through =
    owner === root && path.length === 1
      ? undefined
      : model.validation.fields.find((c) => c.entity === root && same(c.field, path));
  const constraints = own || through ? ({ ...own, ...through } as FieldConstraints) : undefined;
  if (!constraints) return { constraints: undefined };
  const min = resolveAmount(model, constraints.min);
  const max = resolveAmount(model, constraints.max);
  return { constraints, ...(min ? { min } : {}), ...(max ? { max } : {}) };
}

const schemas = new WeakMap<Model, Map<string, JsonSchema>>();

/**
 * The JSON Schema of an entity's values: types, enum values, formats and the bounds of point 5
 * (lengths for text, values for numbers, counts for lists, bytes for files). Required-ness, unknown and
 * read-only keys are checked by {@link validateRecord} itself, because a form's empty text counts as
 * missing and a person deserves a message naming the field, not a schema keyword.
 *
 * @example
 * ```ts
 * entitySchema(model, 'Product').properties?.price; // { type: 'number', minimum: 0 }
 * ```
 */
export function entitySchema(model: Model, entityName: string): JsonSchema {
  let perModel = schemas.get(model);
  if (!perModel) {
    perModel = new Map();
    schemas.set(model, perModel);
  }
  const cached = perModel.get(entityName);
  if (cached) return cached;
  const entity = findEntity(model, entityName);
  const schema = entity ? objectSchema(model, entity, entityName, [], 0) : { type: 'object' };
  perModel.set(entityName, schema);
  return schema;
}

function objectSchema(
  model: Model,
  entity: Entity,
  root: string,
  prefix: string[],
  depth: number,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of entity.fields) {
    const path = [...prefix, field.name];
    properties[field.name] = typeSchema(
      model,
      field,
      boundsOf(model, root, path, entity.name),
      root,
      path,
      depth,
      field.format,
    );
  }
  return { type: 'object', properties };
}

function typeSchema(
  model: Model,
  type: FieldType,
  bounds: Bounds,
  root: string,
  path: string[],
  depth: number,
  /** The field's format, checked where it is one of CHECKED_FORMATS. */
  format?: string,
): JsonSchema {
  const { min, max } = bounds;
  const number = (amount: ResolvedAmount | undefined) =>
    typeof amount?.value === 'number' ? amount.value : undefined;
  const pattern = bounds.constraints?.pattern;
  switch (type.kind) {
    case 'text':
    case 'markdown': {
      const schema: JsonSchema = clean({
        type: 'string',
        minLength: number(min),
        maxLength: number(max),
        pattern: type.kind === 'text' ? pattern : undefined,
      });
      const check = type.kind === 'text' ? formatCheck(format) : undefined;
      if (check?.schema.format !== undefined) schema.format = check.schema.format;
      // One pattern per schema: a format's pattern joins the field's own through allOf.
      if (check?.schema.pattern !== undefined) {
        if (schema.pattern === undefined) schema.pattern = check.schema.pattern;
        else schema.allOf = [{ pattern: check.schema.pattern }];
      }
      return schema;
    }
    case 'number':
    case 'money':
      return clean({ type: 'number', minimum: number(min), maximum: number(max) });
    case 'integer':
      return clean({ type: 'integer', minimum: number(min), maximum: number(max) });
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'enum':
      return { enum: type.values.map((value) => value.value) };
    case 'reference': {
      const target = findEntity(model, type.entity);
      return { type: !target || hasNumericKey(target) ? 'integer' : 'string' };
    }
    case 'object': {
      const target = findEntity(model, type.entity);
      if (!target || depth >= MAX_DEPTH) return { type: 'object' };
      return objectSchema(model, target, root, path, depth + 1);
    }
    case 'list': {
      // The bounds of a list count its items; the items have the bounds of their own entity, if any.
      // A list of text with a format (`list of text`, Format: email) holds each item to it.
      const items = typeSchema(model, type.of, { constraints: undefined }, root, path, depth + 1, format);
      const ofObject = type.of.kind === 'object' ? findEntity(model, type.of.entity) : undefined;
      return clean({
        type: 'array',
        items:
          ofObject && depth < MAX_DEPTH ? objectSchema(model, ofObject, ofObject.name, [], depth + 1) : items,
        minItems: number(min),
        maxItems: number(max),
      });
    }
    case 'file':
      return {
        type: 'object',
        properties: clean({
          name: { type: 'string', minLength: 1 },
          type: { type: 'string' },
          size: clean({ type: 'integer', minimum: 0, maximum: max ? toBytes(max) : undefined }),
          url: { type: 'string' },
          id: { type: 'string' },
        }) as Record<string, JsonSchema>,
        required: ['name', 'type', 'size'],
      };
    default:
      return exhaustiveSwitchError(type);
  }
}

/** Drops undefined keys so the schema is plain JSON. */
function clean<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
