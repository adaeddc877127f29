export type { Catalog, Check, Column, ColumnType, ForeignKey, Table } from './catalog';
export { type DatabaseImport, importDatabase } from './import-database';
export { checkMeaning, readableCondition } from './map/checks';
export { catalogToDocument } from './map/to-document';
export { readPostgres } from './read/postgres';
export { readSqlite } from './read/sqlite';
export { isDatabaseSource, isPostgresUrl, isSqliteHeader, withoutPassword } from './source';
