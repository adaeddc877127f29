// The reading side: any OpenAPI text -> one bundled OpenAPI 3.x document.

export {
  type ImportOptions,
  type ImportResult,
  type ImportStage,
  importOpenApi,
  looksLikeOpenApi,
} from './import-openapi';
// ---- The mapping side (to-model.ts, map/*): its exports go below this line. ----
export {
  createReportBuilder,
  formatImportReport,
  type ImportReport,
  importReportText,
  REPORT_KINDS,
  type ReportEntry,
  type ReportFormat,
  type ReportKind,
} from './import-report';
export { MAX_DEPTH as MAX_OPENAPI_DEPTH, MAX_OPENAPI_BYTES } from './read/limits';
export { readOpenApi } from './read/read-openapi';
export type {
  FileRefusal,
  OpenApi3Document,
  OpenApiVersion,
  ReadInput,
  ReadOptions,
  ReadResult,
} from './read/types';
export { type OpenApi3Like, type ToModelResult, toModel } from './to-model';
