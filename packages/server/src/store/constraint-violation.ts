import type { DialectName } from './dialect-sql';
import type { ExistingFacts } from './existing-tables';
import { columnName, type PlannedTable, type TablePlan } from './table-plan';

/** A database error that a write can fail with, mapped back onto the model. */
export type ConstraintViolation =
  | { kind: 'unique'; field: string }
  /** `by`: the referencing entity, when the database says which (PostgreSQL does, SQLite does not). */
  | { kind: 'foreign-key'; by?: string }
  /** A CHECK of a team's table (the store's own tables have none): `constraint` is its name or condition. */
  | { kind: 'check'; field?: string; constraint: string }
  /** A NOT NULL column of a team's table left empty. */
  | { kind: 'required'; field: string };

/**
 * Recognizes unique and foreign key violations, and on a team's own tables CHECK and NOT NULL ones too:
 * SQLite by its extended result code and the column or condition its message names (`UNIQUE constraint
 * failed: Customer.email`), PostgreSQL by SQLSTATE (23505, 23503, 23514, 23502) and the constraint's
 * name, which the plan names deterministically, or the column its detail names. Anything else is not a
 * violation.
 */
export function constraintViolation(
  dialect: DialectName,
  plan: TablePlan,
  table: PlannedTable,
  error: unknown,
  facts?: ExistingFacts,
): ConstraintViolation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, constraint, detail, column } = error as {
    code?: unknown;
    message?: unknown;
    constraint?: unknown;
    detail?: unknown;
    column?: unknown;
  };
  const fieldOf = (name: string | undefined) =>
    table.columns.find((candidate) => columnName(candidate) === name)?.name;
  if (dialect === 'sqlite') {
    const text = String(message);
    // ON DELETE RESTRICT acts at once, as a trigger would: SQLite reports it as SQLITE_CONSTRAINT_TRIGGER.
    const foreignKey = code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'SQLITE_CONSTRAINT_TRIGGER';
    if (foreignKey && text.includes('FOREIGN KEY constraint failed')) return { kind: 'foreign-key' };
    const failed = /constraint failed: (.+)$/s.exec(text)?.[1]?.trim();
    if (failed === undefined) return undefined;
    if (code === 'SQLITE_CONSTRAINT_CHECK') return checkViolation(table, facts, failed);
    // `table.column`, several of them for a unique set: the first one names the field.
    const first = failed.split(',')[0]?.trim() ?? '';
    const prefix = `${table.existing?.name ?? table.name}.`;
    if (!first.startsWith(prefix)) return undefined;
    const field = fieldOf(first.slice(prefix.length));
    if (field === undefined) return undefined;
    if (code === 'SQLITE_CONSTRAINT_NOTNULL') return table.existing ? { kind: 'required', field } : undefined;
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return undefined;
    return { kind: 'unique', field };
  }
  if (code === '23505') {
    if (table.existing) {
      // `Key (sku)=(A-1) already exists.`: the team's constraint names are not the plan's.
      const columns = /^Key \((.+?)\)=/.exec(String(detail ?? ''))?.[1];
      const field = fieldOf(columns?.split(',')[0]?.trim().replace(/^"|"$/g, ''));
      return field === undefined ? undefined : { kind: 'unique', field };
    }
    if (constraint === table.key.constraint) return { kind: 'unique', field: table.key.column };
    const index = table.indexes.find((candidate) => candidate.name === constraint);
    return index?.columns[0] === undefined ? undefined : { kind: 'unique', field: index.columns[0] };
  }
  if (code === '23503') {
    for (const other of plan.tables) {
      if (other.columns.some((candidate) => candidate.references?.constraint === constraint)) {
        return { kind: 'foreign-key', by: other.name };
      }
    }
    return { kind: 'foreign-key' };
  }
  if (!table.existing) return undefined;
  if (code === '23514') return checkViolation(table, facts, String(constraint ?? ''));
  if (code === '23502') {
    const field = fieldOf(typeof column === 'string' ? column : undefined);
    return field === undefined ? undefined : { kind: 'required', field };
  }
  return undefined;
}

/** A CHECK named by its name (PostgreSQL, and SQLite's named ones) or by its condition (SQLite's others). */
function checkViolation(
  table: PlannedTable,
  facts: ExistingFacts | undefined,
  named: string,
): ConstraintViolation | undefined {
  if (!table.existing) return undefined;
  const squeeze = (text: string) => text.replace(/\s+/g, '');
  const check = facts?.checks.find(
    (candidate) => candidate.name === named || squeeze(candidate.expression) === squeeze(named),
  );
  return {
    kind: 'check',
    ...(check?.field === undefined ? {} : { field: check.field }),
    constraint: check?.readable ?? named,
  };
}
