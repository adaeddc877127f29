// The reading side: any OpenAPI text -> one bundled OpenAPI 3.x document.

export { MAX_OPENAPI_BYTES } from './read/parse-text';
export { readOpenApi } from './read/read-openapi';
export type { OpenApi3Document, OpenApiVersion, ReadInput, ReadOptions, ReadResult } from './read/types';

// ---- The mapping side (to-model.ts, map/*): its exports go below this line. ----
