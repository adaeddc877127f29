// A database's catalog as a nine-point specification a person reads and edits: tables as entities,
// columns as fields, keys, references, unique sets and CHECKs as point 5, with every choice in the report.
// Points a schema cannot say (screens, states, roles, calls, the catalogue, constants) are left not shown.
import { type PointKey, resourceSegment } from '@ninefold/model';
import { createReportBuilder, type ImportReport } from '@ninefold/openapi';
import { camelize, humanize, pluralize, singularize, underscore } from 'inflection';
import type { Catalog, Column, ColumnType, Table } from '../catalog';
import { checkMeaning } from './checks';

type Json = Record<string, unknown>;

export interface DatabaseDocument {
  /** The specification in its YAML/JSON form, for `loadSpec` and for writing out. */
  document: Json;
  report: ImportReport;
}

/** Column names read as a lifecycle: a point-4 candidate when the column is an enum. */
const STATE_NAMES = /^(status|state|stage|phase|lifecycle)$/i;
/** ISO 4217 codes named in a comment: a decimal column with one is money in that currency. */
const CURRENCY = /\b(EUR|USD|GBP|CHF|JPY|SEK|NOK|DKK|CAD|AUD|NZD|PLN|CZK|INR|CNY|BRL|MXN|ZAR)\b/;
/** A comparison of two columns in a rule's message. */
const COMPARISON_WORDS: Record<string, string> = {
  '>=': 'at least',
  '<=': 'at most',
  '>': 'more than',
  '<': 'less than',
  '==': 'the same as',
  '!=': 'other than',
};
const MONEY_NAMES = /(^|_)(price|amount|cost|total|fee|balance|salary|budget|revenue)(_|$)/i;

/**
 * The specification of a catalog. Join tables of two references and nothing else become a list of
 * references on the first side (a many-to-many); every other table or view is an entity.
 */
