// The team's own tables (`Table:` in point 3), served in place. The store never creates, alters or
// indexes them; what it must know of them (that they and their columns exist, their CHECKs) is read
// from the database's catalog when it starts, by the reader `ninefold import` uses.
import { type Catalog, readableCondition, type Table } from '@ninefold/database';
import type { StoredRecord } from './store';
import { columnName, fnv1a, type PlannedTable, type TablePlan } from './table-plan';

/** A CHECK of a team's table, and the field a refusal by it is shown on. */
export interface ExistingCheck {
  name?: string;
  /** The condition as the database keeps it, which SQLite's refusals repeat. */
  expression: string;
  /** The condition as a refusal words it (`readableCondition`). */
  readable: string;
  /** The first of the entity's columns its condition reads. */
  field?: string;
}

/** A join table that holds a list of references (`through`): the column of each side. */
export interface ExistingJoin {
  /** The column that holds the owning record's key. */
  own: string;
  /** The column that holds the referenced record's key. */
  other: string;
}

/** What the database says of one entity's table, beyond the plan. */
export interface ExistingFacts {
  checks: ExistingCheck[];
  /** Per list field kept in a join table. */
  joins: Map<string, ExistingJoin>;
  /** The list fields kept in a PostgreSQL array column. */
  arrays: Set<string>;
}

/**
 * The version of a row of a table without a version column: a hash of its values as read. Any change by
 * anyone (another program, `psql`) changes it, so `If-Match` still refuses a write over a change unseen.
 */
export function rowVersion(record: StoredRecord): number {
  // Never 0: an ETag of "0" is what a record without a version is given.
  return fnv1a(JSON.stringify(record)) || 1;
}

/**
 * The plan of the tables the store makes and migrates: the team's are left out, and so is a reference
 * from one of the store's tables to one of theirs (a foreign key would be a constraint on their table's
 * rows that they did not ask for).
 */
export function ownedTables(plan: TablePlan): TablePlan {
  const theirs = new Set(plan.tables.filter((table) => table.existing).map((table) => table.name));
  if (theirs.size === 0) return plan;
  return {
    ...plan,
    tables: plan.tables
      .filter((table) => !table.existing)
      .map((table) => ({
        ...table,
        columns: table.columns.map((column) => {
          if (!column.references || !theirs.has(column.references.table)) return column;
          const { references: _, ...rest } = column;
          return rest;
        }),
      })),
  };
}

/** Whether the plan has an entity in a table of the team's. */
export function hasExistingTables(plan: TablePlan): boolean {
  return plan.tables.some((table) => table.existing !== undefined);
}

/**
 * Checks each existing table against the catalog, and learns its CHECKs. Every table or column the
 * database lacks is named at once, with the entity and field that asked for it: the store does not start
 * on a mapping that would fail at the first write.
 */
