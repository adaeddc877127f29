// Point 3 as OpenAPI components: one JSON Schema per entity, with what JSON Schema cannot say about a
// field (money, Markdown, a reference's entity, a derived expression) in `x-ninefold-field`.
import type { DocumentInput, EntityDocument } from '../../document/schema';
import { exhaustiveSwitchError } from '../../exhaustive';
import { findEntity, hasNumericKey } from '../../lookup';
import type { Entity, Field, FieldType, Model } from '../../model';
import { boundsOf, entitySchema, type JsonSchema } from '../../rules/entity-schema';
import { withDefaults } from '../../rules/write-plan';

export type JsonObject = { [key: string]: unknown };

/** Where a schema of the document lives, as a `$ref`. */
export const schemaRef = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

/** An entity's component name: its own name where OpenAPI allows it, else with `_` for what it does not. */
export function componentName(entity: string): string {
  return entity.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** The component a create's body is checked against: the entity with the fields every new record needs. */
export function newComponentName(model: Model, entity: string): string {
  const name = `New${componentName(entity)}`;
  const taken =
    model.entities.shown && model.entities.items.some((other) => componentName(other.name) === name);
  return taken ? `${componentName(entity)}_New` : name;
}

/**
 * The fields every new record needs and no one else fills in: required by point 5, written by people
 * (not read-only, derived or set on create), and without a default of point 3. A create without one of
 * them is a 422 on it; a CSV import without their columns is refused whole.
 */
export function fieldsEveryNewRecordNeeds(model: Model, entity: Entity): string[] {
  if (!model.validation.shown) return [];
  const defaults = withDefaults(entity, {}, false);
  return model.validation.fields
    .filter((c) => c.entity === entity.name && c.required && c.field.length === 1)
    .map((c) => c.field[0] as string)
    .filter((name) => {
      const field = entity.fields.find((candidate) => candidate.name === name);
      return (
        field !== undefined &&
        !field.readOnly &&
        field.derived === undefined &&
        field.setOnCreate === undefined &&
        defaults[name] === undefined
      );
    });
}

/**
 * Every entity's schema, and for each entity a create call makes the schema of a new one (`NewOrder`), keyed by
 * component name. `doc` is the model as the authoring document writes it: `x-ninefold-field` holds each
 * field exactly as a specification would, so that an import reads it back whole.
 */
export function entityComponents(
  model: Model,
  doc: DocumentInput,
  isCreated: (entity: string) => boolean,
): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  if (!model.entities.shown) return out;
  const entityDocs = typeof doc.entities === 'object' ? (doc.entities as Record<string, EntityDocument>) : {};
  for (const entity of model.entities.items) {
    const { fields: fieldDocs = {}, ...entityDoc } = entityDocs[entity.name] ?? { fields: {} };
    const own = entitySchema(model, entity.name).properties ?? {};
    const properties: Record<string, JsonObject> = {};
    for (const field of entity.fields) {
      properties[field.name] = {
        ...propertySchema(model, entity, field, own[field.name] ?? {}),
        'x-ninefold-field': (fieldDocs as Record<string, unknown>)[field.name],
      };
    }
    out[componentName(entity.name)] = {
      type: 'object',
      title: entity.label ?? entity.name,
      ...(entity.description ? { description: entity.description } : {}),
      properties,
      additionalProperties: false,
      'x-ninefold-entity': { name: entity.name, ...entityDoc },
    };
    if (entity.embedded || !isCreated(entity.name)) continue;
    const required = fieldsEveryNewRecordNeeds(model, entity);
    out[newComponentName(model, entity.name)] = {
      description: `A new ${entity.label ?? entity.name}, as a create takes it.`,
      allOf: [schemaRef(componentName(entity.name))],
      ...(required.length ? { required } : {}),
    };
  }
  return out;
}

function propertySchema(model: Model, entity: Entity, field: Field, own: JsonSchema): JsonObject {
  const machine = model.states.shown
    ? model.states.machines.find((m) => m.entity === entity.name && m.field === field.name)
    : undefined;
  const readOnly = field.readOnly || field.derived !== undefined || machine !== undefined;
  const words = [
    field.help,
    field.derived === undefined ? undefined : `Computed by the API: \`${field.derived}\`.`,
    machine ? `Changed only by its transitions; a new record starts as \`${machine.initial}\`.` : undefined,
    field.kind === 'reference' ? `The key of a ${field.entity}.` : undefined,
  ].filter((text): text is string => text !== undefined);
  const required = boundsOf(model, entity.name, [field.name], entity.name).constraints?.required === true;
  return {
    ...typed(model, field, own, required),
    ...(field.label ? { title: field.label } : {}),
    ...(words.length ? { description: words.join(' ') } : {}),
    ...(field.default === undefined ? {} : { default: field.default }),
    ...(readOnly ? { readOnly: true } : {}),
    ...(field.writeOnly ? { writeOnly: true } : {}),
  };
}

/**
 * The value's schema as the API checks it (`entitySchema`), with embedded entities by reference and
 * `null` allowed where a field may be empty: an update sends `null` to clear one.
 */
function typed(model: Model, type: FieldType, own: JsonSchema, required: boolean): JsonObject {
  const nullable = (schema: JsonObject): JsonObject => {
    if (required) return schema;
    if (Array.isArray(schema.enum)) return { ...schema, enum: [...schema.enum, null] };
    if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
    return schema;
  };
  switch (type.kind) {
    case 'object':
      return findEntity(model, type.entity) ? schemaRef(componentName(type.entity)) : { type: 'object' };
    case 'list': {
      const items =
        type.of.kind === 'object' && findEntity(model, type.of.entity)
          ? schemaRef(componentName(type.of.entity))
          : (own.items ?? {});
      return nullable({ ...own, items } as JsonObject);
    }
    default:
      return nullable({ ...own } as JsonObject);
  }
}

/** The schema of a parameter's value (point 7), from its type as a field's would be. */
export function parameterSchema(model: Model, type: FieldType): JsonObject {
  switch (type.kind) {
    case 'text':
    case 'markdown':
      return { type: 'string' };
    case 'number':
    case 'money':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'enum':
      return { type: 'string', enum: type.values.map((value) => value.value) };
    case 'reference': {
      const target = findEntity(model, type.entity);
      return target && hasNumericKey(target) ? { type: 'integer' } : { type: 'string' };
    }
    case 'file':
    case 'object':
      return { type: 'object' };
    case 'list':
      return { type: 'array', items: parameterSchema(model, type.of) };
    default:
      return exhaustiveSwitchError(type);
  }
}
