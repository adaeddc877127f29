// A SQLite file's schema read into a `Catalog`. The file is opened read-only (SQLite refuses any write on
// the connection), and must exist: a mistyped name is an error, never a new empty database.
import { createRequire } from 'node:module';
import type { Catalog, Check, Column, ColumnType, ForeignKey, Table } from '../catalog';

/** The parts of better-sqlite3 the reader uses: it ships no types, and no @types is added for them. */
interface ReadOnlyDatabase {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
  close(): void;
}
type BetterSqlite3 = new (
  file: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => ReadOnlyDatabase;

const ON_DELETE: Record<string, ForeignKey['onDelete']> = {
  'NO ACTION': 'no action',
  RESTRICT: 'restrict',
  CASCADE: 'cascade',
  'SET NULL': 'set null',
  'SET DEFAULT': 'set default',
};

export function readSqlite(file: string): Catalog {
  const Database = createRequire(import.meta.url)('better-sqlite3') as BetterSqlite3;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const objects = db
      .prepare(
        "select type, name, sql from sqlite_schema where type in ('table', 'view') and name not like 'sqlite_%' and name not like '\\_ninefold\\_%' escape '\\' order by name",
      )
      .all() as Array<{ type: 'table' | 'view'; name: string; sql: string | null }>;
    const tables: Table[] = objects.map((object) => {
      const info = db.prepare(`select * from pragma_table_xinfo(?)`).all(object.name) as Array<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
        hidden: number;
      }>;
      const visible = info.filter((c) => c.hidden !== 1);
      const primaryKey = visible
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      // INTEGER PRIMARY KEY is the rowid: SQLite numbers it when a row gives none.
      const rowid =
        primaryKey.length === 1 &&
        visible.find((c) => c.name === primaryKey[0])?.type.toUpperCase() === 'INTEGER';
      const columns: Column[] = visible.map((c) => ({
        name: c.name,
        type: sqliteType(c.type),
        nullable: c.notnull === 0 && !(rowid && c.name === primaryKey[0]),
        ...(c.dflt_value !== null ? { default: c.dflt_value } : {}),
        ...(rowid && c.name === primaryKey[0]
          ? { generated: 'identity' as const }
          : c.hidden >= 2
            ? { generated: 'computed' as const }
            : {}),
      }));
      const keys = db.prepare(`select * from pragma_foreign_key_list(?)`).all(object.name) as Array<{
        id: number;
        seq: number;
        table: string;
        from: string;
        to: string | null;
        on_delete: string;
      }>;
      const foreignKeys: ForeignKey[] = [];
      for (const id of [...new Set(keys.map((k) => k.id))]) {
        const parts = keys.filter((k) => k.id === id).sort((a, b) => a.seq - b.seq);
        const first = parts[0];
        if (!first) continue;
        foreignKeys.push({
          name: `${object.name}_${parts.map((p) => p.from).join('_')}_fkey`,
          columns: parts.map((p) => p.from),
          target: first.table,
          // A key without its columns named refers to the target's primary key.
          targetColumns: parts.map((p) => p.to ?? ''),
          onDelete: ON_DELETE[first.on_delete.toUpperCase()] ?? 'no action',
        });
      }
      const indexes = db.prepare(`select * from pragma_index_list(?)`).all(object.name) as Array<{
        name: string;
        unique: number;
        origin: string;
        partial: number;
      }>;
      const uniques = indexes
        .filter((i) => i.unique === 1 && i.origin !== 'pk' && i.partial === 0)
        .map((i) =>
          (
            db.prepare(`select name from pragma_index_info(?) order by seqno`).all(i.name) as Array<{
              name: string | null;
            }>
          ).map((c) => c.name ?? ''),
        )
        .filter((cols) => cols.every((c) => c !== ''));
      return {
        schema: 'main',
        name: object.name,
        kind: object.type,
        columns,
        primaryKey,
        foreignKeys,
        uniques,
        checks: object.sql ? checksOf(object.sql) : [],
      };
    });
    for (const table of tables) {
      for (const key of table.foreignKeys) {
        if (key.targetColumns.some((c) => c === '')) {
          key.targetColumns = tables.find((t) => t.name === key.target)?.primaryKey ?? key.targetColumns;
        }
      }
    }
    return { dialect: 'sqlite', source: file, tables };
  } finally {
    db.close();
  }
}

/** A declared type read by SQLite's own affinity rules, then by the names people give (`BOOLEAN`, `DATE`). */
export function sqliteType(declared: string): ColumnType {
  const type = declared.toUpperCase().trim();
  const length = /^(?:VARCHAR|CHARACTER VARYING|NVARCHAR|CHAR|CHARACTER|NCHAR)\s*\(\s*(\d+)\s*\)/.exec(type);
  if (length) return { kind: 'text', maxLength: Number(length[1]) };
  if (/^BOOL/.test(type)) return { kind: 'boolean' };
  if (type === 'DATE') return { kind: 'date' };
  if (/^(DATETIME|TIMESTAMP)/.test(type)) return { kind: 'timestamp', zoned: /TIME ZONE|TZ/.test(type) };
  if (type === 'TIME') return { kind: 'time' };
  if (/^JSONB?$/.test(type)) return { kind: 'json' };
  if (type === 'UUID') return { kind: 'uuid' };
  const decimal = /^(?:NUMERIC|DECIMAL)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?$/.exec(type);
  if (decimal) {
    return {
      kind: 'decimal',
      ...(decimal[1] ? { precision: Number(decimal[1]) } : {}),
      ...(decimal[2] ? { scale: Number(decimal[2]) } : {}),
    };
  }
  if (type.includes('INT')) return { kind: 'integer', bits: 64 };
  if (/CHAR|CLOB|TEXT/.test(type)) return { kind: 'text' };
  if (type.includes('BLOB') || type === '')
    return type === '' ? { kind: 'other', name: 'any' } : { kind: 'bytes' };
  if (/REAL|FLOA|DOUB/.test(type)) return { kind: 'float' };
  return { kind: 'other', name: declared };
}

/** The CHECK constraints of a `CREATE TABLE` statement, each with its name when it has one. */
export function checksOf(sql: string): Check[] {
  const checks: Check[] = [];
  const pattern = /(?:CONSTRAINT\s+("[^"]+"|\w+)\s+)?CHECK\s*\(/gi;
  for (let match = pattern.exec(sql); match; match = pattern.exec(sql)) {
    let depth = 1;
    let at = pattern.lastIndex;
    let quote: string | undefined;
    for (; at < sql.length && depth > 0; at++) {
      const char = sql[at];
      if (quote) {
        if (char === quote) quote = undefined;
      } else if (char === "'" || char === '"') quote = char;
      else if (char === '(') depth++;
      else if (char === ')') depth--;
    }
    const expression = sql.slice(pattern.lastIndex, at - 1).trim();
    checks.push({ ...(match[1] ? { name: match[1].replaceAll('"', '') } : {}), expression });
    pattern.lastIndex = at;
  }
  return checks;
}
