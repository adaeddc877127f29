import { readFileSync } from 'node:fs';
import { readOpenApi } from '../../../packages/openapi/src/index';
import { corpusReadOptions } from '../../../packages/openapi/test/support/corpus';
import { isObject, type Json, resolveRef } from './json';

/** What the driver needs from the document itself, independent of what the import made of it. */
export interface DocumentPaths {
  /** Whether the list at this route has a `GET` on an item below its path in the document. */
  hasDetailCall(route: string): boolean;
  /** The schema of the parameter of that name (path, query or header), from the first operation that has one. */
  parameterSchema(name: string): Json | undefined;
}

/**
 * A path's shape, parameters blanked: `/stores/{}/employees`, as a route `/stores/:id/employees` gives.
 * A format suffix goes (`/Accounts.json` and `/Accounts/{Sid}.json` are a collection and its item).
 */
const shapeOf = (path: string): string =>
  path
    .replace(/\/+$/, '')
    .replace(/\.(json|xml)$/i, '')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/:[\w]+/g, '{}')
    .toLowerCase();

export function documentPaths(file: string): DocumentPaths {
  const read = readOpenApi({ text: readFileSync(file, 'utf8'), file }, corpusReadOptions());
  const document = (read.document ?? {}) as unknown as Json;
  const paths = isObject(document.paths) ? document.paths : {};
  const itemsWithGet = new Set<string>();
  const parameters = new Map<string, Json>();
  const resolve = (value: unknown): unknown => resolveRef(document, value);
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    if (isObject(item.get) && /\{[^}]+\}(\.\w+)?\/?$/.test(path)) itemsWithGet.add(shapeOf(path));
    for (const operation of [item, ...Object.values(item)]) {
      if (!isObject(operation) || !Array.isArray(operation.parameters)) continue;
      for (const raw of operation.parameters) {
        const parameter = resolve(raw);
        if (!isObject(parameter) || typeof parameter.name !== 'string') continue;
        const schema = resolve(parameter.schema);
        if (!parameters.has(parameter.name) && isObject(schema)) parameters.set(parameter.name, schema);
      }
    }
  }
  return {
    hasDetailCall: (route) => itemsWithGet.has(`${shapeOf(route)}/{}`),
    parameterSchema: (name) => parameters.get(name),
  };
}

/** A value of the parameter's type that Prism's request check accepts: what a person would have typed. */
export function parameterValue(paths: DocumentPaths, name: string): string {
  const schema = paths.parameterSchema(name);
  if (schema === undefined) return 'example';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return String(schema.enum[0]);
  if (schema.example !== undefined && typeof schema.example !== 'object') return String(schema.example);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return String(typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1);
    case 'boolean':
      return 'true';
    default:
      switch (schema.format) {
        case 'uuid':
          return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
        case 'date':
          return '2024-01-31';
        case 'date-time':
          return '2024-01-31T10:00:00Z';
        default:
          return 'example';
      }
  }
}
