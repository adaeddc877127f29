import {
  CHECKED_FORMATS,
  type Constant,
  type Entity,
  type Field,
  type FieldConstraints,
  type FieldType,
  formatCheck,
} from '@ninefold/model';
import type { ReportEntry } from '../import-report';
import { guarded, type MapContext } from './context';
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
  uniqueEntityName,
  uniqueName,
} from './document';
import {
  annotation,
  defaultFor,
  finite,
  flagged,
  isEnumValue,
  isUnicodeRegExp,
  keyFieldFor,
  onlyStructuralPart,
} from './property-reading';
import { createSameSchemaIndex, type SameSchemaIndex } from './same-schema';
import { type EntityDraft, isObjectSchema, lazyDraft, namedSchemaIndex, propertyPointer } from './schemas';

/** What the operations say about the records of each schema (by schema name). */
export interface ResourceFacts {
  /** Schemas whose records the API lists, gets, creates, updates or deletes. */
  resources: Set<string>;
  /** Item path parameter (`/articles/{slug}` -> `slug`) of schemas that have a GET item path. */
  itemParam: Map<string, string>;
  /** Schemas whose item path is that of another record, read below the path that lists them. */
  readBelow: Set<string>;
}

export interface MappedEntities {
  entities: Entity[];
  constraints: FieldConstraints[];
  constants: Constant[];
  /** Object schemas of `components.schemas` that nothing mapped uses, so no entity was made of them. */
  unused: EntityDraft[];
  /** True when no operation used any named schema, so every one was mapped (see `finish`). */
  everything: boolean;
}

