// Free-text search of a list (the call's `search` parameter, point 7) in the database's own full-text
// index: SQLite's FTS5, PostgreSQL's tsvector with a GIN index. Both are kept in step with every write
// by the database itself (triggers on SQLite, an expression index on PostgreSQL).
import { searchTerms } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { type DialectSql, quote } from './dialect-sql';
import { columnName, type PlannedTable, type TablePlan } from './table-plan';

type Run = (text: string) => Promise<unknown>;

/**
 * The condition that keeps the records whose `fields` hold every word of `text`, or undefined when the
 * text has no word (a search for "--" is no search). `fields` are among the table's searched columns.
 */
export function searchCondition(
  dialect: DialectSql,
  table: PlannedTable,
  text: string,
  fields: readonly string[],
): RawBuilder<unknown> | undefined {
  const terms = searchTerms(text);
  if (terms.length === 0) return undefined;
  const searched = table.search ?? [];
  for (const field of fields) {
    if (!searched.includes(field)) {
      throw new Error(`Cannot search "${table.name}" in "${field}": it is not one of its searched fields`);
    }
  }
  // A role that may read none of the searched fields finds nothing: the search would tell it what they hold.
  if (fields.length === 0) return sql`1 = 0`;
  const columns = fields.map((field) => {
    const column = table.columns.find((candidate) => candidate.name === field);
    return column ? columnName(column) : field;
  });
  if (table.existing) return scanCondition(dialect, terms, columns);
  if (dialect.name === 'sqlite') {
    // Every term is letters and digits only, so quoting it as an FTS5 string is enough to keep it literal.
    const columns = fields.map((field) => quote(field)).join(' ');
    const match = `{${columns}} : (${terms.map((term) => `"${term}"*`).join(' AND ')})`;
    const index = sql.id(searchTableName(table.name));
    return sql`"rowid" IN (SELECT "rowid" FROM ${index} WHERE ${index} MATCH ${match})`;
  }
  // One condition per word, each true when any searched field holds it: every field has its own index,
  // which PostgreSQL combines (BitmapOr within a word, BitmapAnd across words).
  const perTerm = terms.map(
    (term) =>
      sql`(${sql.join(
        columns.map((column) => sql`${vector(column)} @@ to_tsquery('simple', ${`${term}:*`})`),
        sql` OR `,
      )})`,
  );
  // The matches are found first, by the indexes, as an array computed once; the page and its total are
  // then taken among them by key. Left to itself, PostgreSQL cannot estimate how many rows a prefix
  // matches (it assumes thousands), and walked the whole table in the page's order testing each row:
  // seconds for a word one product holds. On bench/search.ts's million products (EXPLAIN ANALYZE), a
  // page and its total for such a word took 680 ms with the matches as a subquery, 58 ms as an array.
  const keyColumn = table.columns.find((column) => column.name === table.key.column);
  const key = sql.id(keyColumn ? columnName(keyColumn) : table.key.column);
  return sql`${key} = ANY(ARRAY(SELECT ${key} FROM ${dialect.relation(table)} WHERE ${sql.join(perTerm, sql` AND `)}))`;
}

/**
 * A team's table has no index of ours (making one would change it): each word is looked for as the start
 * of a word in any searched column, row by row, as the full-text index would have found it.
 */
function scanCondition(dialect: DialectSql, terms: string[], columns: string[]): RawBuilder<unknown> {
  const text = (column: string) =>
    dialect.name === 'sqlite'
      ? sql`(' ' || lower(coalesce(${sql.id(column)}, '')))`
      : sql`(' ' || lower(coalesce(${sql.id(column)}::text, '')))`;
  const perTerm = terms.map(
    (term) =>
      sql`(${sql.join(
        columns.map((column) => sql`${text(column)} LIKE ${`% ${term.toLowerCase()}%`}`),
        sql` OR `,
      )})`,
  );
  return sql`(${sql.join(perTerm, sql` AND `)})`;
}

/** Must read exactly as in the index, or PostgreSQL does not use it. */
function vector(field: string): RawBuilder<unknown> {
  return sql`to_tsvector('simple', coalesce(${sql.id(field)}, ''))`;
}

