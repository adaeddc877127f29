// A list of references kept in a team's join table (`through`): read with the records that own it, in
// one query per page, and written as the record is (its rows for that record replaced by the new list,
// in the write's transaction). The join table's columns come from the database (`existing-tables.ts`).
import type { JsonValue } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import type { ExistingFacts } from './existing-tables';
import type { DynamicKysely } from './schema-sync';
import type { StoredRecord } from './store';
import type { ExistingTable, PlannedColumn, PlannedTable } from './table-plan';

/** Bound parameters per query, well below both dialects' limits. */
const KEYS_PER_QUERY = 500;

/** The list fields of a table kept in join tables, with their columns there. */
export function joinedLists(
  table: PlannedTable,
  facts: ExistingFacts | undefined,
): Array<{ column: PlannedColumn; table: ExistingTable; own: string; other: string }> {
  return table.columns.flatMap((column) => {
    const join = facts?.joins.get(column.name);
    return column.through && join ? [{ column, table: column.through.table, ...join }] : [];
  });
}

function relation(table: ExistingTable): RawBuilder<unknown> {
  return table.schema === undefined ? sql.id(table.name) : sql.id(table.schema, table.name);
}

/**
 * Fills each record's lists from the join tables: `keyOf` gives the key a record is joined by, and
 * `readOther` reads a referenced key as the API answers it. A record with no rows there gets an empty list.
 */
export async function readLists(
  db: DynamicKysely,
  lists: ReturnType<typeof joinedLists>,
  records: StoredRecord[],
  keyOf: (record: StoredRecord) => unknown,
  readOther: (list: ReturnType<typeof joinedLists>[number], value: unknown) => JsonValue,
): Promise<void> {
  if (lists.length === 0 || records.length === 0) return;
  const keys = [...new Set(records.map(keyOf).filter((key) => key !== undefined && key !== null))];
  for (const list of lists) {
    const found = new Map<string, JsonValue[]>();
    for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
      const chunk = keys.slice(start, start + KEYS_PER_QUERY);
      const result = await sql<{ own: unknown; other: unknown }>`
        SELECT ${sql.id(list.own)} AS "own", ${sql.id(list.other)} AS "other" FROM ${relation(list.table)}
        WHERE ${sql.id(list.own)} IN (${sql.join(chunk)}) ORDER BY 1, 2
      `.execute(db);
      for (const row of result.rows) {
        const key = String(row.own);
        const values = found.get(key) ?? [];
        values.push(readOther(list, row.other));
        found.set(key, values);
      }
    }
    for (const record of records) record[list.column.name] = found.get(String(keyOf(record))) ?? [];
  }
}

/** Replaces a record's rows in each join table whose list the write gives. Run inside the write's transaction. */
export async function writeLists(
  db: DynamicKysely,
  lists: ReturnType<typeof joinedLists>,
  key: unknown,
  values: StoredRecord,
): Promise<void> {
  for (const list of lists) {
    const given = values[list.column.name];
    if (given === undefined) continue;
    await sql`DELETE FROM ${relation(list.table)} WHERE ${sql.id(list.own)} = ${key}`.execute(db);
    const others = [...new Set(Array.isArray(given) ? given.filter((other) => other !== null) : [])];
    for (let start = 0; start < others.length; start += KEYS_PER_QUERY) {
      const rows = others.slice(start, start + KEYS_PER_QUERY).map((other) => sql`(${key}, ${other})`);
      await sql`
        INSERT INTO ${relation(list.table)} (${sql.id(list.own)}, ${sql.id(list.other)}) VALUES ${sql.join(rows)}
      `.execute(db);
    }
  }
}

/** Removes a record's rows from its join tables, before the record itself: its lists are part of it. */
export async function deleteLists(
  db: DynamicKysely,
  lists: ReturnType<typeof joinedLists>,
  key: unknown,
): Promise<void> {
  for (const list of lists) {
    await sql`DELETE FROM ${relation(list.table)} WHERE ${sql.id(list.own)} = ${key}`.execute(db);
  }
}
