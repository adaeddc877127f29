export { API_BASE, type ApiDescription, describeApi } from './api-calls';
export { type AppOptions, buildApp, DEFAULT_BODY_LIMIT, present } from './app';
export { PROBLEM_CONTENT_TYPE, type Problem, problem } from './problem';
export {
  DEFAULT_PORT,
  databaseUrl,
  describeDatabase,
  type RunningServer,
  type ServeOptions,
  serve,
} from './serve';
export { openStore } from './store/open-store';
export type {
  ListQuery,
  ListResult,
  MigrationResult,
  MigrationStep,
  Store,
  StoredRecord,
} from './store/store';
