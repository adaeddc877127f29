// What a database says of itself, as data: the readers fill it from PostgreSQL's and SQLite's catalogs,
// and the mapper turns it into a specification. Nothing here knows which database it came from.

/** A column's type, named the same way whichever database said it. */
export type ColumnType =
  | { kind: 'text'; maxLength?: number }
  | { kind: 'integer'; bits: 16 | 32 | 64 }
  | { kind: 'decimal'; precision?: number; scale?: number }
  | { kind: 'float' }
  /** PostgreSQL's own `money` type. */
  | { kind: 'money' }
  | { kind: 'boolean' }
  | { kind: 'date' }
  | { kind: 'timestamp'; zoned: boolean }
  | { kind: 'time' }
  | { kind: 'json' }
  | { kind: 'uuid' }
  | { kind: 'bytes' }
  | { kind: 'enum'; type: string; values: string[] }
  | { kind: 'array'; of: ColumnType }
  /** A type the mapper has no kind for (`tsvector`, `inet`, a domain…): kept by name, read as text. */
  | { kind: 'other'; name: string };

export interface Column {
  name: string;
  type: ColumnType;
  nullable: boolean;
  /** The default as the database writes it (`nextval('parts_id_seq'::regclass)`, `'draft'::text`, `0`). */
  default?: string;
  /** Filled by the database: identity, serial, or a generated column. */
  generated?: 'identity' | 'serial' | 'computed';
  comment?: string;
}

export interface ForeignKey {
  name: string;
  columns: string[];
  /** The table referred to, as `schema.table` on PostgreSQL and `table` on SQLite. */
  target: string;
  targetColumns: string[];
  onDelete: 'no action' | 'restrict' | 'cascade' | 'set null' | 'set default';
}

export interface Check {
  name?: string;
  /** The condition as the database keeps it, without `CHECK`. */
  expression: string;
}

export interface Table {
  /** `public` on PostgreSQL unless another schema; `main` on SQLite. */
  schema: string;
  name: string;
  kind: 'table' | 'view';
  comment?: string;
  columns: Column[];
  primaryKey: string[];
  foreignKeys: ForeignKey[];
  /** Unique constraints and unique indexes, each as its columns. */
  uniques: string[][];
  checks: Check[];
}

export interface Catalog {
  dialect: 'postgres' | 'sqlite';
  /** Where it was read from, for the report: a URL without its password, or a file name. */
  source: string;
  tables: Table[];
}

/** `schema.table`, or the name alone in the default schema. */
export function qualifiedName(table: Pick<Table, 'schema' | 'name'>, defaultSchema: string): string {
  return table.schema === defaultSchema ? table.name : `${table.schema}.${table.name}`;
}
