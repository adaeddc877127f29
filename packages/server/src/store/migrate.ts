import type { Model } from '@ninefold/model';
import type { MigrationStep } from './store';
import {
  type PlannedColumn,
  type PlannedIndex,
  type PlannedTable,
  planTables,
  type TablePlan,
} from './table-plan';

/** A table that stays but loses, changes or gains columns. */
export interface AlteredTable {
  from: PlannedTable;
  to: PlannedTable;
  dropColumns: PlannedColumn[];
  /** The new definitions of columns whose type or reference target changed (dropped and added again). */
  changeColumns: PlannedColumn[];
  addColumns: PlannedColumn[];
}

/** What it takes to go from the stored plan to the new one, as reported steps and as work to do. */
export interface PlanDiff {
  /** Every step, in the order they are reported. */
  steps: MigrationStep[];
  /** The steps that lose data: they need `allowDestructive`. */
  destructive: MigrationStep[];
  /** True when the stored plan is exactly the new one: nothing to do, not even to store. */
  unchanged: boolean;
  dropTables: PlannedTable[];
  /** Tables whose key changed: dropped and created again (their rows cannot be kept). */
  recreateTables: PlannedTable[];
  createTables: PlannedTable[];
  alterTables: AlteredTable[];
  dropIndexes: Array<{ table: string; index: PlannedIndex }>;
  addIndexes: Array<{ table: string; index: PlannedIndex }>;
}

/**
 * Compares the applied plan (absent on a new database) with the model's plan. Pure. New tables, columns
 * and indexes are additive; a dropped table or column, a column whose type or reference target changed,
 * and a changed key are destructive. Indexes that are no longer wanted are dropped without a step: that
 * loses no data.
 */
export function diffPlans(stored: TablePlan | undefined, next: TablePlan): PlanDiff {
  const diff: PlanDiff = {
    steps: [],
    destructive: [],
    unchanged: stored !== undefined && JSON.stringify(stored) === JSON.stringify(next),
    dropTables: [],
    recreateTables: [],
    createTables: [],
    alterTables: [],
    dropIndexes: [],
    addIndexes: [],
  };
  const step = (item: MigrationStep) => {
    diff.steps.push(item);
    if (item.destructive) diff.destructive.push(item);
  };
  const old = new Map((stored?.tables ?? []).map((table) => [table.name, table]));

  for (const table of next.tables) {
    const before = old.get(table.name);
    if (!before) {
      diff.createTables.push(table);
      step({
        kind: 'create-table',
        entity: table.name,
        description: `create table "${table.name}" (${table.columns.length} columns)`,
        destructive: false,
      });
      for (const index of table.indexes) addIndex(diff, step, table.name, index);
      if (table.search) addSearch(step, table);
      continue;
    }
    if (keyChanged(before, table)) {
      diff.recreateTables.push(table);
      step({
        kind: 'change-column',
        entity: table.name,
        field: table.key.column,
        description:
          `change the key of "${table.name}" from "${before.key.column}" (${keyKind(before)}) to ` +
          `"${table.key.column}" (${keyKind(table)}): the table is created again and its rows are lost`,
        destructive: true,
      });
      for (const index of table.indexes) addIndex(diff, step, table.name, index);
      continue;
    }

    const altered: AlteredTable = {
      from: before,
      to: table,
      dropColumns: [],
      changeColumns: [],
      addColumns: [],
    };
    const nextColumns = new Map(table.columns.map((column) => [column.name, column]));
    for (const column of before.columns) {
      if (nextColumns.has(column.name)) continue;
      altered.dropColumns.push(column);
      step({
        kind: 'drop-column',
        entity: table.name,
        field: column.name,
        description: `drop column "${column.name}" (${describeColumn(column)}) from "${table.name}": its values are lost`,
        destructive: true,
      });
    }
    const oldColumns = new Map(before.columns.map((column) => [column.name, column]));
    for (const column of table.columns) {
      const previous = oldColumns.get(column.name);
      if (!previous) {
        altered.addColumns.push(column);
        step({
          kind: 'add-column',
          entity: table.name,
          field: column.name,
          description: `add column "${column.name}" (${describeColumn(column)}) to "${table.name}"`,
          destructive: false,
        });
      } else if (!sameStorage(previous, column)) {
        altered.changeColumns.push(column);
        step({
          kind: 'change-column',
          entity: table.name,
          field: column.name,
          description:
            `change column "${column.name}" of "${table.name}" from ${describeColumn(previous)} to ` +
            `${describeColumn(column)}: its values are lost`,
          destructive: true,
        });
      }
    }
    if (altered.dropColumns.length + altered.changeColumns.length + altered.addColumns.length > 0) {
      diff.alterTables.push(altered);
    }

    const searched = table.search ?? [];
    if (searched.length > 0 && searched.join(',') !== (before.search ?? []).join(',')) {
      addSearch(step, table);
    }
    const oldIndexes = new Set(before.indexes.map(indexIdentity));
    const newIndexes = new Set(table.indexes.map(indexIdentity));
    for (const index of before.indexes) {
      if (!newIndexes.has(indexIdentity(index))) diff.dropIndexes.push({ table: table.name, index });
    }
    for (const index of table.indexes) {
      if (!oldIndexes.has(indexIdentity(index))) addIndex(diff, step, table.name, index);
    }
  }

  const kept = new Set(next.tables.map((table) => table.name));
  for (const table of stored?.tables ?? []) {
    if (kept.has(table.name)) continue;
    diff.dropTables.push(table);
    step({
      kind: 'drop-table',
      entity: table.name,
      description: `drop table "${table.name}": all its rows are lost`,
      destructive: true,
    });
  }
  return diff;
}