function vectorText(field: string): string {
  return `to_tsvector('simple', coalesce(${quote(field)}, ''))`;
}

/** The FTS5 table that indexes an entity's searched fields (SQLite). */
export function searchTableName(table: string): string {
  return `_ninefold_search_${table}`;
}

/** The GIN index of one searched field (PostgreSQL). */
function searchIndexName(table: string, field: string): string {
  const name = `sx_${table}_${field}`;
  return name.length <= 63 ? name : `sx_${fnvHex(`${table}.${field}`)}`;
}

function fnvHex(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

/**
 * Brings the search indexes in line with the plan, inside the migration's transaction. `rebuilt` names
 * the tables created, created again or rebuilt by this migration: their rows are new to any index.
 */
export async function syncSearch(
  run: Run,
  dialect: DialectSql,
  before: TablePlan | undefined,
  plan: TablePlan,
  rebuilt: ReadonlySet<string>,
): Promise<void> {
  const old = new Map((before?.tables ?? []).map((table) => [table.name, table.search ?? []]));
  if (dialect.name === 'postgres') {
    for (const table of plan.tables) {
      const want = table.search ?? [];
      for (const field of old.get(table.name) ?? []) {
        if (!want.includes(field))
          await run(`DROP INDEX IF EXISTS ${dialect.table(searchIndexName(table.name, field))}`);
      }
      for (const field of want) {
        await run(
          `CREATE INDEX IF NOT EXISTS ${quote(searchIndexName(table.name, field))} ON ${dialect.table(table.name)} USING GIN (${vectorText(field)})`,
        );
      }
    }
    return;
  }
  const planned = new Set(plan.tables.map((table) => table.name));
  for (const [name, fields] of old) {
    if (!planned.has(name) && fields.length > 0)
      await run(`DROP TABLE IF EXISTS ${quote(searchTableName(name))}`);
  }
  for (const table of plan.tables) {
    const want = table.search ?? [];
    const had = old.get(table.name) ?? [];
    if (!rebuilt.has(table.name) && want.join('\u0000') === had.join('\u0000')) continue;
    await dropSqliteIndex(run, table.name);
    if (want.length > 0) await createSqliteIndex(run, table.name, want);
  }
}

async function dropSqliteIndex(run: Run, table: string): Promise<void> {
  const index = searchTableName(table);
  for (const suffix of ['ai', 'ad', 'au']) await run(`DROP TRIGGER IF EXISTS ${quote(`${index}_${suffix}`)}`);
  await run(`DROP TABLE IF EXISTS ${quote(index)}`);
}

/**
 * An external-content FTS5 table: it keeps only the index, the words stay in the entity's own table.
 * Triggers keep it in step with every insert, update and delete, in the writing transaction.
 */
async function createSqliteIndex(run: Run, table: string, fields: readonly string[]): Promise<void> {
  const index = quote(searchTableName(table));
  const names = fields.map(quote);
  const columns = names.join(', ');
  const values = (row: 'new' | 'old') => names.map((name) => `${row}.${name}`).join(', ');
  await run(
    `CREATE VIRTUAL TABLE ${index} USING fts5(${columns}, content=${quote(table)}, content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`,
  );
  const remove = `INSERT INTO ${index} (${index}, "rowid", ${columns}) VALUES ('delete', old."rowid", ${values('old')});`;
  const add = `INSERT INTO ${index} ("rowid", ${columns}) VALUES (new."rowid", ${values('new')});`;
  const target = quote(table);
  await run(
    `CREATE TRIGGER ${quote(`${searchTableName(table)}_ai`)} AFTER INSERT ON ${target} BEGIN ${add} END`,
  );
  await run(
    `CREATE TRIGGER ${quote(`${searchTableName(table)}_ad`)} AFTER DELETE ON ${target} BEGIN ${remove} END`,
  );
  // Only a write to a searched field changes what the index holds.
  await run(
    `CREATE TRIGGER ${quote(`${searchTableName(table)}_au`)} AFTER UPDATE OF ${columns} ON ${target} BEGIN ${remove} ${add} END`,
  );
  // Rows already in the table (a search added to a filled database) are indexed now.
  await run(`INSERT INTO ${index} (${index}) VALUES ('rebuild')`);
}