export function catalogToDocument(catalog: Catalog, title: string): DatabaseDocument {
  const report = createReportBuilder(catalog.source);
  const defaultSchema = catalog.dialect === 'postgres' ? 'public' : 'main';
  const joins = catalog.tables.filter(isJoinTable);
  const names = entityNames(
    catalog.tables.filter((t) => !joins.includes(t)),
    defaultSchema,
  );
  const at = (table: Table, column?: string) => `/${table.schema}/${table.name}${column ? `/${column}` : ''}`;

  const entities: Json = {};
  const views = new Set<string>();
  const fieldRules: Json = {};
  const rules: Json[] = [];
  for (const table of catalog.tables) {
    if (joins.includes(table)) continue;
    const name = names.get(table) as string;
    const fields: Json = {};
    const where = table.schema === defaultSchema ? table.name : `${table.schema}.${table.name}`;
    report.add('entities', 'mapped', at(table), `${table.kind} ${where} -> entity ${name}`);
    const references = new Map(
      table.foreignKeys.filter((k) => k.columns.length === 1).map((k) => [k.columns[0] as string, k]),
    );
    for (const key of table.foreignKeys.filter((k) => k.columns.length > 1)) {
      report.add(
        'entities',
        'skipped',
        at(table),
        `foreign key ${key.name} (${key.columns.join(', ')}) -> ${key.target}: a reference of several columns is not a field kind yet; its columns are read as values`,
      );
    }
    for (const column of table.columns) {
      const target = references.get(column.name);
      const targetTable = target ? findTable(catalog, target.target, defaultSchema) : undefined;
      const field: Json =
        target && targetTable && names.has(targetTable)
          ? { kind: 'reference', entity: names.get(targetTable) }
          : fieldType(column, report, at(table, column.name));
      // `member_id` and `MemberId` hold a member: the field is named for what it refers to.
      const named = column.name.replace(/_?id$/i, '');
      if (target && field.kind === 'reference' && named !== column.name && named !== '') {
        field.label = humanize(named.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
      }
      if (target && field.kind === 'reference') {
        report.add(
          'entities',
          'mapped',
          at(table, column.name),
          `${column.name} -> reference to ${field.entity as string} (ON DELETE ${target.onDelete.toUpperCase()})`,
        );
      }
      if (column.comment) field.help = column.comment;
      const readOnly = table.kind === 'view' || column.generated !== undefined;
      if (readOnly) field.readOnly = true;
      const literal = column.default === undefined ? undefined : literalDefault(column.default);
      const typed = literal === undefined ? undefined : defaultOfKind(literal, field.kind as string);
      if (typed !== undefined && !readOnly) field.default = typed;
      fields[column.name] = field;
      const needed =
        !column.nullable &&
        column.generated === undefined &&
        column.default === undefined &&
        table.kind === 'table';
      const constraint: Json = {};
      if (needed) constraint.required = true;
      const type = column.type;
      // A reference's length is its target key's business, not a bound a person meets.
      if (type.kind === 'text' && type.maxLength !== undefined && field.kind === 'text')
        constraint.max = type.maxLength;
      if (Object.keys(constraint).length) fieldRules[`${name}.${column.name}`] = constraint;
      if (column.default !== undefined && literal === undefined && !readOnly) {
        report.add(
          'entities',
          'inferred',
          at(table, column.name),
          `${column.name} has the default ${column.default}, which the database fills in: not required`,
        );
      }
      if (STATE_NAMES.test(column.name) && field.kind === 'enum') {
        report.add(
          'states',
          'inferred',
          at(table, column.name),
          `${name}.${column.name} reads as a lifecycle (its values: ${(field.values as unknown[]).join(', ')}): a candidate for point 4, whose transitions the schema cannot say`,
        );
      }
    }
    if (table.kind === 'view') views.add(name);
    const entity: Json = { fields };
    // `serve --db` on the same database works on this table in place (docs/database.md).
    entity.table = where;
    if (table.comment) entity.description = table.comment;
    // From the entity's name, which is the table's in the singular (`order_lines`, `OrderLine` and
    // `Track` alike), with its schema in front where two schemas share a name (`BillingCustomer`).
    const words = singularize(underscore(name));
    entity.label = humanize(words);
    entity.plural = humanize(pluralize(words));
    const unkeyable = table.primaryKey.filter((column) =>
      ['file', 'list', 'object', 'markdown'].includes(String((fields[column] as Json | undefined)?.kind)),
    );
    if (table.primaryKey.length === 1) entity.key = table.primaryKey[0];
    else if (table.primaryKey.length > 1 && unkeyable.length > 0) {
      const [first, ...rest] = table.primaryKey;
      entity.key = first;
      fieldRules[`${name}.${first}`] = {
        ...(fieldRules[`${name}.${first}`] as Json | undefined),
        uniqueWith: rest,
      };
      report.add(
        'entities',
        'skipped',
        at(table),
        `composite key (${table.primaryKey.join(', ')}): ${unkeyable.join(', ')} cannot be part of a key field, so ${first} names a record and the set is "unique with"; serving this table in place needs a key that names one row`,
      );
    } else if (table.primaryKey.length > 1) {
      // One field names the record, made of the key's columns: routes and selections name it as any key.
      const keyName = ['id', 'key', `${table.name}_key`].find(
        (candidate) => !(candidate in fields),
      ) as string;
      entity.fields = {
        [keyName]: { kind: 'text', label: 'Key', readOnly: true, internal: true, keyOf: table.primaryKey },
        ...fields,
      };
      entity.key = keyName;
      report.add(
        'entities',
        'mapped',
        at(table),
        `composite key (${table.primaryKey.join(', ')}) -> ${name}.${keyName}, a key made of ${table.primaryKey.join(' and ')}`,
      );
    } else {
      report.add(
        'entities',
        'inferred',
        at(table),
        `${table.kind} ${where} has no primary key: ${table.columns[0]?.name ?? 'its first column'} names a record`,
      );
      entity.key = table.columns[0]?.name;
    }
    const display = table.columns.find((c) =>
      /^(name|title|label|display_name|full_name|code|email)$/i.test(c.name),
    );
    if (display) entity.display = display.name;
    entities[name] = entity;
    for (const unique of table.uniques) {
      const [first, ...rest] = unique;
      if (!first) continue;
      const key = `${name}.${first}`;
      fieldRules[key] = {
        ...(fieldRules[key] as Json | undefined),
        ...(rest.length ? { uniqueWith: rest } : { unique: true }),
      };
      report.add(
        'validation',
        'mapped',
        at(table, first),
        rest.length
          ? `unique (${unique.join(', ')}) -> ${name}.${first} unique with ${rest.join(', ')}`
          : `unique ${first} -> ${name}.${first} unique`,
      );
    }
    for (const check of table.checks) {
      const meaning = checkMeaning(
        check.expression,
        table.columns.map((c) => c.name),
      );
      const label = `CHECK ${check.expression}`;
      switch (meaning.kind) {
        case 'bound': {
          const key = `${name}.${meaning.column}`;
          // On whole numbers a strict bound is the next one: `quantity > 0` is at least 1.
          const integral = table.columns.find((c) => c.name === meaning.column)?.type.kind === 'integer';
          if (meaning.strict && integral) {
            meaning.value += meaning.bound === 'min' ? 1 : -1;
            meaning.strict = false;
          }
          if (meaning.strict) {
            rules.push({
              entity: name,
              check: `record.${meaning.column} ${meaning.bound === 'min' ? '>' : '<'} ${meaning.value}`,
              message: `${humanize(meaning.column)} must be ${meaning.bound === 'min' ? 'more' : 'less'} than ${meaning.value}.`,
              field: meaning.column,
              on: ['create', 'update'],
            });
          } else
            fieldRules[key] = { ...(fieldRules[key] as Json | undefined), [meaning.bound]: meaning.value };
          report.add(
            'validation',
            'mapped',
            at(table, meaning.column),
            `${label} -> ${meaning.strict ? 'a rule' : `${meaning.bound} ${meaning.value}`}`,
          );
          break;
        }
        case 'length': {
          const key = `${name}.${meaning.column}`;
          fieldRules[key] = { ...(fieldRules[key] as Json | undefined), [meaning.bound]: meaning.value };
          report.add(
            'validation',
            'mapped',
            at(table, meaning.column),
            `${label} -> ${meaning.bound} length ${meaning.value}`,
          );
          break;
        }
        case 'values': {
          const field = fields[meaning.column] as Json | undefined;
          if (field && field.kind === 'text') {
            const { default: given, ...rest } = field;
            // A default the CHECK itself refuses could never be stored: it is left out, and said.
            const keeps = given === undefined || meaning.values.includes(String(given));
            fields[meaning.column] = {
              ...rest,
              ...(keeps && given !== undefined ? { default: given } : {}),
              kind: 'enum',
              values: meaning.values,
            };
            if (!keeps) {
              report.add(
                'validation',
                'skipped',
                at(table, meaning.column),
                `the default ${JSON.stringify(given)} of ${meaning.column} is not one of the values its CHECK allows: left out`,
              );
            }
            report.add(
              'validation',
              'mapped',
              at(table, meaning.column),
              `${label} -> ${name}.${meaning.column} is one of ${meaning.values.join(', ')}`,
            );
            if (STATE_NAMES.test(meaning.column)) {
              report.add(
                'states',
                'inferred',
                at(table, meaning.column),
                `${name}.${meaning.column} reads as a lifecycle (its values: ${meaning.values.join(', ')}): a candidate for point 4, whose transitions the schema cannot say`,
              );
            }
          } else
            report.add(
              'validation',
              'skipped',
              at(table, meaning.column),
              `${label}: kept verbatim, the column is not text`,
            );
          break;
        }
        case 'rule':
          rules.push({
            entity: name,
            check: meaning.cel,
            message: `${humanize(meaning.columns[0] as string)} must be ${COMPARISON_WORDS[meaning.cel.split(' ')[1] as string] ?? meaning.cel.split(' ')[1]} ${humanize(meaning.columns[1] as string, true)}.`,
            field: meaning.columns[0],
            on: ['create', 'update'],
            ...(check.name ? { name: check.name } : {}),
          });
          report.add('validation', 'mapped', at(table), `${label} -> rule ${meaning.cel}`);
          break;
        case 'untranslated':
          report.add(
            'validation',
            'skipped',
            at(table),
            `${label}: CEL cannot say it as written; the database still refuses what breaks it`,
          );
          break;
      }
    }
  }
  for (const join of joins) {
    // The side of the join's first column owns the list (`job_mechanics` gives Job.mechanics).
    const position = (columns: string[]) => join.columns.findIndex((c) => c.name === columns[0]);
    const [from, to] = [...join.foreignKeys].sort((a, b) => position(a.columns) - position(b.columns));
    const owner = from ? findTable(catalog, from.target, defaultSchema) : undefined;
    const other = to ? findTable(catalog, to.target, defaultSchema) : undefined;
    const ownerName = owner ? names.get(owner) : undefined;
    const otherName = other ? names.get(other) : undefined;
    if (!ownerName || !otherName || !other) continue;
    const fieldName = camelize(pluralize(other.name), true);
    const ownerEntity = entities[ownerName] as { fields: Json };
    ownerEntity.fields[fieldName] = {
      kind: 'list',
      of: { kind: 'reference', entity: otherName },
      label: humanize(pluralize(other.name)),
      // `serve --db` reads and writes the list in the join table itself.
      through: join.schema === defaultSchema ? join.name : `${join.schema}.${join.name}`,
    };
    report.add(
      'entities',
      'inferred',
      at(join),
      `join table ${join.name} (${join.foreignKeys.map((k) => k.columns.join(', ')).join(' and ')}) -> many-to-many: ${ownerName}.${fieldName}, a list of ${otherName}`,
    );
  }

  const notShown = (point: PointKey, why: string) => {
    report.add(point, 'not-shown', '', why);
    return `Not shown: ${why}`;
  };
  const screens = screensOf(entities, views, report);
  const document: Json = {
    title,
    product: { summary: `The records of ${title}, as its database holds them.` },
    screens: Object.keys(screens).length
      ? screens
      : notShown('screens', 'the database has no table, so there is nothing to list'),
    entities: Object.keys(entities).length ? entities : notShown('entities', 'the database has no table'),
    states: notShown('states', 'a schema cannot say transitions; candidate state columns are in the report'),
    validation: { fields: fieldRules, rules },
    roles: notShown('roles', "a database's roles are not the product's; say who may do what here"),
    calls: notShown('calls', "the prototype API's conventional calls serve the tables"),
    errors: notShown('errors', 'a schema names no messages'),
    constants: notShown('constants', 'a schema names no business constants'),
  };
  return { document, report: report.finish() };
}

/** A table that only joins two others: two single-column references that are its whole key and its columns. */
function isJoinTable(table: Table): boolean {
  if (table.kind !== 'table' || table.foreignKeys.length !== 2) return false;
  if (table.foreignKeys.some((k) => k.columns.length !== 1)) return false;
  const referring = new Set(table.foreignKeys.map((k) => k.columns[0]));
  const others = table.columns.filter(
    (c) => !referring.has(c.name) && c.generated === undefined && c.default === undefined,
  );
  return others.length === 0 && table.primaryKey.every((c) => referring.has(c));
}

function findTable(catalog: Catalog, target: string, defaultSchema: string): Table | undefined {
  const [schema, name] = target.includes('.')
    ? (target.split('.') as [string, string])
    : [defaultSchema, target];
  return catalog.tables.find((t) => t.schema === schema && t.name === name);
}

/** `order_lines` -> `OrderLine`; a name taken in another schema gets its schema in front (`BillingInvoice`). */
function entityNames(tables: readonly Table[], defaultSchema: string): Map<Table, string> {
  const names = new Map<Table, string>();
  const taken = new Set<string>();
  const base = (table: Table) => camelize(singularize(table.name.replace(/[^A-Za-z0-9_]/g, '_')));
  const ordered = [...tables].sort(
    (a, b) => Number(a.schema !== defaultSchema) - Number(b.schema !== defaultSchema),
  );
  for (const table of ordered) {
    let name = base(table);
    if (!/^[A-Za-z]/.test(name)) name = `T${name}`;
    if (taken.has(name)) name = `${camelize(table.schema)}${name}`;
    taken.add(name);
    names.set(table, name);
  }
  return names;
}

/** A column's field type, with what was inferred said in the report. */
function fieldType(column: Column, report: ReturnType<typeof createReportBuilder>, pointer: string): Json {
  const type = column.type;
  const simple = typeOf(type, column, report, pointer);
  if (type.kind === 'other')
    report.add(
      'entities',
      'inferred',
      pointer,
      `${column.name} is of type ${type.name}, which no field kind holds: read as text`,
    );
  return simple;
}

function typeOf(
  type: ColumnType,
  column: Column,
  report: ReturnType<typeof createReportBuilder>,
  pointer: string,
): Json {
  switch (type.kind) {
    case 'text':
      return { kind: 'text' };
    case 'integer':
      return { kind: 'integer' };
    case 'decimal': {
      const currency = column.comment ? CURRENCY.exec(column.comment)?.[1] : undefined;
      if (currency) {
        report.add(
          'entities',
          'mapped',
          pointer,
          `${column.name}: a decimal whose comment names ${currency} -> money in ${currency}`,
        );
        return { kind: 'money', currency };
      }
      // `unit_price` and `UnitPrice` alike.
      if (MONEY_NAMES.test(column.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2')) && type.scale === 2) {
        report.add(
          'entities',
          'inferred',
          pointer,
          `${column.name}: a decimal of 2 places named like an amount -> money, in no currency named`,
        );
        return { kind: 'money' };
      }
      return { kind: 'number' };
    }
    case 'float':
      return { kind: 'number' };
    case 'money':
      return { kind: 'money' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'date':
      return { kind: 'date' };
    case 'timestamp':
      if (!type.zoned)
        report.add(
          'entities',
          'inferred',
          pointer,
          `${column.name}: a timestamp without time zone, read as UTC`,
        );
      return { kind: 'datetime' };
    case 'time':
      return { kind: 'text', format: 'time' };
    case 'json':
      report.add(
        'entities',
        'inferred',
        pointer,
        `${column.name}: JSON, which no field kind holds as such: read as text`,
      );
      return { kind: 'text', format: 'json' };
    case 'uuid':
      return { kind: 'text', format: 'uuid' };
    case 'bytes':
      report.add('entities', 'inferred', pointer, `${column.name}: bytes -> a file`);
      return { kind: 'file' };
    case 'enum':
      return { kind: 'enum', values: type.values };
    case 'array':
      return { kind: 'list', of: typeOf(type.of, column, report, pointer) };
    case 'other':
      return { kind: 'text' };
  }
}

/** A literal default as the field's kind holds it: SQLite writes a boolean's `DEFAULT 0` as a number. */
function defaultOfKind(
  value: string | number | boolean,
  kind: string,
): string | number | boolean | undefined {
  switch (kind) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === '1' || value === 't' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'f' || value === 'false') return false;
      return undefined;
    case 'integer':
    case 'number':
    case 'money':
      return typeof value === 'number' ? value : undefined;
    case 'text':
    case 'enum':
    case 'date':
    case 'datetime':
      return typeof value === 'string' ? value : undefined;
    default:
      return undefined;
  }
}

/** A default the database writes as a literal (`'draft'::text`, `0`, `true`), or undefined for an expression. */
export function literalDefault(text: string): string | number | boolean | undefined {
  const value = text.trim().replace(/::[a-z ]+(?:\([^)]*\))?(?:\[\])?$/i, '');
  const quoted = /^'((?:[^']|'')*)'$/.exec(value);
  if (quoted) return (quoted[1] ?? '').replaceAll("''", "'");
  if (/^\(?-?\d+(?:\.\d+)?\)?$/.test(value)) return Number(value.replace(/[()]/g, ''));
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (value === '1' || value === '0') return Number(value);
  return undefined;
}