export interface EntityMapper {
  /**
   * The entity of a named schema, when it is one. Asking is using: the entity is built (by `finish`, or
   * at once through `entity`), and so are the entities its fields hold.
   */
  use(schemaName: string): string | undefined;
  /** The entity of this name, built now if it was not yet: calls need its fields to sort and filter. */
  entity(name: string): Entity | undefined;
  /** The entity of the named schema that an inline schema (at `at`) copies verbatim; using it. */
  sameAs(schema: unknown, at: string): string | undefined;
  /** Maps an inline object schema to an embedded entity (one per distinct schema), returning its name. */
  inline(schema: unknown, wanted: string, at: string): string | undefined;
  /** Maps a parameter's schema to a field type (no entities: objects are skipped). */
  scalarType(schema: unknown): FieldType | undefined;
  /** Where the entity's schema is, for the report. */
  pointerOf(entity: string): string | undefined;
  /**
   * Builds every entity used so far, and those their fields use. When nothing used a named schema (a
   * document without operations, or whose operations name no schema), every object schema is mapped:
   * then the schemas are all the document says about its data.
   */
  finish(): MappedEntities;
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
const SCALAR_CHOICES = new Set(['text', 'integer', 'number', 'enum']);
/** The names servers give the bytes they change at every write of a record, to detect lost updates. */
const STAMP_NAME = /^(?:row_?version|concurrency_?stamp|e_?tag|version_?stamp|timestamp|row_?stamp)$/i;
/** What a record's key is sent as. */
const KEY_CHOICES = new Set(['text', 'integer']);

type Mapped =
  | {
      type: FieldType;
      format?: string;
      inferred?: string;
      /** The value is a whole record of this (non-embedded) entity, as the API answers it. */
      record?: string;
      /** The document says nothing of its shape: shown as the API sends it, never written. */
      anyValue?: boolean;
    }
  | { skip: string };
/**
 * Fields map to entities; parameters never do; a probe (the branches of a choice, weighed before one is
 * taken) names entities without using them, so that a branch not taken leaves no entity behind.
 */
type Mode = 'field' | 'parameter' | 'probe';

/** What building one entity found that the report tells once per entity, not once per field. */
interface EntityNotes {
  required: string[];
  bounded: string[];
  patterned: string[];
  references: string[];
  records: string[];
  /** Fields whose format is shown but not checked: `key (phone-number)`. */
  unchecked: string[];
}

/**
 * Phase three: turns drafts into entities, their fields, validation constraints and list-length
 * constants, once the operations have said which schemas are resources (keys, references, embedding).
 * Only what is used is built: a schema that no call, body, answer or field reaches is no entity.
 *
 * @example
 * ```ts
 * const mapper = createEntityMapper(context, drafts, facts, new Set(drafts.keys()));
 * mapper.use('Article');
 * mapper.finish().entities; // [{ name: 'Article', key: 'slug', display: 'title', fields: [...] }, ...]
 * ```
 */
export function createEntityMapper(
  context: MapContext,
  drafts: Map<string, EntityDraft>,
  facts: ResourceFacts,
  taken: Set<string>,
  named: SameSchemaIndex<EntityDraft> = namedSchemaIndex(drafts),
): EntityMapper {
  const bySchema = drafts;
  const byName = new Map<string, EntityDraft>();
  for (const draft of drafts.values()) byName.set(draft.name, draft);
  const inlines: EntityDraft[] = [];
  const inlineIndex = createSameSchemaIndex<{ name: string; entry: ReportEntry }>();
  const copies = new Map<string, ReportEntry>();
  const built = new Map<EntityDraft, Entity>();
  const queued = new Set<EntityDraft>();
  const queue: EntityDraft[] = [];
  const constraints: FieldConstraints[] = [];
  const constants: Constant[] = [];
  const constantNames = new Set<string>();
  let usedNamed = false;

  const isEmbedded = (draft: EntityDraft): boolean =>
    draft.schemaName === undefined || !facts.resources.has(draft.schemaName);
  const keyOf = (draft: EntityDraft): string | undefined => {
    if (isEmbedded(draft)) return undefined;
    const param = draft.schemaName === undefined ? undefined : facts.itemParam.get(draft.schemaName);
    const named = param === undefined ? undefined : keyFieldFor(param, [...draft.flat.properties.keys()]);
    // The field the item path names comes first: `/widgets/{widgetKey}` is filled by `key`, even
    // when the records also carry an `id`. Without an item path, `id` is the key by convention.
    if (named !== undefined && isDataName(named) && isScalar(draft, named)) return named;
    return draft.flat.properties.has('id') && isScalar(draft, 'id') ? 'id' : undefined;
  };
  // A key is one value: GitHub's events are listed below /orgs/{org}, and their field "org" is an object.
  const isScalar = (draft: EntityDraft, name: string): boolean => {
    const schema = deref(context.doc, draft.flat.properties.get(name));
    if (!isRecord(schema)) return true;
    const { types } = schemaTypes(schema);
    return !types.includes('object') && !types.includes('array') && !isObjectSchema(context, schema);
  };
  const referable = (draft: EntityDraft): boolean =>
    draft.schemaName !== undefined && facts.itemParam.has(draft.schemaName) && keyOf(draft) !== undefined;

  function enqueue(draft: EntityDraft): string {
    if (!queued.has(draft)) {
      queued.add(draft);
      queue.push(draft);
      if (draft.schemaName !== undefined) usedNamed = true;
    }
    return draft.name;
  }

  function build(draft: EntityDraft): Entity {
    let entity = built.get(draft);
    if (entity === undefined) {
      enqueue(draft);
      // An entity is built when a call first uses it: a failure is the schema's, said at its pointer,
      // and the entity stays (without fields) so that the calls naming it still hold together.
      entity = guarded(context, pointerSegments(draft.pointer), `schema "${draft.name}"`, () =>
        buildEntity(draft),
      ) ?? { name: draft.name, fields: [] };
      built.set(draft, entity);
    }
    return entity;
  }

  /** The named draft an inline schema copies verbatim; the copy's place is added to the report. */
  function copied(schema: unknown, at: string): EntityDraft | undefined {
    if (!isRecord(schema) || typeof schema.$ref === 'string') return undefined;
    const draft = named.find(schema);
    if (draft === undefined || draft.schema === schema) return draft;
    const entry = copies.get(draft.name);
    if (entry === undefined) {
      copies.set(
        draft.name,
        context.report.add(
          'entities',
          'inferred',
          at,
          `inline schemas identical to schema "${draft.schemaName}" are mapped to its entity "${draft.name}"`,
        ),
      );
    } else {
      addPlace(entry, at);
    }
    return draft;
  }

  function inline(schema: unknown, wanted: string, at: string): string | undefined {
    if (!isObjectSchema(context, schema)) return undefined;
    const resolved = deref(context.doc, schema);
    if (!isRecord(resolved)) return undefined;
    const same = inlineIndex.find(resolved);
    if (same !== undefined) {
      addPlace(same.entry, at);
      return same.name;
    }
    const name = uniqueEntityName(pascal(wanted) || 'Inline', taken);
    const draft = lazyDraft(context, { name, pointer: at, schema: resolved }, schema);
    inlines.push(draft);
    byName.set(name, draft);
    enqueue(draft);
    const entry = context.report.add(
      'entities',
      'inferred',
      at,
      `inline object schema is named embedded entity "${name}": OpenAPI gives it no name`,
    );
    inlineIndex.add(resolved, { name, entry });
    return name;
  }

  function sameBranches(branches: unknown[]): EntityDraft | undefined {
    const first = schemaRefName(branches[0]);
    if (first === undefined || !branches.every((branch) => schemaRefName(branch) === first)) return undefined;
    return bySchema.get(first);
  }

  function toEntity(target: EntityDraft, mode: Mode): Mapped {
    if (mode === 'parameter') return { skip: 'a parameter cannot hold a record' };
    if (mode === 'field') enqueue(target);
    if (referable(target)) return { type: { kind: 'reference', entity: target.name } };
    const type: FieldType = { kind: 'object', entity: target.name };
    return isEmbedded(target) ? { type } : { type, record: target.name };
  }

  function mapType(
    schema: unknown,
    owner: EntityDraft,
    fieldName: string,
    at: string,
    depth: number,
    seen: readonly string[],
    mode: Mode,
  ): Mapped {
    if (depth > MAX_DEPTH) return { skip: 'its schema nests too deeply' };
    const refName = schemaRefName(schema);
    if (refName !== undefined) {
      const target = bySchema.get(refName);
      if (target !== undefined) return toEntity(target, mode);
      if (seen.includes(refName)) return { skip: `its schema "${refName}" refers to itself` };
      const resolved = deref(context.doc, schema);
      if (resolved === undefined)
        return { skip: `its $ref "${String((schema as SchemaLike).$ref)}" does not resolve` };
      return mapType(resolved, owner, fieldName, at, depth + 1, [...seen, refName], mode);
    }
    if (isRecord(schema) && typeof schema.$ref === 'string') {
      const resolved = deref(context.doc, schema);
      if (resolved === undefined) return { skip: `its $ref "${schema.$ref}" does not resolve` };
      return mapType(resolved, owner, fieldName, at, depth + 1, seen, mode);
    }
    if (!isRecord(schema)) return { skip: 'it has no schema' };
    const allOf = list(schema.allOf);
    if (allOf.length > 0 && schema.properties === undefined) {
      // 3.0 ignores siblings of $ref, so documents write `allOf: [$ref, { description }]`: parts that only
      // annotate leave one schema, which the field is.
      const structural = allOf.length === 1 ? 0 : onlyStructuralPart(allOf);
      if (structural !== undefined)
        return mapType(
          allOf[structural],
          owner,
          fieldName,
          `${at}/allOf/${structural}`,
          depth + 1,
          seen,
          mode,
        );
    }
    const branches = unionBranches(schema);
    if (branches.length === 1 && schema.properties === undefined)
      return mapType(branches[0], owner, fieldName, at, depth + 1, seen, mode);
    if (branches.length > 1 && schema.type === undefined && schema.properties === undefined) {
      if (mode === 'field' && isObjectSchema(context, schema)) {
        // Every branch is an object: one record when every branch names the same one, else their union.
        const same = copied(schema, at) ?? sameBranches(branches);
        if (same !== undefined) return toEntity(same, mode);
        const name = inline(schema, `${owner.name}${pascal(fieldName)}`, at);
        if (name !== undefined)
          return {
            type: { kind: 'object', entity: name },
            inferred:
              "a choice of object schemas (oneOf/anyOf) is merged into one embedded entity holding every branch's fields",
          };
      }
      const probe = mode === 'parameter' ? mode : 'probe';
      const mapped = branches.map((branch) => mapType(branch, owner, fieldName, at, depth + 1, seen, probe));
      const first = mapped[0];
      if (first !== undefined && 'type' in first) {
        const kind = JSON.stringify(first.type);
        if (mapped.every((m) => 'type' in m && JSON.stringify(m.type) === kind))
          return mapType(branches[0], owner, fieldName, at, depth + 1, seen, mode);
      }
      // `oneOf: [integer, $ref Event]` (Directus): the record's key, or the record expanded. Either way
      // the field names one record: a reference.
      const recordAt = mapped.findIndex((m) => 'type' in m && m.type.kind === 'reference');
      const keyAt = mapped.findIndex((m) => 'type' in m && KEY_CHOICES.has(m.type.kind));
      if (mode !== 'parameter' && branches.length === 2 && recordAt >= 0 && keyAt >= 0) {
        const reference = mapType(branches[recordAt], owner, fieldName, at, depth + 1, seen, mode);
        if ('type' in reference)
          return {
            type: reference.type,
            inferred:
              'a choice of a key and the record it names (oneOf/anyOf) is a reference: the API sends either',
          };
      }
      if (mapped.every((m) => 'type' in m && SCALAR_CHOICES.has(m.type.kind))) {
        return {
          type: { kind: 'text' },
          inferred: 'a choice of scalar types (oneOf/anyOf) is shown as text',
        };
      }
      return {
        skip: `it is a choice between ${branches.length} schemas (oneOf/anyOf) of different kinds, which no field kind holds`,
      };
    }
    if (Array.isArray(schema.enum)) {
      const unique = new Set<string>();
      for (const value of schema.enum) if (isEnumValue(value)) unique.add(String(value));
      if (unique.size > 0) return { type: { kind: 'enum', values: [...unique].map((value) => ({ value })) } };
    }
    if (isEnumValue(schema.const)) {
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
    switch (type) {
      case 'string':
        return stringType(text(schema.format)?.toLowerCase());
      case 'integer':
        return { type: { kind: 'integer' } };
      case 'number':
        return { type: { kind: 'number' } };
      case 'boolean':
        return { type: { kind: 'boolean' } };
      case 'array': {
        if (schema.items === undefined || schema.items === true)
          return { skip: 'it is an array without an items schema' };
        const inner = mapType(schema.items, owner, fieldName, `${at}/items`, depth + 1, seen, mode);
        if ('skip' in inner) return { skip: `its items cannot be mapped: ${inner.skip}` };
        const mapped: Mapped = { type: { kind: 'list', of: inner.type } };
        if (inner.inferred !== undefined) mapped.inferred = inner.inferred;
        if (inner.record !== undefined) mapped.record = inner.record;
        return mapped;
      }
      default:
        break;
    }
    if (isObjectSchema(context, schema)) {
      if (mode === 'parameter') return { skip: 'a parameter cannot hold an object' };
      if (mode === 'probe') return { skip: 'it is an object' };
      const same = copied(schema, at);
      if (same !== undefined) return toEntity(same, mode);
      const name = inline(schema, `${owner.name}${pascal(fieldName)}`, at);
      if (name !== undefined) return { type: { kind: 'object', entity: name } };
    }
    const freeForm = type === 'object' || schema.additionalProperties !== undefined;
    // What the document leaves open is still shown as the API sends it, as JSON text, and never sent
    // back: the client cannot know what a valid value would be.
    if (mode === 'field')
      return {
        type: { kind: 'text' },
        anyValue: true,
        inferred: `${freeForm ? 'it is a free-form object (no named properties)' : 'its schema gives no type'}: shown read-only, as the JSON text the API sends`,
      };
    if (freeForm) return { skip: 'it is a free-form object (no named properties)' };
    return { skip: 'its schema gives no type' };
  }

  const parameterOwner: EntityDraft = {
    name: 'Parameter',
    pointer: '',
    schema: {},
    flat: { properties: new Map(), owners: new Map(), required: new Set() },
  };

  // Documents share parameters (GitHub's owner, repo, per_page): each schema is mapped once.
  const scalarTypes = new WeakMap<object, FieldType | null>();
  function scalarType(schema: unknown): FieldType | undefined {
    const key = isRecord(schema) ? schema : undefined;
    const known = key === undefined ? undefined : scalarTypes.get(key);
    if (known !== undefined) return known === null ? undefined : copyType(known);
    const mapped = mapType(schema, parameterOwner, 'value', '', 0, [], 'parameter');
    const type = 'skip' in mapped ? undefined : mapped.type;
    if (key !== undefined) scalarTypes.set(key, type ?? null);
    return type;
  }

  function buildEntity(draft: EntityDraft): Entity {
    const fields: Field[] = [];
    const owner = draft.name;
    const notes: EntityNotes = {
      required: [],
      bounded: [],
      patterned: [],
      references: [],
      records: [],
      unchecked: [],
    };
    const seen = draft.schemaName === undefined ? [] : [draft.schemaName];
    for (const [wireName, property] of draft.flat.properties) {
      const at = propertyPointer(draft.flat, wireName) ?? draft.pointer;
      if (!isDataName(wireName)) {
        context.report.add(
          'entities',
          'skipped',
          at,
          `field "${wireName}" of "${owner}" is left out: its name is not a valid field name (letters, digits and _), and the model keeps the API's own names`,
        );
        continue;
      }
      const mapped = mapType(property, draft, wireName, at, 0, seen, 'field');
      if ('skip' in mapped) {
        context.report.add(
          'entities',
          'skipped',
          at,
          `field "${owner}.${wireName}" is left out: ${mapped.skip}`,
        );
        continue;
      }
      // The type is a fresh object of mapType's: it becomes the field (a spread of the many type shapes
      // is slow, and this runs for every field of a large document).
      const field = mapped.type as Field;
      field.name = wireName;
      if (mapped.format !== undefined) {
        field.format = mapped.format;
        if (formatCheck(mapped.format) === undefined) notes.unchecked.push(`${wireName} (${mapped.format})`);
      }
      const ownRef = schemaRefName(property) !== undefined;
      const resolved = deref(context.doc, property);
      const schema = isRecord(resolved) ? resolved : {};
      const own = isRecord(property) ? property : {};
      const title = annotation(own, 'title') ?? (ownRef ? undefined : text(schema.title));
      if (title !== undefined && title.trim() !== '') field.label = title.trim();
      const help = (
        annotation(own, 'description') ?? (ownRef ? undefined : text(schema.description))
      )?.trim();
      if (help !== undefined && help !== '') field.help = help;
      if (flagged(own, 'readOnly') || schema.readOnly === true) field.readOnly = true;
      if (flagged(own, 'writeOnly') || schema.writeOnly === true) field.writeOnly = true;
      // A concurrency stamp (`rowVersion`, `concurrencyStamp`: bytes the server sets at every write) is
      // no value a person types; one the document does not say is writable stays out of forms.
      if (
        mapped.format === 'byte' &&
        STAMP_NAME.test(wireName) &&
        !field.readOnly &&
        own.readOnly !== false &&
        schema.readOnly !== false
      ) {
        field.readOnly = true;
        context.report.add(
          'entities',
          'inferred',
          at,
          `field "${owner}.${wireName}" is read-only: bytes (format byte) named as a concurrency stamp, which the server sets`,
        );
      }
      const value = defaultFor(field, own.default !== undefined ? own.default : schema.default);
      if (value !== undefined) field.default = value;
      if (mapped.inferred !== undefined)
        context.report.add('entities', 'inferred', at, `field "${owner}.${wireName}": ${mapped.inferred}`);
      if (field.kind === 'reference') notes.references.push(`${wireName} (${field.entity})`);
      if (mapped.anyValue === true) field.readOnly = true;
      if (mapped.record !== undefined) {
        field.readOnly = true;
        notes.records.push(`${wireName} (${mapped.record})`);
      }
      const variants = draft.flat.variants;
      if (draft.flat.discriminator === wireName && variants && variants.length > 0 && field.kind === 'text') {
        Object.assign(field, { kind: 'enum', values: variants.map((variant) => ({ value: variant })) });
        context.report.add(
          'entities',
          'inferred',
          at,
          `field "${owner}.${wireName}" is the discriminator: its values are the variants ${variants.join(', ')}`,
        );
      }
      fields.push(field);
      addConstraints(draft, field, schema, own, at, notes);
    }
    const entity: Entity = { name: owner, fields };
    if (draft.title !== undefined && draft.title.trim() !== '') entity.label = draft.title.trim();
    if (draft.description !== undefined) entity.description = draft.description;
    // The routine inferences about one entity are one entry, so that a large document's report stays
    // readable; the key comes first, as a reader looks for it.
    const inferred: string[] = [];
    if (isEmbedded(draft)) {
      entity.embedded = true;
      if (draft.schemaName !== undefined) {
        inferred.push(
          `"${owner}" is embedded (a value inside other records): no operation lists, reads or changes its records on their own`,
        );
      }
    } else {
      const key = keyOf(draft);
      if (key !== undefined) {
        entity.key = key;
        const param = draft.schemaName === undefined ? undefined : facts.itemParam.get(draft.schemaName);
        inferred.push(
          param === undefined
            ? `key of "${owner}" is "id" (its field named id; no item path names another)`
            : facts.readBelow.has(draft.schemaName ?? '')
              ? `key of "${owner}" is "${key}": the item path below its list reads another record by {${param}}, which its field "${key}" fills`
              : param === key
                ? `key of "${owner}" is "${key}": its item path is named by {${key}}`
                : `key of "${owner}" is "${key}": its item path's {${param}} is filled by its field "${key}"`,
        );
      } else {
        inferred.push(
          `"${owner}" has no key: it has no field "id" and no item path naming one of its fields`,
        );
      }
    }
    if (draft.schemaName !== undefined && draft.schemaName !== owner) {
      inferred.push(
        `schema "${draft.schemaName}" is named entity "${owner}": entity names have only letters, digits and _`,
      );
    }
    const display = entity.embedded
      ? undefined
      : DISPLAY_CANDIDATES.find((candidate) =>
          fields.some(
            (field) => field.name === candidate && (field.kind === 'text' || field.kind === 'enum'),
          ),
        );
    if (display !== undefined) {
      entity.display = display;
      inferred.push(
        `display field of "${owner}" is "${display}" (the first of ${DISPLAY_CANDIDATES.slice(0, 6).join(', ')}, ... that it has)`,
      );
    }
    if (draft.flat.discriminator !== undefined) {
      inferred.push(
        `"${owner}" is one of several variants (discriminator "${draft.flat.discriminator}"): its fields are those of every variant, none required`,
      );
    }
    if (notes.references.length > 0) {
      inferred.push(
        `fields of "${owner}" that hold records with an item path are references: ${notes.references.join(', ')} (the client shows each by the record's display field and links to it, whether the API sends the key or the whole record)`,
      );
    }
    if (notes.records.length > 0) {
      inferred.push(
        `fields of "${owner}" that hold whole records without an item path to refer to are read-only objects, as the API answers them: ${notes.records.join(', ')} (those records change through their own calls)`,
      );
    }
    if (inferred.length > 0) context.report.add('entities', 'inferred', draft.pointer, inferred.join('; '));
    if (draft.schemaName !== undefined)
      context.report.add(
        'entities',
        'mapped',
        draft.pointer,
        `schema "${draft.schemaName}" -> entity "${owner}" with ${fields.length} fields`,
      );
    const validation: string[] = [];
    if (notes.required.length > 0) validation.push(`required ${notes.required.join(', ')}`);
    if (notes.bounded.length > 0) validation.push(`bounds on ${notes.bounded.join(', ')}`);
    if (notes.patterned.length > 0) validation.push(`patterns on ${notes.patterned.join(', ')}`);
    if (validation.length > 0)
      context.report.add('validation', 'mapped', draft.pointer, `"${owner}": ${validation.join('; ')}`);
    if (notes.unchecked.length > 0)
      context.report.add(
        'validation',
        'skipped',
        draft.pointer,
        `formats of "${owner}" that are not checked, only shown: ${notes.unchecked.join(', ')} (the checked ones are ${Object.keys(CHECKED_FORMATS).join(', ')})`,
      );
    return entity;
  }

  function addConstraints(
    draft: EntityDraft,
    field: Field,
    schema: SchemaLike,
    own: SchemaLike,
    at: string,
    notes: EntityNotes,
  ): void {
    const constraint: FieldConstraints = { entity: draft.name, field: [field.name] };
    if (draft.flat.required.has(field.name)) constraint.required = true;
    if (field.kind === 'text' || field.kind === 'markdown') {
      const min = finite(own.minLength ?? schema.minLength);
      const max = finite(own.maxLength ?? schema.maxLength);
      if (min !== undefined && min > 0) constraint.min = { kind: 'number', value: min };
      if (max !== undefined) constraint.max = { kind: 'number', value: max };
      const pattern = text(own.pattern ?? schema.pattern);
      if (pattern !== undefined) {
        if (isUnicodeRegExp(pattern)) constraint.pattern = pattern;
        else
          context.report.add(
            'validation',
            'skipped',
            `${at}/pattern`,
            `pattern of "${draft.name}.${field.name}" is left out: it is not an ECMAScript regular expression with the u flag`,
          );
      }
    } else if (field.kind === 'integer' || field.kind === 'number') {
      // 3.0 writes exclusiveMinimum: true beside minimum; 3.1 writes the bound itself.
      const exclusiveMin = own.exclusiveMinimum ?? schema.exclusiveMinimum;
      const exclusiveMax = own.exclusiveMaximum ?? schema.exclusiveMaximum;
      const min = finite(own.minimum ?? schema.minimum) ?? finite(exclusiveMin);
      const max = finite(own.maximum ?? schema.maximum) ?? finite(exclusiveMax);
      if (min !== undefined) constraint.min = { kind: 'number', value: min };
      if (max !== undefined) constraint.max = { kind: 'number', value: max };
      if (exclusiveMin !== undefined || exclusiveMax !== undefined) {
        context.report.add(
          'validation',
          'inferred',
          at,
          `"${draft.name}.${field.name}" has an exclusive bound, kept as an inclusive one (the model's bounds are inclusive)`,
        );
      }
    } else if (field.kind === 'list') {
      const min = finite(own.minItems ?? schema.minItems);
      const max = finite(own.maxItems ?? schema.maxItems);
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
      constraint.min?.kind === 'number' &&
      constraint.max?.kind === 'number' &&
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
    if (constraint.required) notes.required.push(field.name);
    if (constraint.min !== undefined || constraint.max !== undefined) notes.bounded.push(field.name);
    if (constraint.pattern !== undefined) notes.patterned.push(field.name);
    if (
      constraint.min !== undefined ||
      constraint.max !== undefined ||
      constraint.pattern !== undefined ||
      constraint.required
    ) {
      constraints.push(constraint);
    }
  }

  return {
    use(schemaName) {
      const draft = bySchema.get(schemaName);
      return draft === undefined ? undefined : enqueue(draft);
    },
    entity(name) {
      const draft = byName.get(name);
      return draft === undefined ? undefined : build(draft);
    },
    sameAs(schema, at) {
      const draft = copied(deref(context.doc, schema), at);
      return draft === undefined ? undefined : enqueue(draft);
    },
    inline,
    scalarType,
    pointerOf: (name) => byName.get(name)?.pointer,
    finish() {
      const everything = !usedNamed;
      if (everything) for (const draft of drafts.values()) enqueue(draft);
      // Building an entity queues the entities its fields hold; keep going until none is left.
      for (let index = 0; index < queue.length; index++) {
        const draft = queue[index];
        if (draft !== undefined) build(draft);
      }
      const entities: Entity[] = [];
      const unused: EntityDraft[] = [];
      for (const draft of drafts.values()) {
        const entity = built.get(draft);
        if (entity === undefined) unused.push(draft);
        else entities.push(entity);
      }
      for (const draft of inlines) {
        const entity = built.get(draft);
        if (entity !== undefined) entities.push(entity);
      }
      return { entities, constraints, constants, unused, everything };
    },
  };
}

/** The segments of a JSON pointer into the document, for an issue's path. */
function pointerSegments(at: string): string[] {
  return at
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Adds a further place to a report entry about one schema written in several places. */
function addPlace(entry: ReportEntry, at: string): void {
  if (entry.pointer === at) return;
  const also = entry.also ?? [];
  if (also.includes(at)) return;
  also.push(at);
  entry.also = also;
}

/** A copy, so that no two places of the model share an object (YAML would write them as aliases). */
function copyType(type: FieldType): FieldType {
  if (type.kind === 'list') return { kind: 'list', of: copyType(type.of) };
  if (type.kind === 'enum') return { kind: 'enum', values: type.values.map((value) => ({ ...value })) };
  return { ...type } as FieldType;
}

function stringType(format: string | undefined): Mapped {
  switch (format) {
    case 'date':
      return { type: { kind: 'date' } };
    case 'date-time':
      return { type: { kind: 'datetime' } };
    case 'binary':
      return { type: { kind: 'file' } };
    case 'uri':
    case 'url':
      return { type: { kind: 'text' }, format: 'url' };
    case undefined:
      return { type: { kind: 'text' } };
    default:
      // Kept as the document says: checked where it is one of CHECKED_FORMATS, else reported as not.
      return { type: { kind: 'text' }, format };
  }
}

export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}
