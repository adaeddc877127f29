import {
  type Constant,
  type Entity,
  exhaustiveSwitchError,
  type Field,
  type FieldConstraints,
  type FieldType,
  type JsonValue,
} from '@ninefold/spec';
import type { MapContext } from './context';
import {
  deref,
  isDataName,
  isRecord,
  list,
  pascal,
  type SchemaLike,
  schemaRefName,
  schemaTypes,
  text,
  unionBranches,
  uniqueName,
} from './document';
import { type EntityDraft, flattenObject, isObjectSchema } from './schemas';

/** What the operations say about the records of each schema (by schema name). */
export interface ResourceFacts {
  /** Schemas whose records the API lists, gets, creates, updates or deletes. */
  resources: Set<string>;
  /** Item path parameter (`/articles/{slug}` -> `slug`) of schemas that have a GET item path. */
  itemParam: Map<string, string>;
}

export interface EntityMapper {
  /** The entity name of a schema, when it is an entity. */
  entityOf(schemaName: string): string | undefined;
  /** Maps an inline object schema to a new embedded entity, returning its name. */
  inline(schema: unknown, wanted: string, at: string): string | undefined;
  /** Maps a parameter's schema to a field type (no entities: objects are skipped). */
  scalarType(schema: unknown): FieldType | undefined;
  finish(): { entities: Entity[]; constraints: FieldConstraints[]; constants: Constant[] };
}

const DISPLAY_CANDIDATES = [
  'name',
  'title',
  'username',
  'login',
  'displayName',
  'display_name',
  'full_name',
  'fullName',
  'slug',
  'label',
  'email',
  'subject',
  'summary',
];
const MAX_DEPTH = 12;

type Mapped = { type: FieldType; format?: string; inferred?: string } | { skip: string };

/**
 * Phase three: turns drafts into entities, their fields, validation constraints and list-length
 * constants, once the operations have said which schemas are resources (keys, references, embedding).
 *
 * @example
 * ```ts
 * const mapper = createEntityMapper(context, drafts, facts, new Set(drafts.keys()));
 * mapper.finish().entities; // [{ name: 'Article', key: 'slug', display: 'title', fields: [...] }, ...]
 * ```
 */