/** Columns a list shows at most: the first ones a person reads (the key made of others is no column). */
const LIST_COLUMNS = 5;

/**
 * Point 2, which a schema does not say: a list, a record's page, and (but for views, which take no
 * writes) a form to create and one to edit, per entity, at the routes of its conventional calls. Every
 * screen is reported as inferred, with the columns its list shows.
 */
function screensOf(
  entities: Json,
  views: ReadonlySet<string>,
  report: ReturnType<typeof createReportBuilder>,
): Json {
  const screens: Json = {};
  for (const [name, value] of Object.entries(entities)) {
    const entity = value as { plural?: string; key?: string; fields: Record<string, Json> };
    const segment = resourceSegment({
      name,
      fields: [],
      ...(entity.plural ? { plural: entity.plural } : {}),
    });
    const base = segment.replace(/[^A-Za-z0-9_-]+/g, '-');
    const columns = Object.entries(entity.fields)
      .filter(
        ([, field]) => !['list', 'object', 'file'].includes(String(field.kind)) && field.internal !== true,
      )
      .slice(0, LIST_COLUMNS)
      .map(([field]) => field);
    // Every column sorts the list, the first by default; references, enums and yes/no filter it.
    const filters = columns.filter((field) =>
      ['reference', 'enum', 'boolean'].includes(String(entity.fields[field]?.kind)),
    );
    screens[base] = {
      kind: 'list',
      route: `/${segment}`,
      entity: name,
      title: entity.plural ?? name,
      columns,
      ...(columns.length ? { sort: columns } : {}),
      ...(filters.length ? { filters } : {}),
    };
    screens[`${base}-detail`] = { kind: 'detail', route: `/${segment}/:id`, entity: name, hidden: true };
    if (!views.has(name)) {
      screens[`${base}-new`] = { kind: 'create', route: `/${segment}/new`, entity: name, hidden: true };
      screens[`${base}-edit`] = { kind: 'edit', route: `/${segment}/:id/edit`, entity: name, hidden: true };
    }
    report.add(
      'screens',
      'inferred',
      '',
      `${name}: a list at /${segment} showing and sorted by ${columns.join(', ') || 'no column'}${filters.length ? `, filtered by ${filters.join(', ')}` : ''}, a page per record${views.has(name) ? ' (a view: no forms)' : ', and forms to create and edit'}`,
    );
  }
  return screens;
}
