import { didYouMean } from '../authoring/suggest';
import { exhaustiveSwitchError } from '../exhaustive';
import type { PathSegment } from '../issues';
import { type Entity, FIELD_KINDS, type Field, type JsonValue } from '../model';
import {
  type Context,
  checkCel,
  isRecord,
  list,
  refer,
  referField,
  report,
  shownList,
  text,
} from './context';
import { checkNumbering } from './product';

// The checks of point 3 (entities and fields), numbering included. check/index.ts runs them in point order over one shared Context.

export function checkEntities(context: Context): void {
  const entities = shownList(context.model.entities, 'items');
  if (!entities) return;
  const seen = new Set<string>();
  for (const entity of entities) {
    if (!isRecord(entity)) continue;
    const name = text(entity.name);
    if (name === undefined) continue;
    const base: PathSegment[] = ['entities', name];
    if (seen.has(name)) {
      report(
        context,
        'duplicate-name',
        base,
        `Entity "${name}" is defined twice in point 3 (entities and fields). Rename one of them.`,
      );
      continue;
    }
    seen.add(name);
    const typed = entity as unknown as Entity;
    const owner = `entity "${name}" (point 3)`;
    referField(context, typed, entity.key, [...base, 'key'], `the key of ${owner}`);
    referField(context, typed, entity.display, [...base, 'display'], `the display field of ${owner}`);
    checkTableMapping(context, entity, base, owner);
    const fieldNames = new Set<string>();
    for (const field of list(entity.fields)) {
      if (!isRecord(field)) continue;
      const fieldName = text(field.name);
      if (fieldName === undefined) continue;
      const fieldBase: PathSegment[] = [...base, 'fields', fieldName];
      const fieldOwner = `field "${name}.${fieldName}" (point 3)`;
      if (fieldNames.has(fieldName)) {
        report(
          context,
          'duplicate-name',
          fieldBase,
          `${fieldOwner} is defined twice in entity "${name}". Rename one of them.`,
        );
        continue;
      }
      fieldNames.add(fieldName);
      checkFieldType(context, field, fieldBase, fieldOwner, 0, field.readOnly === true);
      // Most fields are not derived: their path and message are not built.
      if (field.derived !== undefined)
        checkCel(context, field.derived, [...fieldBase, 'derived'], `the derived value of ${fieldOwner}`, {
          entity: name,
          variables: ['record'],
        });
      if (field.numbering !== undefined)
        checkNumbering(context, field, [...fieldBase, 'numbering'], fieldOwner);
      if (field.setOnCreate !== undefined) {
        checkCel(
          context,
          field.setOnCreate,
          [...fieldBase, 'setOnCreate'],
          `the value set on create of ${fieldOwner}`,
          { entity: name, variables: ['record', 'user', 'now', 'today'] },
        );
        // A value the client could send and the server then overwrites would be lost without a word.
        if (field.readOnly !== true)
          report(
            context,
            'invalid-value',
            [...fieldBase, 'setOnCreate'],
            `${fieldOwner} is set on create by the API, so it must be read only. Add "Read only: yes".`,
          );
      }
      if (field.copyFrom !== undefined)
        checkCopyFrom(context, typed, field as unknown as Field, [...fieldBase, 'copyFrom'], fieldOwner);
      if (field.default !== undefined && field.default !== null) {
        const wrong = defaultMismatch(field as unknown as Field, field.default as JsonValue);
        if (wrong)
          report(
            context,
            'invalid-value',
            [...fieldBase, 'default'],
            `${fieldOwner} has the default ${JSON.stringify(field.default)}, which is not ${wrong}. Give a value of its kind, or no default.`,
          );
      }
    }
  }
}

