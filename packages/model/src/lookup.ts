import type { Entity, Field, Model, Search } from './model';

/**
 * The entity of point 3 with this name. Tolerates malformed models (the checker and the importer hand
 * over models whose references may be broken), answering undefined rather than throwing.
 *
 * @example
 * ```ts
 * findEntity(model, 'Order')?.key; // 'id'
 * ```
 */
export function findEntity(model: Model, name: string): Entity | undefined {
  const point = (model as { entities?: unknown } | undefined)?.entities as
    | { shown?: unknown; items?: unknown }
    | undefined;
  if (typeof point !== 'object' || point === null || point.shown !== true || !Array.isArray(point.items)) {
    return undefined;
  }
  return point.items.find(
    (entity): entity is Entity => typeof entity === 'object' && entity !== null && entity.name === name,
  );
}

/** A field of an entity, by name. */
export function findField(entity: Entity | undefined, name: string): Field | undefined {
  return entity?.fields.find((field) => field.name === name);
}

/**
 * How a person reads a name: `unitPrice` -> `Unit price`, `shipping_address` -> `Shipping address`.
 *
 * @example
 * ```ts
 * humanize('placedOn'); // 'Placed on'
 * ```
 */
export function humanize(name: string): string {
  const words = name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A field's label, or its name made readable. */
export function fieldLabel(field: Pick<Field, 'name' | 'label'>): string {
  return field.label ?? humanize(field.name);
}

/** An entity's label, or its name made readable. */
export function entityLabel(entity: Pick<Entity, 'name' | 'label'>): string {
  return entity.label ?? humanize(entity.name);
}

/**
 * How a person names an entity's records together: its `plural`, else its label. No plural is made up
 * from English rules; a specification that wants "Categories" says so.
 */
export function entityPlural(entity: Pick<Entity, 'name' | 'label' | 'plural'>): string {
  return entity.plural ?? entityLabel(entity);
}

/**
 * The name of a file of an entity's records, without its extension, that any system takes: the API's
 * CSV export names it so, and the client saves it so.
 *
 * @example
 * entityFileName({ name: 'SalesOrder', plural: 'Sales orders' }); // 'sales-orders'
 */
export function entityFileName(entity: Pick<Entity, 'name' | 'label' | 'plural'>): string {
  const slug = entityPlural(entity)
    // Accents go, their letters stay: "Pièces" is "pieces", not "pi-ces".
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return slug === '' ? 'records' : slug;
}

/**
 * Whether an entity's records are identified by numbers: an integer key, or, for an entity without a
 * key, the number the store assigns (unless a field named `id` says otherwise). Keys arrive as text in
 * URLs and query strings; this says which to turn into numbers.
 *
 * @example
 * ```ts
 * hasNumericKey(findEntity(model, 'Order')); // true: its key `id` is an integer
 * ```
 */
export function hasNumericKey(entity: Entity): boolean {
  const keyField = findField(entity, entity.key ?? 'id');
  return keyField ? keyField.kind === 'integer' : entity.key === undefined;
}

/**
 * The fields a search of the prototype API looks in: those the call names, else its documented default,
 * the entity's text fields a person reads (names, emails, codes; not markdown bodies, not write-only
 * secrets, not the key).
 *
 * @example
 * ```ts
 * searchFields(customer, { param: 'q' }); // ['name', 'email', 'country']
 * ```
 */
export function searchFields(entity: Entity, search: Search): string[] {
  if (search.fields !== undefined) return search.fields;
  return entity.fields
    .filter((field) => field.kind === 'text' && !field.writeOnly && field.name !== entity.key)
    .map((field) => field.name);
}

/**
 * The fields no two records of an entity share: its key, and each top-level field point 5 makes unique.
 * What a CSV import may match rows on, in the API and in the client alike.
 *
 * @example
 * ```ts
 * uniqueFields(model, customer); // ['id', 'email']
 * ```
 */
export function uniqueFields(model: Model, entity: Entity): string[] {
  const fields = new Set<string>(entity.key ? [entity.key] : []);
  if (model.validation.shown) {
    for (const constraint of model.validation.fields) {
      const [field, ...below] = constraint.field;
      if (
        constraint.entity === entity.name &&
        constraint.unique &&
        field !== undefined &&
        below.length === 0
      ) {
        fields.add(field);
      }
    }
  }
  return [...fields];
}

/**
 * How a person names a record in a sentence or a list of results: its display field, else its key.
 *
 * @example
 * ```ts
 * recordName(order, { id: 7, number: 'ORD-000007' }); // 'ORD-000007'
 * ```
 */
export function recordName(entity: Entity, record: Readonly<Record<string, unknown>>): string | undefined {
  const value = record[entity.display ?? ''] ?? record[entity.key ?? 'id'];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