export function createEntityMapper(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  facts: ResourceFacts,
  taken: Set<string>,
): EntityMapper {
  const bySchema = new Map<string, EntityDraft>(drafts);
  const entities: Entity[] = [];
  const constraints: FieldConstraints[] = [];
  const constants: Constant[] = [];
  const constantNames = new Set<string>();
  const queue: EntityDraft[] = [...drafts.values()];
  let built = 0;

  const isEmbedded = (draft: EntityDraft): boolean =>
    draft.schemaName === undefined || !facts.resources.has(draft.schemaName);
  const keyOf = (draft: EntityDraft): string | undefined => {
    if (isEmbedded(draft)) return undefined;
    if (draft.flat.properties.has('id') && isDataName('id')) return 'id';
    const param = draft.schemaName === undefined ? undefined : facts.itemParam.get(draft.schemaName);
    return param !== undefined && draft.flat.properties.has(param) && isDataName(param) ? param : undefined;
  };
  const referable = (draft: EntityDraft): boolean =>
    keyOf(draft) !== undefined && draft.schemaName !== undefined && facts.itemParam.has(draft.schemaName);

  function inline(schema: unknown, wanted: string, at: string): string | undefined {
    if (!isObjectSchema(context, schema)) return undefined;
    const name = uniqueName(pascal(wanted) || 'Inline', taken);
    const resolved = deref(context.doc, schema);
    const draft: EntityDraft = {
      name,
      pointer: at,
      schema: isRecord(resolved) ? resolved : {},
      flat: flattenObject(context, schema, at),
    };
    queue.push(draft);
    context.report.add(
      'entities',
      'inferred',
      at,
      `inline object schema is named embedded entity "${name}": OpenAPI gives it no name`,
    );
    return name;
  }

  function mapType(
    schema: unknown,
    owner: EntityDraft,
    fieldName: string,
    at: string,
    depth: number,
    seen: Set<string>,
  ): Mapped {
    if (depth > MAX_DEPTH) return { skip: 'its schema nests too deeply' };
    const refName = schemaRefName(schema);
    if (refName !== undefined) {
      const target = bySchema.get(refName);
      if (target !== undefined) {
        if (referable(target)) return { type: { kind: 'reference', entity: target.name } };
        return { type: { kind: 'object', entity: target.name } };
      }
      if (seen.has(refName)) return { skip: `its schema "${refName}" refers to itself` };
      const resolved = deref(context.doc, schema);
      if (resolved === undefined)
        return { skip: `its $ref "${String((schema as SchemaLike).$ref)}" does not resolve` };
      return mapType(resolved, owner, fieldName, at, depth + 1, new Set([...seen, refName]));
    }
    if (isRecord(schema) && typeof schema.$ref === 'string') {
      const resolved = deref(context.doc, schema);
      if (resolved === undefined) return { skip: `its $ref "${schema.$ref}" does not resolve` };
      return mapType(resolved, owner, fieldName, at, depth + 1, seen);
    }
    if (!isRecord(schema)) return { skip: 'it has no schema' };
    const allOf = list(schema.allOf);
    if (allOf.length === 1 && schema.properties === undefined)
      return mapType(allOf[0], owner, fieldName, `${at}/allOf/0`, depth + 1, seen);
    const branches = unionBranches(schema);
    if (branches.length === 1 && schema.properties === undefined)
      return mapType(branches[0], owner, fieldName, at, depth + 1, seen);
    if (branches.length > 1 && schema.type === undefined && schema.properties === undefined) {
      const mapped = branches.map((branch) => mapType(branch, owner, fieldName, at, depth + 1, seen));
      const kinds = new Set(mapped.map((m) => ('type' in m ? JSON.stringify(m.type) : 'skip')));
      const first = mapped[0];
      if (kinds.size === 1 && first !== undefined && 'type' in first) return first;
      if (isObjectSchema(context, schema)) {
        const name = inline(schema, `${owner.name}${pascal(fieldName)}`, at);
        if (name !== undefined)
          return {
            type: { kind: 'object', entity: name },
            inferred:
              "a choice of object schemas (oneOf/anyOf) is merged into one embedded entity holding every branch's fields",
          };
      }
      if (mapped.every((m) => 'type' in m && ['text', 'integer', 'number', 'enum'].includes(m.type.kind))) {
        return {
          type: { kind: 'text' },
          inferred: 'a choice of scalar types (oneOf/anyOf) is shown as text',
        };
      }
      return {
        skip: `it is a choice between ${branches.length} schemas (oneOf/anyOf) of different kinds, which no field kind holds`,
      };
    }
    const values = list(schema.enum).filter(
      (value) => value !== null && ['string', 'number', 'boolean'].includes(typeof value),
    );
    if (values.length > 0) {
      const unique = [...new Set(values.map(String))];
      return { type: { kind: 'enum', values: unique.map((value) => ({ value })) } };
    }
    if (schema.const !== undefined && ['string', 'number', 'boolean'].includes(typeof schema.const)) {
      return { type: { kind: 'enum', values: [{ value: String(schema.const) }] } };
    }
    const { types } = schemaTypes(schema);
    const type = types.length === 1 ? types[0] : undefined;
    if (types.length > 1) {
      if (types.includes('string'))
        return { type: { kind: 'text' }, inferred: `a value of types ${types.join(', ')} is shown as text` };
      if (types.every((t) => t === 'integer' || t === 'number')) return { type: { kind: 'number' } };
      return { skip: `it may be any of ${types.join(', ')}, which no one field kind holds` };
    }
    const format = text(schema.format)?.toLowerCase();
    switch (type) {
      case 'string': {
        if (format === 'date') return { type: { kind: 'date' } };
        if (format === 'date-time') return { type: { kind: 'datetime' } };
        if (format === 'binary') return { type: { kind: 'file' } };
        if (format === 'email' || format === 'idn-email') return { type: { kind: 'text' }, format: 'email' };
        if (format === 'uri' || format === 'url' || format === 'iri')
          return { type: { kind: 'text' }, format: 'url' };
        if (format === 'uuid') return { type: { kind: 'text' }, format: 'uuid' };
        return { type: { kind: 'text' } };
      }
      case 'integer':
        return { type: { kind: 'integer' } };
      case 'number':
        return { type: { kind: 'number' } };
      case 'boolean':
        return { type: { kind: 'boolean' } };
      case 'array': {
        if (schema.items === undefined || schema.items === true)
          return { skip: 'it is an array without an items schema' };
        const inner = mapType(schema.items, owner, fieldName, `${at}/items`, depth + 1, seen);
        if ('skip' in inner) return { skip: `its items cannot be mapped: ${inner.skip}` };
        const mapped: Mapped = { type: { kind: 'list', of: inner.type } };
        if (inner.inferred !== undefined) mapped.inferred = inner.inferred;
        return mapped;
      }
      default:
        break;
    }
    if (isObjectSchema(context, schema)) {
      const name = inline(schema, `${owner.name}${pascal(fieldName)}`, at);
      if (name !== undefined) return { type: { kind: 'object', entity: name } };
    }
    if (type === 'object' || schema.additionalProperties !== undefined)
      return { skip: 'it is a free-form object (no named properties)' };
    return { skip: 'its schema gives no type' };
  }

  function scalarType(schema: unknown): FieldType | undefined {
    const dummy: EntityDraft = {
      name: 'Parameter',
      pointer: '',
      schema: {},
      flat: { properties: new Map(), pointers: new Map(), required: new Set() },
    };
    const mapped = mapWithoutInline(schema, dummy);
    return mapped;
  }

  function mapWithoutInline(schema: unknown, owner: EntityDraft): FieldType | undefined {
    if (isObjectSchema(context, schema)) return undefined;
    const resolved = deref(context.doc, schema);
    if (isRecord(resolved) && list(resolved.items).length === 0 && isObjectSchema(context, resolved.items))
      return undefined;
    const mapped = mapType(schema, owner, 'value', '', 0, new Set());
    if ('skip' in mapped) return undefined;
    // A parameter's type never names an entity.
    const inner = mapped.type.kind === 'list' ? mapped.type.of : mapped.type;
    if (inner.kind === 'object' || inner.kind === 'reference') return undefined;
    return mapped.type;
  }

  function buildEntity(draft: EntityDraft): Entity {
    const fields: Field[] = [];
    const owner = draft.name;
    for (const [wireName, property] of draft.flat.properties) {
      const at = draft.flat.pointers.get(wireName) ?? draft.pointer;
      if (!isDataName(wireName)) {
        context.report.add(
          'entities',
          'skipped',
          at,
          `field "${wireName}" of "${owner}" is left out: its name is not a valid field name (letters, digits and _), and the model keeps the API's own names`,
        );
        continue;
      }
      const mapped = mapType(
        property,
        draft,
        wireName,
        at,
        0,
        new Set(draft.schemaName ? [draft.schemaName] : []),
      );
      if ('skip' in mapped) {
        context.report.add(
          'entities',
          'skipped',
          at,
          `field "${owner}.${wireName}" is left out: ${mapped.skip}`,
        );
        continue;
      }
      const field: Field = { ...mapped.type, name: wireName } as Field;
      if (mapped.format !== undefined) field.format = mapped.format;
      const resolved = deref(context.doc, property);
      const schema = isRecord(resolved) ? resolved : {};
      const own = isRecord(property) ? property : {};
      const title =
        text(own.title) ?? (schemaRefName(property) === undefined ? text(schema.title) : undefined);
      if (title !== undefined && title.trim() !== '') field.label = title.trim();
      const help =
        text(own.description) ??
        (schemaRefName(property) === undefined ? text(schema.description) : undefined);
      if (help !== undefined && help.trim() !== '') field.help = help.trim();
      if (own.readOnly === true || schema.readOnly === true) field.readOnly = true;
      if (own.writeOnly === true || schema.writeOnly === true) field.writeOnly = true;
      const fallback = own.default !== undefined ? own.default : schema.default;
      const value = defaultFor(field, fallback);
      if (value !== undefined) field.default = value;
      if (mapped.inferred !== undefined)
        context.report.add('entities', 'inferred', at, `field "${owner}.${wireName}": ${mapped.inferred}`);
      if (
        draft.flat.discriminator === wireName &&
        draft.flat.variants &&
        draft.flat.variants.length > 0 &&
        field.kind === 'text'
      ) {
        Object.assign(field, { kind: 'enum', values: draft.flat.variants.map((value) => ({ value })) });
        context.report.add(
          'entities',
          'inferred',
          at,
          `field "${owner}.${wireName}" is the discriminator: its values are the variants ${draft.flat.variants.join(', ')}`,
        );
      }
      fields.push(field);
      addConstraints(draft, field, schema, own, at);
    }
    const entity: Entity = { name: owner, fields };
    if (draft.title !== undefined && draft.title.trim() !== '') entity.label = draft.title.trim();
    if (draft.description !== undefined) entity.description = draft.description;
    if (draft.flat.discriminator !== undefined) {
      context.report.add(
        'entities',
        'inferred',
        draft.pointer,
        `"${owner}" is one of several variants (discriminator "${draft.flat.discriminator}"): its fields are those of every variant, none required`,
      );
    }
    if (isEmbedded(draft)) {
      entity.embedded = true;
      if (draft.schemaName !== undefined) {
        context.report.add(
          'entities',
          'inferred',
          draft.pointer,
          `"${owner}" is embedded (a value inside other records): no operation lists, reads or changes its records on their own`,
        );
      }
    } else {
      const key = keyOf(draft);
      if (key !== undefined) {
        entity.key = key;
        context.report.add(
          'entities',
          'inferred',
          draft.pointer,
          key === 'id'
            ? `key of "${owner}" is "id" (its field named id)`
            : `key of "${owner}" is "${key}": its item path is named by {${key}}`,
        );
      } else {
        context.report.add(
          'entities',
          'inferred',
          draft.pointer,
          `"${owner}" has no key: it has no field "id" and no item path naming one of its fields`,
        );
      }
    }
    const display = DISPLAY_CANDIDATES.find((candidate) =>
      fields.some((field) => field.name === candidate && (field.kind === 'text' || field.kind === 'enum')),
    );
    if (display !== undefined && !entity.embedded) {
      entity.display = display;
      context.report.add(
        'entities',
        'inferred',
        draft.pointer,
        `display field of "${owner}" is "${display}" (the first of ${DISPLAY_CANDIDATES.slice(0, 6).join(', ')}, ... that it has)`,
      );
    }
    if (draft.schemaName !== undefined)
      context.report.add(
        'entities',
        'mapped',
        draft.pointer,
        `schema "${draft.schemaName}" -> entity "${owner}" with ${fields.length} fields`,
      );
    return entity;
  }

  function addConstraints(
    draft: EntityDraft,
    field: Field,
    schema: SchemaLike,
    own: SchemaLike,
    at: string,
  ): void {
    const read = (key: string): unknown => (own[key] !== undefined ? own[key] : schema[key]);
    const constraint: FieldConstraints = { entity: draft.name, field: [field.name] };
    const notes: string[] = [];
    if (draft.flat.required.has(field.name)) {
      constraint.required = true;
      notes.push('required');
    }
    const number = (value: unknown): number | undefined =>
      typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    if (field.kind === 'text' || field.kind === 'markdown') {
      const min = number(read('minLength'));
      const max = number(read('maxLength'));
      if (min !== undefined && min > 0) constraint.min = { kind: 'number', value: min };
      if (max !== undefined) constraint.max = { kind: 'number', value: max };
      const pattern = text(read('pattern'));
      if (pattern !== undefined) {
        try {
          new RegExp(pattern, 'u');
          constraint.pattern = pattern;
        } catch {
          context.report.add(
            'validation',
            'skipped',
            `${at}/pattern`,
            `pattern of "${draft.name}.${field.name}" is left out: it is not an ECMAScript regular expression with the u flag`,
          );
        }
      }
    } else if (field.kind === 'integer' || field.kind === 'number') {
      // 3.0 writes exclusiveMinimum: true beside minimum; 3.1 writes the bound itself.
      const exclusiveMin = number(read('exclusiveMinimum'));
      const exclusiveMax = number(read('exclusiveMaximum'));
      const min = number(read('minimum')) ?? exclusiveMin;
      const max = number(read('maximum')) ?? exclusiveMax;
      if (min !== undefined) constraint.min = { kind: 'number', value: min };
      if (max !== undefined) constraint.max = { kind: 'number', value: max };
      if (read('exclusiveMinimum') !== undefined || read('exclusiveMaximum') !== undefined) {
        context.report.add(
          'validation',
          'inferred',
          at,
          `"${draft.name}.${field.name}" has an exclusive bound, kept as an inclusive one (the model's bounds are inclusive)`,
        );
      }
    } else if (field.kind === 'list') {
      const min = number(read('minItems'));
      const max = number(read('maxItems'));
      if (min !== undefined && min > 0) constraint.min = { kind: 'number', value: min };
      if (max !== undefined) {
        const name = uniqueName(`MAX_${snake(draft.name)}_${snake(field.name)}`, constantNames);
        constants.push({
          name,
          value: max,
          unit: 'items',
          meaning: `Most items in ${draft.name}.${field.name}`,
        });
        constraint.max = { kind: 'constant', name };
        context.report.add(
          'constants',
          'inferred',
          `${at}/maxItems`,
          `constant ${name} = ${max} from the maxItems of "${draft.name}.${field.name}"`,
        );
      }
    }
    if (
      constraint.min !== undefined &&
      constraint.max?.kind === 'number' &&
      constraint.min.kind === 'number' &&
      constraint.min.value > constraint.max.value
    ) {
      context.report.add(
        'validation',
        'skipped',
        at,
        `bounds of "${draft.name}.${field.name}" are left out: the minimum is above the maximum`,
      );
      delete constraint.min;
      delete constraint.max;
    }
    if (
      constraint.min !== undefined ||
      constraint.max !== undefined ||
      constraint.pattern !== undefined ||
      constraint.required
    ) {
      constraints.push(constraint);
      if (constraint.min !== undefined) notes.push('min');
      if (constraint.max !== undefined) notes.push('max');
      if (constraint.pattern !== undefined) notes.push('pattern');
      context.report.add('validation', 'mapped', at, `"${draft.name}.${field.name}": ${notes.join(', ')}`);
    }
  }

  return {
    entityOf: (schemaName) => bySchema.get(schemaName)?.name,
    inline,
    scalarType,
    finish() {
      // Building an entity may queue inline entities; keep going until none is left.
      // Drafts built by an earlier call are not built again: the results are cumulative.
      for (; built < queue.length; built++) {
        const draft = queue[built];
        if (draft !== undefined) entities.push(buildEntity(draft));
      }
      return { entities, constraints, constants };
    },
  };
}

/** A default only when it fits the field: a wrong default would be written into new records. */
function defaultFor(field: Field, value: unknown): JsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  switch (field.kind) {
    case 'text':
    case 'markdown':
    case 'date':
    case 'datetime':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
    case 'number':
    case 'money':
      return typeof value === 'number' ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'enum':
      return field.values.some((v) => v.value === String(value)) ? String(value) : undefined;
    case 'file':
    case 'reference':
    case 'object':
    case 'list':
      return undefined;
    default:
      return exhaustiveSwitchError(field);
  }
}

export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}