export function checkFieldType(
  context: Context,
  type: Record<string, unknown>,
  base: PathSegment[],
  owner: string,
  depth: number,
  readOnly: boolean,
): void {
  const kind = FIELD_KINDS.find((known) => known === type.kind);
  if (kind === undefined) {
    report(
      context,
      'invalid-value',
      [...base, 'kind'],
      `${owner} has kind "${String(type.kind)}", which is not a field kind. Use one of: ${FIELD_KINDS.join(', ')}.`,
      { hint: typeof type.kind === 'string' ? didYouMean(type.kind, FIELD_KINDS) : undefined },
    );
    return;
  }
  switch (kind) {
    case 'text':
    case 'number':
    case 'integer':
    case 'money':
    case 'boolean':
    case 'date':
    case 'datetime':
    case 'markdown':
    case 'file':
    case 'enum':
      return;
    case 'reference':
    case 'object': {
      const path = [...base, 'entity'];
      const target = refer<Entity>(context, 'entity', type.entity, path, owner);
      if (target === undefined) return;
      // A read-only object of a record's entity is that record as the API answers it (an imported
      // article's author); a writable one would be a second way to write another entity's records.
      if (kind === 'object' && target.embedded !== true && !readOnly) {
        report(
          context,
          'kind-mismatch',
          path,
          `${owner} holds an object of entity "${target.name}", which is not embedded. Mark "${target.name}" ` +
            'as embedded if it is a value stored inside records, make the field a reference, or make it ' +
            'read-only if the API answers the whole record here.',
          { severity: 'warning' },
        );
      }
      if (kind === 'reference' && target.embedded === true) {
        report(
          context,
          'kind-mismatch',
          path,
          `${owner} refers to entity "${target.name}", which is embedded and has no records of its own to ` +
            'refer to. Make the field an object, or make the entity not embedded.',
          { severity: 'warning' },
        );
      }
      return;
    }
    case 'list':
      // The model is plain JSON, so lists cannot nest forever; the bound only guards hand-made cycles.
      if (isRecord(type.of) && depth < 16)
        checkFieldType(context, type.of, [...base, 'of'], owner, depth + 1, readOnly);
      return;
    default:
      exhaustiveSwitchError(kind);
  }
}

const NUMERIC: ReadonlySet<string> = new Set(['number', 'integer', 'money']);

/**
 * `product.price`: a reference of the same entity, and a field of the entity it points at whose value
 * fits this one (the same kind, or numbers of any kind); and this field is one a person writes, since
 * the form fills it in for them to keep or change.
 */
function checkCopyFrom(context: Context, entity: Entity, field: Field, path: PathSegment[], owner: string) {
  const source = `the copy from of ${owner}`;
  const [reference, from, ...rest] = (field.copyFrom ?? '').split('.').map((part) => part.trim());
  if (!reference || !from || rest.length > 0) {
    report(
      context,
      'invalid-value',
      path,
      `${source} must be a reference and a field, such as "product.price".`,
    );
    return;
  }
  if (field.readOnly === true || field.derived !== undefined) {
    report(
      context,
      'invalid-value',
      path,
      `${owner} is copied into the form for the person to keep or change, so it cannot be read only or derived.`,
    );
  }
  const via = referField(context, entity, reference, path, source);
  if (via === undefined) return;
  if (via.kind !== 'reference') {
    report(
      context,
      'invalid-value',
      path,
      `${source} names "${reference}", which is no reference: it points at nothing to copy from.`,
    );
    return;
  }
  const target = shownList(context.model.entities, 'items')?.find(
    (candidate) => isRecord(candidate) && candidate.name === via.entity,
  ) as Entity | undefined;
  const copied = referField(context, target, from, path, source);
  if (copied === undefined) return;
  const fits = copied.kind === field.kind || (NUMERIC.has(copied.kind) && NUMERIC.has(field.kind));
  if (!fits) {
    report(
      context,
      'invalid-value',
      path,
      `${source} copies "${via.entity}.${from}" (${copied.kind}) into a ${field.kind} field; copy a field of the same kind.`,
    );
  }
}

/**
 * What a field's default should have been, when it is not a value of the field's kind (a boolean's `0`,
 * an enum's value it does not list): every form and every create would otherwise start from a value the
 * API then refuses, and the Markdown format cannot even write it.
 */
function defaultMismatch(field: Field, value: JsonValue): string | undefined {
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'yes or no';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : 'a whole number';
    case 'number':
    case 'money':
      return typeof value === 'number' ? undefined : 'a number';
    case 'text':
    case 'markdown':
    case 'date':
    case 'datetime':
      return typeof value === 'string' ? undefined : 'text';
    case 'enum': {
      // The check reads the model as it came, where a broken enum may have no list of values.
      const values = Array.isArray(field.values) ? field.values.filter(isRecord).map((v) => v.value) : [];
      return typeof value === 'string' && values.includes(value)
        ? undefined
        : `one of its values (${values.join(', ')})`;
    }
    case 'list':
      return Array.isArray(value) ? undefined : 'a list';
    case 'reference':
    case 'object':
    case 'file':
      return undefined;
    default:
      // A kind checkFieldType already refused.
      return undefined;
  }
}

