export type { Catalog, Check, Column, ColumnType, ForeignKey, Table } from './catalog';
export { type DatabaseImport, importDatabase, isDatabaseSource } from './import-database';
export { checkMeaning, readableCondition } from './map/checks';
export { catalogToDocument } from './map/to-document';
export { readPostgres, withoutPassword } from './read/postgres';
export { isSqliteHeader, readSqlite } from './read/sqlite';
