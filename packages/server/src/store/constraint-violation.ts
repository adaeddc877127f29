import type { DialectName } from './dialect-sql';
import type { PlannedTable, TablePlan } from './table-plan';

/** A database error that a write can fail with, mapped back onto the model. */
export type ConstraintViolation =
  | { kind: 'unique'; field: string }
  /** `by`: the referencing entity, when the database says which (PostgreSQL does, SQLite does not). */
  | { kind: 'foreign-key'; by?: string };

/**
 * Recognizes unique and foreign key violations: SQLite by its extended result code and the column named in
 * its message (`UNIQUE constraint failed: Customer.email`), PostgreSQL by SQLSTATE (23505, 23503) and the
 * constraint name, which the plan names deterministically. Anything else is not a violation.
 */
export function constraintViolation(
  dialect: DialectName,
  plan: TablePlan,
  table: PlannedTable,
  error: unknown,
): ConstraintViolation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, constraint } = error as { code?: unknown; message?: unknown; constraint?: unknown };
  if (dialect === 'sqlite') {
    // ON DELETE RESTRICT acts at once, as a trigger would: SQLite reports it as SQLITE_CONSTRAINT_TRIGGER.
    const foreignKey = code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'SQLITE_CONSTRAINT_TRIGGER';
    if (foreignKey && String(message).includes('FOREIGN KEY constraint failed'))
      return { kind: 'foreign-key' };
    if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return undefined;
    const failed = /constraint failed: ([^,]+)/.exec(String(message))?.[1]?.trim();
    const prefix = `${table.name}.`;
    if (!failed?.startsWith(prefix)) return undefined;
    return { kind: 'unique', field: failed.slice(prefix.length) };
  }
  if (code === '23505') {
    if (constraint === table.key.constraint) return { kind: 'unique', field: table.key.column };
    const index = table.indexes.find((candidate) => candidate.name === constraint);
    return index?.columns[0] === undefined ? undefined : { kind: 'unique', field: index.columns[0] };
  }
  if (code === '23503') {
    for (const other of plan.tables) {
      if (other.columns.some((column) => column.references?.constraint === constraint)) {
        return { kind: 'foreign-key', by: other.name };
      }
    }
    return { kind: 'foreign-key' };
  }
  return undefined;
}