/**
 * `table` and `column` (docs/database.md): an embedded entity has no table of its own, a column names
 * nothing without a table, and two fields cannot share one column (a write would set it twice).
 */
function checkTableMapping(
  context: Context,
  entity: Record<string, unknown>,
  base: PathSegment[],
  owner: string,
): void {
  const table = text(entity.table);
  if (table !== undefined && entity.embedded === true) {
    report(
      context,
      'invalid-value',
      [...base, 'table'],
      `${owner} is embedded, stored inside other records, so it cannot live in the table "${table}". Remove the table, or make the entity not embedded.`,
    );
  }
  // A field without a column is stored in the column of its own name.
  const columns = new Map<string, string>();
  for (const field of list(entity.fields)) {
    if (!isRecord(field)) continue;
    const name = text(field.name);
    if (name === undefined) continue;
    const named = text(field.column);
    if (named !== undefined && table === undefined) {
      report(
        context,
        'invalid-value',
        [...base, 'fields', name, 'column'],
        `field "${text(entity.name)}.${name}" (point 3) names the column "${named}", but ${owner} names no table: the column would not be used.`,
        { hint: 'Name the existing table the entity lives in (Table:), or remove the column.' },
      );
    }
    const column = named ?? name;
    if (Array.isArray(field.keyOf)) checkKeyOf(context, entity, field, [...base, 'fields', name, 'keyOf']);
    if (field.through !== undefined) {
      const of = isRecord(field.of) ? field.of : undefined;
      if (field.kind !== 'list' || of?.kind !== 'reference') {
        report(
          context,
          'invalid-value',
          [...base, 'fields', name, 'through'],
          `field "${text(entity.name)}.${name}" (point 3) is kept in the join table "${text(field.through)}", which only a list of references may be.`,
        );
      } else if (table === undefined) {
        report(
          context,
          'invalid-value',
          [...base, 'fields', name, 'through'],
          `field "${text(entity.name)}.${name}" (point 3) is kept in the join table "${text(field.through)}", but ${owner} names no table of its own.`,
          { hint: 'Name the existing table the entity lives in (Table:), or remove "Through".' },
        );
      }
    }
    // A key made of other fields, and a list in a join table, have no column in the entity's table.
    if (Array.isArray(field.keyOf) || field.through !== undefined) continue;
    const other = columns.get(column);
    if (other !== undefined && table !== undefined) {
      report(
        context,
        'duplicate-name',
        [...base, 'fields', name, 'column'],
        `fields "${other}" and "${name}" of ${owner} are both stored in the column "${column}". Give each field its own column.`,
      );
    }
    columns.set(column, name);
  }
}

/** A composite key: on the key field, a read-only text made of two or more of the entity's plain fields. */
function checkKeyOf(
  context: Context,
  entity: Record<string, unknown>,
  field: Record<string, unknown>,
  path: PathSegment[],
): void {
  const owner = `field "${text(entity.name)}.${text(field.name)}" (point 3)`;
  const fail = (message: string, hint?: string) =>
    report(context, 'invalid-value', path, message, hint === undefined ? {} : { hint });
  if (entity.key !== field.name) {
    fail(
      `${owner} is made of other fields' values, which only the entity's key may be.`,
      `Make it the key (Key: ${text(field.name)}), or remove "Key of".`,
    );
    return;
  }
  if (field.kind !== 'text' || field.readOnly !== true) {
    fail(
      `${owner} is a key made of other fields' values: it must be text, and read only, since nobody writes it.`,
    );
  }
  const fields = list(entity.fields).filter(isRecord);
  for (const part of list(field.keyOf)) {
    const name = text(part);
    const target = fields.find((candidate) => candidate.name === name);
    if (name === field.name) fail(`${owner} cannot be made of itself.`);
    else if (!target)
      fail(`${owner} is made of "${name}", which is not a field of entity "${text(entity.name)}".`);
    else if (['list', 'object', 'file', 'markdown'].includes(String(target.kind)))
      fail(`${owner} is made of "${name}", a ${String(target.kind)}, which cannot be part of a key.`);
  }
}