function addIndex(diff: PlanDiff, step: (item: MigrationStep) => void, table: string, index: PlannedIndex) {
  diff.addIndexes.push({ table, index });
  step({
    kind: 'add-index',
    entity: table,
    description: `add ${index.unique ? 'unique ' : ''}index "${index.name}" on "${table}" (${index.columns.join(', ')})`,
    destructive: false,
  });
}

function addSearch(step: (item: MigrationStep) => void, table: PlannedTable) {
  step({
    kind: 'add-index',
    entity: table.name,
    description: `add a full-text search index on "${table.name}" (${(table.search ?? []).join(', ')})`,
    destructive: false,
  });
}

function keyChanged(before: PlannedTable, after: PlannedTable): boolean {
  const oldKey = before.columns.find((column) => column.name === before.key.column);
  const newKey = after.columns.find((column) => column.name === after.key.column);
  return (
    before.key.column !== after.key.column ||
    (before.key.generate === 'identity') !== (after.key.generate === 'identity') ||
    oldKey === undefined ||
    newKey === undefined ||
    !sameStorage(oldKey, newKey)
  );
}

/** Same type and same reference target: the stored values stay meaningful (the field kind may differ). */
function sameStorage(a: PlannedColumn, b: PlannedColumn): boolean {
  return (
    a.type === b.type &&
    a.references?.table === b.references?.table &&
    a.references?.column === b.references?.column
  );
}

function describeColumn(column: PlannedColumn): string {
  return column.references ? `reference to ${column.references.table}` : column.kind;
}

function keyKind(table: PlannedTable): string {
  if (table.key.hidden) return 'hidden id';
  const column = table.columns.find((candidate) => candidate.name === table.key.column);
  return column ? describeColumn(column) : 'unknown';
}

function indexIdentity(index: PlannedIndex): string {
  return `${index.name}|${index.unique}|${index.columns.join(',')}`;
}

/**
 * What the prototype API's database would do when `serve` moves from one model to the next: the steps,
 * and those it refuses without `--allow-destructive` because they lose or narrow stored data.
 *
 * @example
 * migrationBetween(before, after).destructive; // [{ kind: 'drop-column', entity: 'Order', field: 'notes', … }]
 */
export function migrationBetween(
  before: Model,
  after: Model,
): { steps: MigrationStep[]; destructive: MigrationStep[] } {
  const diff = diffPlans(planTables(before), planTables(after));
  return { steps: diff.steps, destructive: diff.destructive };
}