export function inspectExisting(
  plan: TablePlan,
  catalog: Catalog,
  defaultSchema: string,
): Map<string, ExistingFacts> {
  const problems: string[] = [];
  const facts = new Map<string, ExistingFacts>();
  for (const table of plan.tables) {
    const existing = table.existing;
    if (!existing) continue;
    const schema = existing.schema ?? defaultSchema;
    const where = existing.schema === undefined ? existing.name : `${existing.schema}.${existing.name}`;
    const found = catalog.tables.find(
      (candidate) => candidate.name === existing.name && candidate.schema === schema,
    );
    if (!found) {
      problems.push(`entity "${table.name}" lives in the table "${where}", which the database does not have`);
      continue;
    }
    const names = new Set(found.columns.map((column) => column.name));
    for (const column of table.columns) {
      if (column.composite || column.through) continue;
      if (!names.has(columnName(column))) {
        problems.push(
          `field "${table.name}.${column.name}" is kept in the column "${columnName(column)}" of "${where}", which it does not have`,
        );
      }
    }
    // A key that names several rows would read, change or delete the wrong ones.
    const keyNames = (table.key.parts ?? [table.key.column]).map((field) => {
      const column = table.columns.find((candidate) => candidate.name === field);
      return column ? columnName(column) : field;
    });
    const sameSet = (columns: string[]) =>
      columns.length === keyNames.length && columns.every((column) => keyNames.includes(column));
    const identifies =
      sameSet(found.primaryKey) ||
      found.uniques.some(
        (unique) =>
          sameSet(unique) &&
          keyNames.every((name) => found.columns.some((column) => column.name === name && !column.nullable)),
      );
    if (found.kind === 'table' && keyNames.every((name) => names.has(name)) && !identifies) {
      const primary =
        found.primaryKey.length > 0 ? ` (its primary key is ${found.primaryKey.join(', ')})` : '';
      problems.push(
        `the key "${table.key.column}" of entity "${table.name}" does not identify one row of "${where}"${primary}: name the columns of its primary key (a key of several fields says them as "Key of"), or a unique column never empty`,
      );
    }
    const joins = new Map<string, ExistingJoin>();
    for (const column of table.columns) {
      if (!column.through) continue;
      const join = findJoin(plan, catalog, defaultSchema, table, column.through);
      if (typeof join === 'string') problems.push(`field "${table.name}.${column.name}" ${join}`);
      else joins.set(column.name, join);
    }
    const arrays = new Set(
      table.columns
        .filter((column) => found.columns.find((c) => c.name === columnName(column))?.type.kind === 'array')
        .map((column) => column.name),
    );
    facts.set(table.name, {
      joins,
      arrays,
      checks: found.checks.map((check) => {
        const field = firstField(table, check.expression);
        return {
          ...(check.name === undefined ? {} : { name: check.name }),
          expression: check.expression,
          readable: readableCondition(check.expression),
          ...(field === undefined ? {} : { field }),
        };
      }),
    });
  }
  if (problems.length > 0) {
    throw new Error(
      `The specification does not match the database's tables:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\n` +
        'Correct Table: or Column: in point 3, or run `ninefold import` on the database again.',
    );
  }
  return facts;
}

/** The field of the first of the table's columns a CHECK's condition names. */
function firstField(table: PlannedTable, expression: string): string | undefined {
  let first: { at: number; field: string } | undefined;
  for (const column of table.columns) {
    const name = columnName(column).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`(^|[^A-Za-z0-9_])"?${name}"?([^A-Za-z0-9_]|$)`).exec(expression);
    if (match && (first === undefined || match.index < first.at))
      first = { at: match.index, field: column.name };
  }
  return first?.field;
}

/** Whether a foreign key's target (`schema.table` on PostgreSQL, `table` on SQLite) is this table. */
function targets(target: string, table: Table): boolean {
  return target === table.name || target === `${table.schema}.${table.name}`;
}

/**
 * The columns of a join table: the one whose foreign key refers to the owner's table, and the one that
 * refers to the listed records' table; or why they cannot be found.
 */
function findJoin(
  plan: TablePlan,
  catalog: Catalog,
  defaultSchema: string,
  owner: PlannedTable,
  through: NonNullable<PlannedTable['columns'][number]['through']>,
): ExistingJoin | string {
  const where =
    through.table.schema === undefined ? through.table.name : `${through.table.schema}.${through.table.name}`;
  const find = (existing: { schema?: string; name: string } | undefined) =>
    existing &&
    catalog.tables.find(
      (candidate) =>
        candidate.name === existing.name && candidate.schema === (existing.schema ?? defaultSchema),
    );
  const join = find(through.table);
  if (!join) return `is kept in the join table "${where}", which the database does not have`;
  if (owner.key.parts)
    return `is kept in the join table "${where}", but its entity's key is made of several fields`;
  const ownTable = find(owner.existing);
  const otherTable = find(plan.tables.find((candidate) => candidate.name === through.target)?.existing);
  if (!ownTable || !otherTable)
    return `is kept in the join table "${where}", whose sides are not both the team's tables`;
  const single = join.foreignKeys.filter((key) => key.columns.length === 1);
  const own = single.find((key) => targets(key.target, ownTable));
  // Of a list of the owner's own kind (a member's friends), the owner's side is the first reference.
  const other = single.find((key) => key !== own && targets(key.target, otherTable));
  if (!own || !other) {
    return `is kept in the join table "${where}", which has no reference to both "${ownTable.name}" and "${otherTable.name}"`;
  }
  return { own: own.columns[0] as string, other: other.columns[0] as string };
}
